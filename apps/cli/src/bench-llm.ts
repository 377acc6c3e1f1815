import { main } from './main';
import { runEntry } from './node-io';

// `bench-llm <model> …` is `crucibleforge bench-llm <model> …`.
runEntry((io) => main(['bench-llm', ...process.argv.slice(2)], io));
