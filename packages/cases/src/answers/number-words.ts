/** English number words as models write them: "thirty", "twenty-five", "a hundred and fifty", "fifteen and a half". */

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const SCALES: Record<string, number> = { thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };

export interface NumberWordRun {
  /** Index of the first word and one past the last word of the run. */
  start: number;
  end: number;
  value: number;
}

type Last = 'none' | 'unit' | 'teen' | 'tens' | 'hundred' | 'scale';

/** Reads one run of number words starting at `i`; null when words[i] does not start one. */
function readRun(words: readonly string[], i: number): NumberWordRun | null {
  let total = 0;
  let current = 0;
  let last: Last = 'none';
  let j = i;
  for (; j < words.length; j++) {
    const w = words[j]!;
    const next = words[j + 1];
    if (w === 'a' && last === 'none' && next !== undefined && (next === 'hundred' || next in SCALES)) {
      current = 1;
      last = 'unit';
    } else if (w in SMALL) {
      const v = SMALL[w]!;
      if (!(last === 'none' || last === 'hundred' || last === 'scale' || (last === 'tens' && v >= 1 && v <= 9))) break;
      current += v;
      last = v < 10 ? 'unit' : 'teen';
    } else if (w in TENS) {
      if (!(last === 'none' || last === 'hundred' || last === 'scale')) break;
      current += TENS[w]!;
      last = 'tens';
    } else if (w === 'hundred') {
      if (!(last === 'unit' || last === 'teen') || current === 0 || current >= 100) break;
      current *= 100;
      last = 'hundred';
    } else if (w in SCALES) {
      if (last === 'none' || last === 'scale' || current === 0) break;
      total += current * SCALES[w]!;
      current = 0;
      last = 'scale';
    } else if (w === 'and' && (last === 'hundred' || last === 'scale') && next !== undefined && (next in SMALL || next in TENS)) {
      // "a hundred and fifty": the "and" joins inside the run
    } else break;
  }
  if (last === 'none') return null;
  let value = total + current;
  if (words[j] === 'and' && words[j + 1] === 'a' && words[j + 2] === 'half') {
    value += 0.5;
    j += 3;
  }
  return { start: i, end: j, value };
}

/** Every run of number words in a list of lowercase words, in order ("two three" is two runs). */
export function numberWordRuns(words: readonly string[]): NumberWordRun[] {
  const runs: NumberWordRun[] = [];
  for (let i = 0; i < words.length; ) {
    const run = readRun(words, i);
    if (run) {
      runs.push(run);
      i = run.end;
    } else i++;
  }
  return runs;
}

/** The value of a text that is only number words ("twenty-five", "a hundred and fifty"), or null. */
export function parseNumberWords(text: string): number | null {
  const words = text.toLowerCase().replace(/[-‐‑–]/g, ' ').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const run = readRun(words, 0);
  return run && run.end === words.length ? run.value : null;
}
