/** bench-llm's colours: ANSI by the CLI's one colour rule, plain text otherwise (the text itself is the reporter's). */
import type { Paint } from '@crucibleforge/report';
import { useColor } from './output';

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** ANSI colour by the CLI's one rule ({@link useColor}: FORCE_COLOR, NO_COLOR, a terminal); plain text otherwise. */
export function paintFor(isTTY: boolean | undefined, env: Record<string, string | undefined>): Paint {
  if (!useColor(isTTY, env)) return { pass: plain, fail: plain, warn: plain, dim: plain, bold: plain };
  return { pass: wrap(32, 39), fail: wrap(31, 39), warn: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
