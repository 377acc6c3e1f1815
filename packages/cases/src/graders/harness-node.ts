import { SENTINEL_PLACEHOLDER } from '@crucibleforge/sandbox';
import type { CodeTest } from '../schema/graders';
import { MARK } from './harness-marks';

const q = (s: string) => JSON.stringify(s);

/** ESM `export` keywords are dropped so the program runs as a script (models add them out of habit). */
const STRIP_EXPORTS = String.raw`src.replace(/^(\s*)export\s+default\s+(?=(?:async\s+)?function|class)/gm, '$1').replace(/^(\s*)export\s+(?=(?:async\s+)?function|class|const|let|var)/gm, '$1')`;

/**
 * The Node harness (works whether the sandbox runs it as CommonJS or ESM). The model's program arrives
 * base64-encoded and runs as a script in this context via node:vm (so `function f`, `const f` and
 * `module.exports = { f }` all define `f`); then the tests run inside one async function so setup helpers
 * are shared and returned promises are awaited. Marks and the sentinel use synchronous writes.
 */
export function nodeHarness(program: string, fn: string, tests: CodeTest[], setup?: string): string {
  const src = Buffer.from(program, 'utf8').toString('base64');
  const body: string[] = [];
  if (setup) body.push('// --- setup ---', setup, '// --- tests ---');
  tests.forEach((t, i) => {
    const label = `test ${i + 1}${t.name ? ` (${t.name})` : ''}`;
    body.push(`__cf.mark(${q(MARK.test)}, ${q(label)});`);
    if ('call' in t) {
      body.push(
        '{',
        '  let __cf_got;',
        `  try { __cf_got = await (${t.call}); } catch (e) { __cf.fail(${q(label)}, 'raised ' + __cf.err(e)); }`,
        `  const __cf_exp = (${String(t.expect)});`,
        `  if (!__cf.eq(__cf_exp, __cf_got)) __cf.fail(${q(label)}, 'expected ' + __cf.short(__cf_exp) + ', got ' + __cf.short(__cf_got));`,
        '}',
      );
    } else {
      body.push(
        'try {',
        t.code,
        `} catch (e) { __cf.fail(${q(label)}, e && e.name === 'AssertionError' ? (e.message || 'assertion failed') : 'raised ' + __cf.err(e)); }`,
      );
    }
  });
  return `
;(async () => {
  const __fs = await import('node:fs');
  const __vm = await import('node:vm');
  const __util = await import('node:util');
  const __mod = await import('node:module');
  const __cf = {
    mark(kind, msg) { __fs.writeSync(1, '\\n' + kind + ' ' + String(msg).replace(/\\n/g, ' ').slice(0, 400) + '\\n'); },
    err(e) { return e && e.name ? e.name + (e.message ? ': ' + String(e.message).slice(0, 200) : '') : String(e).slice(0, 200); },
    short(v) {
      let s;
      try { s = __util.inspect(v, { depth: 4, breakLength: Infinity, maxArrayLength: 20 }); } catch { s = '<unprintable>'; }
      return s.length <= 80 ? s : s.slice(0, 77) + '...';
    },
    eq(a, b) {
      if (typeof a === 'number' && typeof b === 'number') {
        if (Number.isInteger(a) && Number.isInteger(b)) return a === b;
        if (Number.isNaN(a)) return Number.isNaN(b);
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
      }
      if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => __cf.eq(x, b[i]));
      if (a instanceof Map) return b instanceof Map && a.size === b.size && [...a].every(([k, v]) => b.has(k) && __cf.eq(v, b.get(k)));
      if (a instanceof Set) return b instanceof Set && a.size === b.size && [...a].every((x) => b.has(x));
      if (a !== null && typeof a === 'object' && Object.getPrototypeOf(a) === Object.prototype) {
        if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
        const ka = Object.keys(a), kb = Object.keys(b);
        return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && __cf.eq(a[k], b[k]));
      }
      return __util.isDeepStrictEqual(a, b);
    },
    fail(label, msg) { __cf.mark(${q(MARK.fail)}, label + ' failed: ' + msg); process.exit(1); },
  };
  const src = Buffer.from(${q(src)}, 'base64').toString('utf8');
  globalThis.module = { exports: {} };
  globalThis.exports = globalThis.module.exports;
  globalThis.require = __mod.createRequire(process.cwd() + '/');
  try {
    __vm.runInThisContext(${STRIP_EXPORTS}, { filename: 'solution.js' });
  } catch (e) {
    const where = e && e.stack ? /solution\\.js:(\\d+)/.exec(e.stack) : null;
    __cf.mark(${q(MARK.load)}, __cf.err(e) + (where ? ' (line ' + where[1] + ')' : ''));
    process.exit(1);
  }
  if (typeof ${fn} === 'undefined') {
    const ex = globalThis.module.exports;
    const found = ex && (ex[${q(fn)}] ?? ex.default ?? (typeof ex === 'function' ? ex : undefined));
    if (found === undefined) { __cf.mark(${q(MARK.load)}, ${q(`${fn} is not defined`)}); process.exit(1); }
    globalThis[${q(fn)}] = found;
  }
${body.join('\n')}
  __cf.mark(${q(MARK.done)}, ${tests.length});
  __fs.writeSync(1, ${q(SENTINEL_PLACEHOLDER)} + '\\n');
})().catch((e) => {
  process.stdout.write('\\n${MARK.fail} harness error: ' + String(e && e.message).replace(/\\n/g, ' ') + '\\n');
  process.exitCode = 1;
});
`;
}
