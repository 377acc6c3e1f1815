/**
 * The two Node programs of a code grading: the solution's driver (untrusted process) and the checker
 * (trusted process: tests, helpers, expected values, the report to the host on fd 7).
 */

/** main.js of the solution's sandbox. */
export const NODE_DRIVER = String.raw`'use strict';
// The solution's process: loads the model's program and the case's driver helpers, then answers the
// checker's requests (calls as data) with results serialised by type. Nothing here decides a verdict.
const fs = require('node:fs');
const vm = require('node:vm');
const { createRequire } = require('node:module');
const wire = require('./wire.js');
const { Peer } = require('./peer.js');

const FUNCTION = String(JSON.parse(fs.readFileSync('job.json', 'utf8')).function);
const STRIP_EXPORTS = (src) =>
  src
    .replace(/^(\s*)export\s+default\s+(?=(?:async\s+)?function|class)/gm, '$1')
    .replace(/^(\s*)export\s+(?=(?:async\s+)?function|class|const|let|var)/gm, '$1');

function describe(e) {
  return e && e.name ? e.name + (e.message ? ': ' + String(e.message).slice(0, 200) : '') : String(e).slice(0, 200);
}

/** A name of the program's global scope (function, var, let, const and class declarations alike). */
function lookup(name) {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new ReferenceError(name + ' is not a name');
  try {
    return vm.runInThisContext(name);
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
  }
  throw new ReferenceError(name + ' is not defined');
}

function load() {
  globalThis.module = { exports: {} };
  globalThis.exports = globalThis.module.exports;
  globalThis.require = createRequire(process.cwd() + '/');
  let src;
  try {
    src = fs.readFileSync('solution.js', 'utf8');
    vm.runInThisContext(STRIP_EXPORTS(src), { filename: 'solution.js' });
  } catch (e) {
    const where = e && e.stack ? /solution\.js:(\d+)/.exec(e.stack) : null;
    return describe(e) + (where ? ' (line ' + where[1] + ')' : '');
  }
  let missing = false;
  try {
    lookup(FUNCTION);
  } catch {
    missing = true;
  }
  if (missing) {
    const ex = globalThis.module.exports;
    const found = ex && (ex[FUNCTION] ?? ex.default ?? (typeof ex === 'function' ? ex : undefined));
    if (found === undefined) return FUNCTION + ' is not defined';
    globalThis[FUNCTION] = found;
  }
  if (fs.existsSync('driver.js')) {
    try {
      vm.runInThisContext(fs.readFileSync('driver.js', 'utf8'), { filename: 'driver.js' });
    } catch (e) {
      return "the case's driver helpers failed: " + describe(e);
    }
  }
  return null;
}

const peer = new Peer('s', ['call', 'new', 'get', 'has', 'iter']);

function target(ref) {
  return typeof ref === 'string' ? lookup(ref) : peer.codec.dec(ref);
}

/** { value, mutations } for one request, or a thenable value to await first. */
function run(message) {
  const op = message[0];
  if ((op === 'call' || op === 'new') && message.length === 4 && Array.isArray(message[2])) {
    const fn = target(message[1]);
    const args = message[2].map((a) => peer.codec.dec(a));
    const self = message[3] === null ? undefined : peer.codec.dec(message[3]);
    const encoded = [...message[2].map((a, i) => [i, a]), ['this', message[3]]];
    const watched = encoded.map(([key, a], i) => [key, i < args.length ? args[i] : self, a]).filter(([, a]) => wire.mutable(a));
    // A second decoding of the request is a fresh deep copy: what the arguments were before the call.
    const pristine = watched.map(([, , a]) => peer.codec.dec(a));
    const value = op === 'new' ? Reflect.construct(fn, args) : Reflect.apply(fn, self, args);
    const mutations = () => watched.flatMap(([key, a], i) => (wire.same(a, pristine[i]) ? [] : [[key, peer.codec.enc(a)]]));
    return { value, mutations };
  }
  if (message.length < 2) throw new wire.ProtocolError('a malformed ' + op);
  const obj = target(message[1]);
  if (op === 'get' && message.length === 3 && typeof message[2] === 'string') return { value: obj[message[2]], mutations: () => [] };
  if (op === 'has' && message.length === 3 && typeof message[2] === 'string') return { value: message[2] in obj, mutations: () => [] };
  if (op === 'iter') return { value: obj[Symbol.iterator](), mutations: () => [] };
  throw new wire.ProtocolError('a malformed ' + op);
}

// Nested requests (while the solution waits on the checker) are answered synchronously.
peer.server = (message) => peer.answer(() => {
  const r = run(message);
  return { value: r.value, mutations: r.mutations() };
});

async function main() {
  const problem = load();
  peer.send(['hello', problem]);
  if (problem !== null) return;
  for (;;) {
    const message = peer.recv();
    if (message.length === 1 && message[0] === 'bye') {
      peer.send(['bye']);
      return;
    }
    let reply;
    try {
      const r = run(message);
      let value = r.value;
      if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function') value = await value;
      reply = ['ok', peer.codec.enc(value), r.mutations()];
    } catch (e) {
      if (e instanceof wire.ChannelClosed || e instanceof wire.ProtocolError) throw e;
      reply = wire.exceptionMessage(peer.codec, e);
    }
    try {
      peer.send(reply);
    } catch (e) {
      if (e instanceof RangeError) peer.send(wire.exceptionMessage(peer.codec, e));
      else throw e;
    }
  }
}

main().then(
  () => process.exit(0),
  (e) => process.exit(e instanceof wire.ChannelClosed || e instanceof wire.ProtocolError ? 0 : 1),
);
`;

