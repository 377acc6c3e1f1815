/** Writes runner events to a terminal (a progress line redrawn in place) or a log (plain lines); the text is the runner's. */
import { eventText, type RunEvent } from '@crucibleforge/runner';
import type { CliIO } from './io';

/** Writes a run's events to the CLI's stdout until the run ends. */
export async function renderRun(events: AsyncIterable<RunEvent>, io: CliIO): Promise<void> {
  const tty = io.stdout.isTTY === true;
  let progress = '';
  const clear = () => {
    if (tty && progress) io.stdout.write('\r\x1b[2K');
  };
  for await (const event of events) {
    const line = eventText(event);
    if (event.type === 'progress') {
      if (tty && line) {
        clear();
        progress = line;
        io.stdout.write(progress);
      }
      continue;
    }
    if (line === null) continue;
    // On a terminal only failures and notable events scroll; passes just move the progress line.
    if (tty && event.type === 'case-end' && event.row.grade.status === 'pass') continue;
    clear();
    io.stdout.write(`${line}\n`);
    if (tty && progress) io.stdout.write(progress);
  }
  clear();
}
