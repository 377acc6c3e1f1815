import { SENTINEL_PLACEHOLDER } from '@crucibleforge/sandbox';
import type { CodeTest } from '../schema/graders';
import { MARK } from './harness-marks';

const q = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Python str literal

function indent(code: string, by = '    '): string {
  return code
    .split('\n')
    .map((l) => (l.trim() === '' ? '' : by + l))
    .join('\n');
}

/**
 * The Python test harness. The model's program arrives base64-encoded (so nothing it contains can touch
 * the harness text or the sentinel placeholder), runs with `__name__ = "solution"` (its demo `main` block
 * stays quiet), then each test runs in turn: a progress mark, the call, a type-strict comparison that a
 * custom `__eq__` cannot fool, a failure mark naming the test. The sentinel is printed last.
 */
export function pythonHarness(program: string, fn: string, tests: CodeTest[], setup?: string): string {
  const src = Buffer.from(program, 'utf8').toString('base64');
  const lines: string[] = [
    'import sys as _cf_sys, base64 as _cf_b64',
    '_cf_real_out = _cf_sys.stdout',
    'def _cf_mark(kind, msg):',
    '    _cf_real_out.write("\\n" + kind + " " + str(msg).replace("\\n", " ")[:400] + "\\n")',
    '    _cf_real_out.flush()',
    'def _cf_exc(e):',
    '    s = str(e).replace("\\n", " ")',
    '    return type(e).__name__ + (": " + s[:200] if s else "")',
    '_cf_src = _cf_b64.b64decode("' + src + '").decode("utf-8")',
    'globals()["__name__"] = "solution"',
    'try:',
    '    exec(compile(_cf_src, "solution.py", "exec"), globals())',
    'except SystemExit:',
    '    pass',
    'except BaseException as _cf_e:',
    '    _cf_line = getattr(_cf_e, "lineno", None)',
    '    if _cf_line is None:',
    '        _cf_tb = _cf_e.__traceback__',
    '        while _cf_tb is not None:',
    '            if _cf_tb.tb_frame.f_code.co_filename == "solution.py": _cf_line = _cf_tb.tb_lineno',
    '            _cf_tb = _cf_tb.tb_next',
    `    _cf_mark(${q(MARK.load)}, _cf_exc(_cf_e) + (" (line %s)" % _cf_line if _cf_line else ""))`,
    '    _cf_sys.exit(1)',
    'globals()["__name__"] = "__main__"',
    `if ${q(fn)} not in globals():`,
    `    _cf_mark(${q(MARK.load)}, ${q(`${fn} is not defined`)})`,
    '    _cf_sys.exit(1)',
    'def _cf_short(v):',
    '    try:',
    '        r = repr(v)',
    '    except BaseException:',
    '        r = "<unprintable " + type(v).__name__ + ">"',
    '    return r if len(r) <= 80 else r[:77] + "..."',
    'def _cf_eq(a, b):',
    '    ta, tb = type(a), type(b)',
    '    if ta is bool or tb is bool:',
    '        return ta is tb and a == b',
    '    if ta in (int, float) and tb in (int, float):',
    '        if ta is float or tb is float:',
    '            return abs(a - b) <= 1e-9 * max(1.0, abs(a))',
    '        return a == b',
    '    if ta in (list, tuple) and tb in (list, tuple):',
    '        return len(a) == len(b) and all(_cf_eq(x, y) for x, y in zip(a, b))',
    '    if ta is dict and tb is dict:',
    '        return len(a) == len(b) and all(k in b and _cf_eq(v, b[k]) for k, v in a.items())',
    '    if ta in (set, frozenset) and tb in (set, frozenset):',
    '        return len(a) == len(b) and all(x in b for x in a)',
    '    if a is None:',
    '        return b is None',
    '    return ta is tb and a == b',
    'def _cf_fail(label, msg):',
    `    _cf_mark(${q(MARK.fail)}, label + " failed: " + msg)`,
    '    _cf_sys.exit(1)',
  ];
  if (setup) lines.push('# --- setup ---', setup, '# --- tests ---');
  tests.forEach((t, i) => {
    const label = `test ${i + 1}${t.name ? ` (${t.name})` : ''}`;
    lines.push(`_cf_mark(${q(MARK.test)}, ${q(label)})`);
    if ('call' in t) {
      lines.push(
        'try:',
        `    _cf_got = (${t.call})`,
        'except BaseException as _cf_e:',
        `    _cf_fail(${q(label)}, "raised " + _cf_exc(_cf_e))`,
        `_cf_exp = (${String(t.expect)})`,
        'if not _cf_eq(_cf_exp, _cf_got):',
        `    _cf_fail(${q(label)}, "expected " + _cf_short(_cf_exp) + ", got " + _cf_short(_cf_got))`,
      );
    } else {
      lines.push(
        'try:',
        indent(t.code),
        '    pass',
        'except AssertionError as _cf_e:',
        `    _cf_fail(${q(label)}, str(_cf_e) or "assertion failed")`,
        'except BaseException as _cf_e:',
        `    _cf_fail(${q(label)}, "raised " + _cf_exc(_cf_e))`,
      );
    }
  });
  lines.push(`_cf_mark(${q(MARK.done)}, ${tests.length})`, `_cf_real_out.write(${q(SENTINEL_PLACEHOLDER)} + "\\n")`, '_cf_real_out.flush()');
  return `${lines.join('\n')}\n`;
}
