import { isMap, parseAllDocuments } from 'yaml';
import { difficultyFromEvidence } from './difficulty';
import type { BlindCalibration } from './schema/case';

/**
 * The case file's text with `calibration` set on case `id` and `difficulty` set to what the evidence says.
 * Comments and the order of the other keys are kept; `calibration` goes right after `why_hard` (or
 * `difficulty`). Pure: the caller reads and writes the file. Returns null when no document has that id.
 */
export function withCalibration(text: string, id: string, calibration: BlindCalibration): string | null {
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [];
  let found = false;
  for (const doc of list) {
    const root = doc.contents;
    if (!isMap(root) || root.get('id') !== id) continue;
    found = true;
    root.set('difficulty', difficultyFromEvidence(calibration));
    const node = doc.createNode(Object.fromEntries(Object.entries(calibration).filter(([, v]) => v !== undefined)));
    const at = root.items.findIndex((p) => (p.key as { value?: unknown } | null)?.value === 'calibration');
    if (at >= 0) {
      root.items[at]!.value = node;
      continue;
    }
    const after = ['why_hard', 'tags', 'difficulty'].map((k) => root.items.findIndex((p) => (p.key as { value?: unknown } | null)?.value === k)).find((i) => i >= 0) ?? root.items.length - 1;
    root.items.splice(after + 1, 0, doc.createPair('calibration', node));
  }
  if (!found) return null;
  return list.map((d) => d.toString({ lineWidth: 0 })).join('');
}
