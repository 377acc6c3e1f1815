import { containsNeedle, foldText } from '../text/normalize';

export interface MappingElement {
  key: string;
  expected: string;
  got: string | null;
  pass: boolean;
}

const named = (text: string, candidates: string[]) => candidates.filter((c) => containsNeedle(text, c));

interface Assignment {
  key: string;
  value: string;
  at: number;
}

/** Markdown tables as lines of cells (separator rows dropped). */
function tables(text: string): { cells: string[][]; at: number }[] {
  const out: { cells: string[][]; at: number }[] = [];
  let current: { cells: string[][]; at: number } | null = null;
  let offset = 0;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('|')) {
      current ??= { cells: [], at: offset };
      if (!/^\|?[\s:|-]+\|?$/.test(t)) current.cells.push(t.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()));
    } else if (current) {
      out.push(current);
      current = null;
    }
    offset += line.length + 1;
  }
  if (current) out.push(current);
  return out;
}

/**
 * A line of cells (a row, or a column) that names exactly one value in one cell and keys in the others
 * gives each of those keys that value: `| 3 | Farid | kayak | cat |`, `| Ada | plums | Tarn | hook |`.
 */
function lineAssignments(cells: string[], keys: string[], values: string[], at: number): Assignment[] {
  const valueCells = cells.map((c, i) => ({ i, v: named(c, values).filter((v) => !keys.some((k) => foldText(k) === foldText(v))) })).filter((x) => x.v.length > 0);
  if (valueCells.length !== 1 || valueCells[0]!.v.length !== 1) return [];
  const value = valueCells[0]!.v[0]!;
  const out: Assignment[] = [];
  cells.forEach((c, i) => {
    if (i === valueCells[0]!.i) return;
    const ks = named(c, keys);
    if (ks.length === 1) out.push({ key: ks[0]!, value, at });
  });
  return out;
}

function tableAssignments(text: string, keys: string[], values: string[]): Assignment[] {
  const out: Assignment[] = [];
  for (const table of tables(text)) {
    const rows = table.cells;
    const byRow = rows.flatMap((r) => lineAssignments(r, keys, values, table.at));
    const width = Math.max(0, ...rows.map((r) => r.length));
    const byColumn = Array.from({ length: width }, (_, j) => lineAssignments(rows.map((r) => r[j] ?? ''), keys, values, table.at)).flat();
    out.push(...(byRow.length >= byColumn.length ? byRow : byColumn));
  }
  return out;
}

/**
 * The key → value map an answer states. Markdown tables are read by rows or by columns (whichever
 * assigns more); other text is cut into clauses at line breaks, `;`, `,` and " and ", and a clause that
 * names exactly one key and one candidate value assigns it. A key's last assignment wins.
 */
export function extractMapping(text: string, keys: string[], values: string[]): Map<string, string> {
  const found: Assignment[] = tableAssignments(text, keys, values);
  let offset = 0;
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('|')) {
      for (const clause of line.split(/;|,|\band\b/i)) {
        const ks = named(clause, keys);
        const vs = named(clause, values).filter((v) => !ks.some((k) => foldText(k) === foldText(v)));
        if (ks.length === 1 && vs.length === 1) found.push({ key: ks[0]!, value: vs[0]!, at: offset });
      }
    }
    offset += line.length + 1;
  }
  found.sort((a, b) => a.at - b.at);
  const map = new Map<string, string>();
  for (const a of found) map.set(a.key, a.value);
  return map;
}

/** Per-key verdicts of a mapping answer. */
export function mappingElements(text: string, expected: Record<string, string>, values: string[]): MappingElement[] {
  const keys = Object.keys(expected);
  const got = extractMapping(text, keys, values);
  return keys.map((key) => {
    const g = got.get(key) ?? null;
    return { key, expected: expected[key]!, got: g, pass: g !== null && foldText(g) === foldText(expected[key]!) };
  });
}
