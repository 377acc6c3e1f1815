export { main, usage, VERSION } from './main';
export { UsageError, EXIT } from './io';
export type { CliIO, CommandModule } from './io';
