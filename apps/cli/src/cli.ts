import { main } from './main';
import { runEntry } from './node-io';

runEntry((io) => main(process.argv.slice(2), io));
