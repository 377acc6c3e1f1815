import { createHash } from 'node:crypto';
import { CrucibleError } from '@crucibleforge/core';
import { describe, expect, it } from 'vitest';
import { GENERATED_AT, MANIFESTS, PAIRWISE, ROWS, SPEED, XSS, makeRow } from './__fixtures__/results';
import { buildReport } from './build';
import { parseReportFormats, renderJson, renderReportFiles } from './output';
import { renderHtml } from './render-html';
import { renderMarkdown, renderSummaryTable } from './render-markdown';

const data = buildReport({
  rows: ROWS,
  manifests: MANIFESTS,
  speed: SPEED,
  pairwise: PAIRWISE,
  generatedAt: GENERATED_AT,
  toolVersion: '0.1.0',
});

describe('renderMarkdown', () => {
  const md = renderMarkdown(data);

  it('has one leaderboard row per model with pct% (passes/graded) per category', () => {
    expect(md).toContain(
      '| 1 | deepseek-pro ⚠ | 96% (51/53) | 83% (5/6) | 100% (6/6) | 100% (6/6) | 83% (5/6) | 100% (6/6) | 100% (6/6) | 100% (6/6) | 100% (5/5) | 100% (6/6) | 94% (16/17) | 1 | 0 | 0 | 0 | 95.3 | 0.42 s | $2.70 | 1 (1 recovered / 0 not) | judge-122b (prompt v3) |',
    );
    expect(md).toContain('| 3 | llama-small ⚠ | 76% (39/51) | 33% (2/6) |');
    expect(md).toContain('| 125.0 * | 0.20 s * | — | 0 | gpt-judge (prompt v3) |');
    expect(md).toContain('| 4 | mystery-7b ⚠ | 50% (3/6) | 50% (3/6) | — | — |');
  });

  it('prints the Wilson intervals', () => {
    expect(md).toContain('| deepseek-pro | 96% [87–99] | 83% [44–97] |');
  });

  it('lists every failure on one line with its reason', () => {
    expect(md).toContain('- deepseek-pro [coding] CZ01-prime-census: TRUNCATED at 32768 tokens (32768 reasoning tokens); no code in response (graders/1)\n');
    expect(md).toContain('- deepseek-pro [tooluse] TZ06-three-parallel-one-turn: 1 calls, expected 3 (graders/1)\n');
    expect(md).toContain('## Failures (24)');
    // Model-written markup cannot become HTML in a Markdown viewer.
    expect(md).toContain('- llama-small [coding] CZ03: SyntaxError: \\<b>unexpected\\</b> token (graders/1)\n');
  });

  it('says who beats whom only when significant, and otherwise "within noise"', () => {
    expect(md).toContain('- deepseek-pro beats llama-small (p=0.0020) — 49 common graded cases;');
    expect(md).toContain('- deepseek-pro vs qwen3-local: within noise (p=0.25) — 50 common graded cases;');
  });

  it('marks what is not comparable and names models and cases', () => {
    expect(md).toContain('> - Case MZ03 [math] ran at different revisions (current r2): r1: deepseek-pro, qwen3-local; r2: llama-small');
    expect(md).toMatch(/> - Judged by different judges .*gpt-judge \(prompt v3\) at https:\/\/api\.example\.com\/v1: llama-small \(6 rows: PZ01, PZ02, PZ03, PZ04, PZ05 and 1 more\)/);
    expect(md).toContain('- mystery-7b: ran 6 of 54 cases;');
  });

  it('renders the pairwise summary as ratings and win/tie/loss tables', () => {
    expect(md).toContain('| deepseek-pro | 1180 | 78% | 14 | 3 | 3 | 20 |');
    expect(md).toContain('| qwen3-local | llama-small | 5 | 0 | 5 | 50% | 24–76 |');
  });

  it('escapes pipes in table cells', () => {
    const d = buildReport({ rows: [makeRow({ model: 'a|b', short: 'CZ01' })], generatedAt: GENERATED_AT, toolVersion: '1' });
    expect(renderSummaryTable(d)).toContain('| 1 | a\\|b | 100% (1/1) |');
  });

  it('includes the summary table verbatim (what the CLI prints)', () => {
    expect(md).toContain(renderSummaryTable(data));
  });

  it('matches the snapshot', () => {
    expect(md).toMatchSnapshot();
  });
});

describe('renderJson', () => {
  it('round-trips the whole report with its schema version', () => {
    const json = renderJson(data);
    expect(json.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(json);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(data)));
    expect(parsed.schema_version).toBe(1);
    expect(parsed.models[0].categories.coding).toMatchObject({ passes: 5, graded: 6 });
    expect(parsed.failures[0].detail.usage.completion_tokens).toBe(32768);
  });
});

describe('renderHtml (static checks; the browser test drives it)', () => {
  const evil = buildReport({
    rows: [
      ...ROWS,
      makeRow({ model: `m${XSS}`, short: 'CZ01', status: 'fail', reason: XSS, patch: { content: XSS, reasoning: XSS, title: XSS } }),
    ],
    generatedAt: GENERATED_AT,
    toolVersion: '0.1.0',
  });
  const page = renderHtml(evil);

  it('contains exactly one script element and no model-written tag', () => {
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('window.__pwned=1</script>');
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  });

  it('loads nothing from anywhere: no src/href attributes, a CSP that allows only its own script', () => {
    const attributeNames = (page.match(/<[a-z][^>]*>/gi) ?? []).flatMap((tag) =>
      [...tag.replace(/"[^"]*"/g, '""').matchAll(/\s([a-z-]+)=/gi)].map((m) => m[1]?.toLowerCase()),
    );
    expect(attributeNames.length).toBeGreaterThan(100);
    expect(attributeNames.filter((n) => n === 'src' || n === 'href' || n === 'action' || n?.startsWith('on'))).toEqual([]);
    const script = /<script>([\s\S]*)<\/script>/.exec(page)?.[1] ?? '';
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1]?.replace(/&#39;/g, "'");
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toMatch(/^default-src 'none';/);
  });

  it('has the table, the charts, the scatter and the failures', () => {
    const html = renderHtml(data);
    expect(html).toContain('<table id="leaderboard" class="sortable">');
    expect(html.match(/<figure class="chart"/g)).toHaveLength(data.categories.length + 2);
    expect(html).toContain('<figure class="scatter">');
    expect(html.match(/<details class="failure"/g)).toHaveLength(24);
    expect(html).toContain('id="pairwise"');
  });
});

describe('formats', () => {
  it('parses --format lists', () => {
    expect(parseReportFormats('md,json,html')).toEqual(['md', 'json', 'html']);
    expect(parseReportFormats(' HTML , markdown,md ')).toEqual(['html', 'md']);
    expect(parseReportFormats('')).toEqual(['md', 'json', 'html']);
    let caught: unknown;
    try {
      parseReportFormats('md,pdf');
    } catch (error) {
      caught = error;
    }
    expect(CrucibleError.isInstance(caught) && `${caught.code}: ${caught.message}`).toBe(
      'REPORT_UNKNOWN_FORMAT: unknown report format "pdf" (expected one of md, json, html)',
    );
  });

  it('renders files by name without writing anything', () => {
    const files = renderReportFiles(data, ['json', 'md']);
    expect(files.map((f) => f.fileName)).toEqual(['report.json', 'report.md']);
    expect(files[1]?.content).toBe(renderMarkdown(data));
    expect(renderReportFiles(data).map((f) => f.format)).toEqual(['md', 'json', 'html']);
  });
});
