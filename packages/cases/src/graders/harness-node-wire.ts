/**
 * The Node channel runtime, part 1 (wire.js, copied into both sandboxes): framing on fds 5/6 with blocking
 * fs.readSync/writeSync and the typed codec. Kept as text: written next to the programs it serves.
 */

/** wire.js: frames and the typed codec. */
export const NODE_WIRE = String.raw`'use strict';
// The channel between the solution and the checker: length-prefixed JSON frames on fds 5 (in) and 6 (out),
// values serialised with their JavaScript type, objects that are not plain data passed as handles.
const fs = require('node:fs');

const READ_FD = 5;
const WRITE_FD = 6;
const MAX_FRAME = 64 << 20;
const MAX_DEPTH = 64;

class ChannelClosed extends Error {}
class ProtocolError extends Error {}
ChannelClosed.prototype.name = 'ChannelClosed';
ProtocolError.prototype.name = 'ProtocolError';

function readExact(n) {
  const buf = Buffer.allocUnsafe(n);
  let off = 0;
  while (off < n) {
    let got;
    try {
      got = fs.readSync(READ_FD, buf, off, Math.min(n - off, 1 << 20), null);
    } catch (e) {
      if (e && e.code === 'EAGAIN') continue;
      if (e && e.code === 'EINTR') continue;
      throw new ChannelClosed(e && e.code ? e.code : String(e));
    }
    if (got === 0) throw new ChannelClosed('end of file');
    off += got;
  }
  return buf;
}

function recvFrame() {
  const n = readExact(4).readUInt32BE(0);
  if (n > MAX_FRAME) throw new ProtocolError('a frame of ' + n + ' bytes (at most ' + MAX_FRAME + ')');
  return readExact(n).toString('utf8');
}

function sendFrame(message) {
  const data = Buffer.from(JSON.stringify(message), 'utf8');
  if (data.length > MAX_FRAME) throw new RangeError('a value of ' + data.length + ' bytes is too large to send');
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(data.length, 0);
  const frame = Buffer.concat([head, data]);
  let off = 0;
  while (off < frame.length) {
    try {
      off += fs.writeSync(WRITE_FD, frame, off, frame.length - off);
    } catch (e) {
      if (e && (e.code === 'EAGAIN' || e.code === 'EINTR')) continue;
      throw new ChannelClosed(e && e.code ? e.code : String(e));
    }
  }
}

const BUILTIN_ERRORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError };
const errorClasses = new Map();

/** ['raise', name, builtin classes in the prototype chain, message] or ['throw', value] for a non-Error. */
function exceptionMessage(codec, e) {
  if (e instanceof Error) {
    const chain = [];
    for (let p = Object.getPrototypeOf(e); p; p = Object.getPrototypeOf(p)) {
      for (const [name, cls] of Object.entries(BUILTIN_ERRORS)) if (p === cls.prototype) chain.push(name);
    }
    let name = 'Error';
    let text = '';
    try {
      name = String(e.name);
      text = String(e.message);
    } catch {}
    return ['raise', name.slice(0, 80), chain, text.slice(0, 2000)];
  }
  try {
    return ['throw', codec.enc(e)];
  } catch {
    return ['throw', String(typeof e)];
  }
}

/** What to throw here for the other side's raise/throw. */
function exceptionFrom(codec, message) {
  if (message[0] === 'throw') {
    if (message.length !== 2) throw new ProtocolError('a malformed throw');
    return codec.dec(message[1]);
  }
  const [, name, chain, text] = message;
  if (message.length !== 4 || typeof name !== 'string' || !Array.isArray(chain) || typeof text !== 'string') throw new ProtocolError('a malformed raise');
  const baseName = chain.find((c) => typeof c === 'string' && Object.prototype.hasOwnProperty.call(BUILTIN_ERRORS, c)) || 'Error';
  const Base = BUILTIN_ERRORS[baseName];
  const err = Base === AggregateError ? new AggregateError([], text) : new Base(text);
  if (name !== baseName && /^[A-Za-z_$][\w$]{0,79}$/.test(name)) {
    Object.defineProperty(err, 'name', { value: name, configurable: true, writable: true });
  }
  return err;
}

function isPlainObject(v) {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

const PROXY_INFO = new WeakMap();

class Codec {
  constructor(me, proxyFactory) {
    this.me = me;
    this.peer = me === 's' ? 'c' : 's';
    this.proxyFactory = proxyFactory;
    this.exported = new Map();
    this.exportIds = new Map();
    this.proxies = new Map();
    this.nextId = 1;
  }

  resetExports() {
    this.exported.clear();
    this.exportIds.clear();
  }

  handle(v) {
    const info = PROXY_INFO.get(v);
    if (info) return info.ref;
    let id = this.exportIds.get(v);
    if (id === undefined) {
      id = this.nextId++;
      this.exported.set(id, v);
      this.exportIds.set(v, id);
    }
    let type = typeof v === 'function' ? 'function' : 'object';
    try {
      const ctor = typeof v === 'function' ? null : Object.getPrototypeOf(v) && Object.getPrototypeOf(v).constructor;
      if (typeof v === 'function' && typeof v.name === 'string' && v.name) type = v.name;
      else if (ctor && typeof ctor.name === 'string' && ctor.name) type = ctor.name;
    } catch {}
    return { $h: [this.me, id, String(type).slice(0, 80)] };
  }

  enc(v, depth = 0) {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'undefined':
        return { $undefined: 1 };
      case 'number':
        if (Number.isNaN(v)) return { $number: 'NaN' };
        if (v === Infinity) return { $number: 'Infinity' };
        if (v === -Infinity) return { $number: '-Infinity' };
        if (Object.is(v, -0)) return { $number: '-0' };
        return v;
      case 'bigint':
        return { $bigint: v.toString() };
      case 'symbol':
      case 'function':
        return this.handle(v);
      default:
        break;
    }
    if (v === null) return null;
    if (depth > MAX_DEPTH * 16) throw new RangeError('a value nested too deeply to send');
    const d = depth + 1;
    if (PROXY_INFO.has(v)) return PROXY_INFO.get(v).ref;
    if (Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype) {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        out[i] = typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0)) ? x : this.enc(x, d);
      }
      return out;
    }
    if (v instanceof Map && Object.getPrototypeOf(v) === Map.prototype) return { $map: [...v].map(([k, x]) => [this.enc(k, d), this.enc(x, d)]) };
    if (v instanceof Set && Object.getPrototypeOf(v) === Set.prototype) return { $set: [...v].map((x) => this.enc(x, d)) };
    if (v instanceof Date && Object.getPrototypeOf(v) === Date.prototype) return { $date: this.enc(v.getTime(), d) };
    // A plain object with symbol keys (an iterable, say) is behaviour, not data: it stays where it is.
    if (isPlainObject(v) && Object.getOwnPropertySymbols(v).length === 0) return { $object: Object.keys(v).map((k) => [k, this.enc(v[k], d)]) };
    return this.handle(v);
  }

  dec(v) {
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
    if (Array.isArray(v)) {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        out[i] = x === null || typeof x !== 'object' ? x : this.dec(x);
      }
      return out;
    }
    if (typeof v !== 'object') throw new ProtocolError('an unexpected value');
    const keys = Object.keys(v);
    if (keys.length !== 1) throw new ProtocolError('an object with ' + keys.length + ' keys');
    const tag = keys[0];
    const x = v[tag];
    switch (tag) {
      case '$undefined':
        return undefined;
      case '$number':
        if (x === 'NaN') return NaN;
        if (x === 'Infinity') return Infinity;
        if (x === '-Infinity') return -Infinity;
        if (x === '-0') return -0;
        break;
      case '$bigint':
        if (typeof x === 'string' && /^-?\d+$/.test(x)) return BigInt(x);
        break;
      case '$object':
        if (Array.isArray(x)) {
          const out = {};
          for (const pair of x) {
            if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') throw new ProtocolError('a malformed object entry');
            Object.defineProperty(out, pair[0], { value: this.dec(pair[1]), writable: true, enumerable: true, configurable: true });
          }
          return out;
        }
        break;
      case '$map':
        if (Array.isArray(x)) {
          const out = new Map();
          for (const pair of x) {
            if (!Array.isArray(pair) || pair.length !== 2) throw new ProtocolError('a malformed map entry');
            out.set(this.dec(pair[0]), this.dec(pair[1]));
          }
          return out;
        }
        break;
      case '$set':
        if (Array.isArray(x)) return new Set(x.map((y) => this.dec(y)));
        break;
      case '$date': {
        const t = this.dec(x);
        if (typeof t === 'number') return new Date(t);
        break;
      }
      case '$h':
        if (Array.isArray(x) && x.length === 3 && Number.isInteger(x[1]) && typeof x[2] === 'string') {
          const [owner, id, type] = x;
          if (owner === this.me) {
            if (!this.exported.has(id)) throw new ProtocolError('an unknown handle ' + id);
            return this.exported.get(id);
          }
          if (owner === this.peer) {
            let proxy = this.proxies.get(id);
            if (proxy === undefined) {
              proxy = this.proxyFactory(id, /^[A-Za-z_$][\w$]{0,79}$/.test(type) ? type : 'object');
              this.proxies.set(id, proxy);
            }
            return proxy;
          }
        }
        break;
      default:
        break;
    }
    throw new ProtocolError('an unknown or malformed tag ' + JSON.stringify(String(tag).slice(0, 40)));
  }

  decode(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch (e) {
      throw new ProtocolError('a malformed frame: ' + String(e && e.message).slice(0, 200));
    }
    if (!Array.isArray(message) || message.length === 0 || typeof message[0] !== 'string') throw new ProtocolError('a frame that is not a message');
    return message;
  }
}

/** Deep equality of plain data (the mutation check on the solution side only). */
function same(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && same(v, b.get(k)));
  if (a instanceof Set) return a.size === b.size && [...a].every((x) => b.has(x));
  if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
}

/** Makes "original" (a container the other side changed) equal to "fresh", in place. */
function assign(original, fresh) {
  if (original === null || fresh === null || typeof original !== 'object' || typeof fresh !== 'object') return fresh;
  if (Object.getPrototypeOf(original) !== Object.getPrototypeOf(fresh)) return fresh;
  if (Array.isArray(original)) {
    const merged = fresh.map((x, i) => (i < original.length ? assign(original[i], x) : x));
    original.length = 0;
    for (const x of merged) original.push(x);
  } else if (original instanceof Map) {
    original.clear();
    for (const [k, v] of fresh) original.set(k, v);
  } else if (original instanceof Set) {
    original.clear();
    for (const x of fresh) original.add(x);
  } else if (isPlainObject(original)) {
    const merged = Object.keys(fresh).map((k) => [k, Object.prototype.hasOwnProperty.call(original, k) ? assign(original[k], fresh[k]) : fresh[k]]);
    for (const k of Object.keys(original)) delete original[k];
    for (const [k, v] of merged) Object.defineProperty(original, k, { value: v, writable: true, enumerable: true, configurable: true });
  } else return fresh;
  return original;
}

function mutable(v) {
  return v !== null && typeof v === 'object' && (Array.isArray(v) || v instanceof Map || v instanceof Set || isPlainObject(v));
}

module.exports = { Codec, ChannelClosed, ProtocolError, same, mutable, assign, exceptionMessage, exceptionFrom, recvFrame, sendFrame, PROXY_INFO, MAX_DEPTH };
`;