/** main.js of the checker's sandbox. */
export const NODE_CHECKER = String.raw`'use strict';
// The checker's process: the case's tests, helpers and expected values. Calls the solution's names through
// the channel, compares under the case's rules, and reports each test to the host on fd 7.
const fs = require('node:fs');
const vm = require('node:vm');
const util = require('node:util');
const wire = require('./wire.js');
const { Peer } = require('./peer.js');

const REPORT_FD = 7;
const report = (event) => fs.writeSync(REPORT_FD, JSON.stringify(event) + '\n');

function short(v) {
  let s;
  try {
    s = util.inspect(v, { depth: 4, breakLength: Infinity, maxArrayLength: 20 });
  } catch {
    s = '<unprintable>';
  }
  return s.length <= 80 ? s : s.slice(0, 77) + '...';
}

function describe(e) {
  if (e instanceof Error) {
    let name = 'Error';
    let message = '';
    try {
      name = String(e.name);
      message = String(e.message);
    } catch {}
    return name + (message ? ': ' + message.slice(0, 200) : '');
  }
  return short(e);
}

function eq(a, b, tol) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    if (Number.isInteger(a) && Number.isInteger(b)) return a === b;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
    return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a));
  }
  if (wire.PROXY_INFO.has(a) || wire.PROXY_INFO.has(b)) return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => eq(x, b[i], tol));
  if (a instanceof Map) return b instanceof Map && a.size === b.size && [...a].every(([k, v]) => b.has(k) && eq(v, b.get(k), tol));
  if (a instanceof Set) return b instanceof Set && a.size === b.size && [...a].every((x) => b.has(x));
  if (a !== null && typeof a === 'object' && Object.getPrototypeOf(a) === Object.prototype) {
    if (b === null || typeof b !== 'object' || Array.isArray(b) || Object.getPrototypeOf(b) !== Object.prototype) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && eq(a[k], b[k], tol));
  }
  return util.isDeepStrictEqual(a, b);
}

function unorderedEq(a, b, tol) {
  const items = (v) => (Array.isArray(v) ? v : v instanceof Set ? [...v] : null);
  const left = items(b);
  const want = items(a);
  if (!left || !want || left.length !== want.length) return false;
  const rest = [...left];
  return want.every((x) => {
    const j = rest.findIndex((y) => eq(x, y, tol));
    if (j < 0) return false;
    rest.splice(j, 1);
    return true;
  });
}

class TestFailed extends Error {}

const run = (code, what) => vm.runInThisContext(code, { filename: what });

async function runTest(t) {
  if (t.code !== undefined) {
    await run('(async () => {\n' + t.code + '\n})()', 'test');
    return;
  }
  const got = await run('(async () => (\n' + t.call + '\n))()', 'call');
  if (t.check !== undefined) {
    const verdict = await run('(\n' + t.check + '\n)', 'check')(got);
    if (verdict !== true && verdict !== undefined) throw new TestFailed('got ' + short(got) + ', which ' + t.check + ' rejects');
    return;
  }
  const expected = run('(\n' + t.expect + '\n)', 'expect');
  const tol = t.tolerance ?? 1e-9;
  if (t.compare === 'unordered') {
    if (!unorderedEq(expected, got, tol)) throw new TestFailed('expected ' + short(expected) + ' in any order, got ' + short(got));
  } else if (t.compare === 'any_of') {
    if (!Array.isArray(expected) || !expected.some((alt) => eq(alt, got, tol))) throw new TestFailed('expected one of ' + short(expected) + ', got ' + short(got));
  } else if (!eq(expected, got, tol)) {
    throw new TestFailed('expected ' + short(expected) + ', got ' + short(got));
  }
}

async function verdictOf(peer, t) {
  let status = 'pass';
  let reason = '';
  try {
    await runTest(t);
  } catch (e) {
    status = 'fail';
    if (e instanceof TestFailed) reason = e.message;
    else if (e instanceof Error && e.name === 'AssertionError') reason = e.message || 'assertion failed';
    else reason = 'raised ' + describe(e);
  }
  if (peer.broken instanceof wire.ChannelClosed) return ['lost', peer.broken.message];
  if (peer.broken instanceof wire.ProtocolError) return ['protocol', peer.broken.message];
  return [status, reason];
}

async function main() {
  const plan = JSON.parse(fs.readFileSync('plan.json', 'utf8'));
  const peer = new Peer('c', ['call', 'new', 'get', 'has', 'iter']);
  const codec = peer.codec;
  // The solution may only use what the tests handed it (call it, construct it, read it, iterate it).
  peer.server = (message) => {
    try {
      peer.answer(() => {
        const obj = message.length >= 2 && message[1] !== null && typeof message[1] === 'object' ? codec.dec(message[1]) : undefined;
        if (![...codec.exported.values()].includes(obj)) throw new wire.ProtocolError('the solution asked for ' + message[0] + ' on something the checker never handed it');
        const args = Array.isArray(message[2]) ? message[2].map((a) => codec.dec(a)) : [];
        switch (message[0]) {
          case 'call':
            return { value: Reflect.apply(obj, message[3] === null ? undefined : codec.dec(message[3]), args), mutations: [] };
          case 'new':
            return { value: Reflect.construct(obj, args), mutations: [] };
          case 'iter':
            return { value: obj[Symbol.iterator](), mutations: [] };
          case 'get':
            if (typeof message[2] === 'string' && (message[2] === 'next' || message[2] === 'length' || message[2] === 'done' || message[2] === 'value')) {
              return { value: obj[message[2]], mutations: [] };
            }
            break;
          default:
            break;
        }
        throw new wire.ProtocolError('the solution may not use ' + message[0] + ' on checker objects');
      });
    } catch (e) {
      if (e instanceof wire.ProtocolError) peer.fail(e);
      throw e;
    }
  };
  globalThis.require = require;
  for (const name of plan.names) globalThis[name] = peer.proxy(0, name, name);
  let hello;
  try {
    hello = peer.recv();
    if (hello[0] !== 'hello' || hello.length !== 2 || !(hello[1] === null || typeof hello[1] === 'string')) throw new wire.ProtocolError('the first frame is not hello');
  } catch (e) {
    if (e instanceof wire.ChannelClosed) return report({ e: 'hello', ok: false, why: 'lost', reason: e.message });
    if (e instanceof wire.ProtocolError) return report({ e: 'hello', ok: false, why: 'protocol', reason: e.message });
    throw e;
  }
  if (hello[1] !== null) return report({ e: 'hello', ok: false, why: 'load', reason: hello[1].slice(0, 500) });
  report({ e: 'hello', ok: true });
  if (plan.setup) {
    try {
      run(plan.setup, 'setup');
    } catch (e) {
      return report({ e: 'setup', ok: false, reason: describe(e) });
    }
  }
  let passed = 0;
  for (let i = 1; i <= plan.tests.length; i++) {
    report({ e: 'start', i });
    const began = performance.now();
    const [status, reason] = await verdictOf(peer, plan.tests[i - 1]);
    report({ e: 'end', i, status, reason: reason.slice(0, 600), ms: Math.round((performance.now() - began) * 1000) / 1000 });
    codec.resetExports();
    if (status !== 'pass') return undefined;
    passed++;
  }
  try {
    peer.send(['bye']);
    const last = peer.recv();
    if (last.length !== 1 || last[0] !== 'bye') throw new wire.ProtocolError('the solution did not answer bye');
  } catch (e) {
    if (e instanceof wire.ChannelClosed) return report({ e: 'bye', ok: false, why: 'lost', reason: e.message });
    if (e instanceof wire.ProtocolError) return report({ e: 'bye', ok: false, why: 'protocol', reason: e.message });
    throw e;
  }
  return report({ e: 'done', passed, total: plan.tests.length });
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write('checker error: ' + (e && e.stack ? e.stack : String(e)) + '\n');
    process.exit(1);
  },
);
`;
