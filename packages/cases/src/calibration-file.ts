import { isMap, parseAllDocuments, stringify, type YAMLMap } from 'yaml';
import { difficultyFromEvidence } from './difficulty';
import type { BlindCalibration } from './schema/case';

const TOP_KEY = /^[A-Za-z_][A-Za-z0-9_]*:/;

/** One document's text with the two keys rewritten line by line, so every other byte stays as written. */
function editDocument(text: string, calibration: BlindCalibration): string {
  const lines = text.split('\n');
  const isTop = (i: number) => TOP_KEY.test(lines[i] ?? '');
  const blockEnd = (start: number) => {
    let end = start + 1;
    while (end < lines.length && !isTop(end) && !/^(---|\.\.\.)\s*$/.test(lines[end]!)) end++;
    return end;
  };
  const find = (key: string) => lines.findIndex((l) => l.startsWith(`${key}:`));
  const old = find('calibration');
  if (old >= 0) lines.splice(old, blockEnd(old) - old);
  const difficulty = find('difficulty');
  lines[difficulty] = `difficulty: ${difficultyFromEvidence(calibration)}`;
  const fields = Object.fromEntries(Object.entries(calibration).filter(([, v]) => v !== undefined));
  const block = stringify({ calibration: fields }, { lineWidth: 0 }).trimEnd().split('\n');
  const anchor = ['why_hard', 'tags', 'difficulty'].map(find).find((i) => i >= 0)!;
  lines.splice(blockEnd(anchor), 0, ...block);
  return lines.join('\n');
}

/**
 * The case file's text with `calibration` set on case `id` and `difficulty` set to what the evidence says.
 * Only those lines change (comments, folding and flow style stay as written); `calibration` goes right after
 * `why_hard` (or `tags`, or `difficulty`). Pure: the caller reads and writes the file. Returns null when no
 * document has that id with a top-level `difficulty` line.
 */
export function withCalibration(text: string, id: string, calibration: BlindCalibration): string | null {
  const docs = parseAllDocuments(text);
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (!isMap(doc.contents) || (doc.contents as YAMLMap<unknown, unknown>).get('id') !== id) continue;
    const [start, , end] = doc.range;
    const segment = text.slice(start, end);
    if (!/^difficulty:/m.test(segment)) return null;
    return text.slice(0, start) + editDocument(segment, calibration) + text.slice(end);
  }
  return null;
}
