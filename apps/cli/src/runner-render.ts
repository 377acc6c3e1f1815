/** Writes runner events to a terminal (a progress line redrawn in place) or a log (plain lines); the text is the runner's. */
import { redrawnLine } from '@crucibleforge/core';
import { eventText, type RunEvent } from '@crucibleforge/runner';
import type { CliIO } from './io';

/** Writes a run's events to the CLI's stdout until the run ends. */
export async function renderRun(events: AsyncIterable<RunEvent>, io: CliIO): Promise<void> {
  const tty = io.stdout.isTTY === true;
  const progress = redrawnLine(io.stdout);
  for await (const event of events) {
    const line = eventText(event);
    if (event.type === 'progress') {
      if (line) progress.show(line);
      continue;
    }
    // On a terminal only failures and notable events scroll; passes just move the progress line.
    if (line === null || (tty && event.type === 'case-end' && event.row.grade.status === 'pass')) continue;
    progress.clear();
    io.stdout.write(`${line}\n`);
    progress.restore();
  }
  progress.clear();
}
