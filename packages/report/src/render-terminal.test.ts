import { describe, expect, it } from 'vitest';
import { ALL_CASES, GENERATED_AT, MANIFESTS, ROWS, SPEED, makeRow } from './__fixtures__/results';
import { buildReport } from './build';
import { renderMarkdown, renderSummaryTable } from './render-markdown';
import { renderTerminalSummary } from './render-terminal';

const data = buildReport({ rows: ROWS, manifests: MANIFESTS, speed: SPEED, generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
const longest = (text: string) => Math.max(...text.trimEnd().split('\n').map((l) => l.length));

describe('renderTerminalSummary', () => {
  it('fits the width it is given, the wide Markdown table does not', () => {
    expect(longest(renderSummaryTable(data))).toBeGreaterThan(200);
    for (const width of [60, 80, 120, 200]) expect(longest(renderTerminalSummary(data, { width }))).toBeLessThanOrEqual(width);
  });

  it('keeps rank, model, overall and hard first, adds speed and categories as room allows, and says what it left out', () => {
    const narrow = renderTerminalSummary(data, { width: 60 });
    const [header, first] = narrow.split('\n');
    expect(header).toMatch(/^#\s+Model\s+All\s+Hard/);
    expect(first).toMatch(/^1\s+deepseek-pro ⚠\s+96% \(51\/53\)\s+94%/);
    expect(narrow).toMatch(/\(\d+ more columns in report\.md\)\n$/);
    const wide = renderTerminalSummary(data, { width: 400 });
    expect(wide.split('\n')[0]).toMatch(/Decode T\/s\s+TTFT\s+coding.*Cost\s+Pending\s+Errors\s+Overflows$/);
    expect(wide).not.toContain('more column');
    expect(wide.split('\n')).toHaveLength(data.models.length + 2);
  });

  it('shows control characters and escape sequences of model names and reasons, never obeys them', () => {
    const hostile = '\u001b[2J\u001b]0;owned\u0007';
    const short = ALL_CASES[0]!.short;
    const rows = [makeRow({ model: `evil${hostile}`, short, status: 'fail', reason: `expected 5, got ${hostile}` })];
    const d = buildReport({ rows, generatedAt: GENERATED_AT, toolVersion: '0.1.0' });
    for (const text of [renderTerminalSummary(d, { width: 200 }), renderMarkdown(d), renderSummaryTable(d)]) {
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(text).toContain('evil␛[2J');
    }
    expect(renderMarkdown(d)).toContain('␛]0;owned␇');
  });
});
