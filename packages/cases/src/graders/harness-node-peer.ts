/**
 * The Node channel runtime, part 2 (peer.js, copied into both sandboxes): proxies for the other side's
 * objects and the synchronous request/serve loop.
 */

/** peer.js: proxies and the request loop. */
export const NODE_PEER = String.raw`'use strict';
// Both ends of the channel: proxies for the other side's objects, and the request/serve loop.
const { Codec, ChannelClosed, ProtocolError, mutable, assign, exceptionMessage, exceptionFrom, recvFrame, sendFrame, PROXY_INFO, MAX_DEPTH } = require('./wire.js');

/**
 * One end of the channel: sends requests and waits for their answer, serving the other side's nested
 * requests meanwhile ("serve" says how; ops it refuses are protocol errors).
 */
class Peer {
  constructor(me, serveOps) {
    this.codec = new Codec(me, (id, type) => this.proxy(id, type));
    this.serveOps = new Set(serveOps);
    this.server = null;
    this.depth = 0;
    this.broken = null;
  }

  fail(e) {
    if (this.broken === null) this.broken = e;
    throw e;
  }

  recv() {
    try {
      return this.codec.decode(recvFrame());
    } catch (e) {
      if (e instanceof ChannelClosed || e instanceof ProtocolError) this.fail(e);
      throw e;
    }
  }

  send(message) {
    try {
      sendFrame(message);
    } catch (e) {
      if (e instanceof ChannelClosed) this.fail(e);
      throw e;
    }
  }

  request(message) {
    if (this.broken !== null) throw this.broken;
    if (this.depth >= MAX_DEPTH) throw new RangeError('calls between the solution and the checker nested too deeply');
    this.depth++;
    try {
      this.send(message);
      for (;;) {
        const reply = this.recv();
        const kind = reply[0];
        if (kind === 'ok') {
          if (reply.length !== 3 || !Array.isArray(reply[2])) this.fail(new ProtocolError('a malformed answer'));
          return { value: this.codec.dec(reply[1]), mutations: reply[2] };
        }
        if (kind === 'raise' || kind === 'throw') {
          let err;
          try {
            err = exceptionFrom(this.codec, reply);
          } catch (e) {
            if (e instanceof ProtocolError) this.fail(e);
            throw e;
          }
          throw err;
        }
        if (this.serveOps.has(kind)) {
          this.server(reply);
          continue;
        }
        this.fail(new ProtocolError('an unexpected ' + JSON.stringify(kind.slice(0, 40)) + ' frame'));
      }
    } finally {
      this.depth--;
    }
  }

  call(target, args, thisArg, construct) {
    const message = [construct ? 'new' : 'call', target, args.map((a) => this.codec.enc(a)), thisArg === undefined ? null : this.codec.enc(thisArg)];
    const { value, mutations } = this.request(message);
    for (const m of mutations) {
      if (!Array.isArray(m) || m.length !== 2) continue;
      const [key, fresh] = m;
      const original = key === 'this' ? thisArg : Number.isInteger(key) ? args[key] : undefined;
      if (mutable(original)) assign(original, this.codec.dec(fresh));
    }
    return value;
  }

  op(name, ...rest) {
    return this.request([name, ...rest]).value;
  }

  /** A local stand-in for an object of the other side. */
  proxy(id, type, ref) {
    const peer = this;
    const target = function () {};
    const theRef = ref === undefined ? { $h: [this.codec.peer, id, type] } : ref;
    const label = '[' + (this.codec.peer === 's' ? 'solution' : 'checker') + ' ' + type + ']';
    const p = new Proxy(target, {
      apply(_t, thisArg, args) {
        return peer.call(theRef, args, thisArg, false);
      },
      construct(_t, args) {
        return peer.call(theRef, args, undefined, true);
      },
      get(_t, key) {
        if (key === 'then') return undefined;
        if (key === Symbol.iterator) return () => peer.op('iter', theRef);
        if (key === Symbol.toPrimitive || key === 'toString' || key === 'toJSON') return () => label;
        if (key === Symbol.for('nodejs.util.inspect.custom')) return () => label;
        if (typeof key !== 'string') return undefined;
        return peer.op('get', theRef, key);
      },
      has(_t, key) {
        return typeof key === 'string' ? peer.op('has', theRef, key) : false;
      },
      set() {
        throw new TypeError('cannot set properties of an object on the other side');
      },
      defineProperty() {
        throw new TypeError('cannot define properties of an object on the other side');
      },
      deleteProperty() {
        throw new TypeError('cannot delete properties of an object on the other side');
      },
    });
    PROXY_INFO.set(p, { ref: theRef });
    return p;
  }

  /** Runs fn() for the other side and sends its result (or what it threw). */
  answer(fn) {
    let message;
    try {
      const { value, mutations } = fn();
      message = ['ok', this.codec.enc(value), mutations];
    } catch (e) {
      if (e instanceof ChannelClosed || e instanceof ProtocolError) throw e;
      message = exceptionMessage(this.codec, e);
    }
    try {
      this.send(message);
    } catch (e) {
      if (e instanceof RangeError) this.send(exceptionMessage(this.codec, e));
      else throw e;
    }
  }
}

module.exports = { Peer };
`;
