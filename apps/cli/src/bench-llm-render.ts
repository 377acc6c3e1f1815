/** bench-llm's colours: ANSI on a terminal without NO_COLOR, plain text otherwise (the text itself is the reporter's). */
import type { Paint } from '@crucibleforge/report';

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** ANSI colour when writing to a terminal and NO_COLOR is not set; plain text otherwise. */
export function paintFor(isTTY: boolean | undefined, env: Record<string, string | undefined>): Paint {
  if (!isTTY || env['NO_COLOR'] !== undefined || env['TERM'] === 'dumb') return { pass: plain, fail: plain, warn: plain, dim: plain, bold: plain };
  return { pass: wrap(32, 39), fail: wrap(31, 39), warn: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
