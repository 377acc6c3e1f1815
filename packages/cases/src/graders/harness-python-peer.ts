/**
 * The Python channel runtime, part 2 (peer.py, copied into both sandboxes): proxies for the other side's
 * objects and the request/serve loop.
 */

/** peer.py: proxies and the request loop. */
export const PYTHON_PEER = String.raw`"""Both ends of the channel: proxies for the other side's objects, and the request/serve loop."""
import wire
from wire import ChannelClosed, ProtocolError, exception_from, exception_message

MAX_DEPTH = wire.MAX_DEPTH


class Proxy:
    """An object living on the other side; "peer" forwards the operations it allows."""

    __slots__ = ("_cf_peer", "_cf_id", "_cf_type", "__weakref__")
    _cf_is_proxy = True

    def __init__(self, peer, hid, tname):
        object.__setattr__(self, "_cf_peer", peer)
        object.__setattr__(self, "_cf_id", hid)
        object.__setattr__(self, "_cf_type", tname if tname.replace(".", "_").isidentifier() else "object")

    def _cf_ref(self):
        return {"$h": [self._cf_peer.codec.peer, self._cf_id, self._cf_type]}

    def __repr__(self):
        return "<%s.%s object>" % ("solution" if self._cf_peer.codec.peer == "s" else "checker", self._cf_type)

    __str__ = __repr__

    def __call__(self, *args, **kwargs):
        return self._cf_peer.call(self._cf_ref(), args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._cf_peer.op("get", self._cf_ref(), name)

    def __setattr__(self, name, value):
        raise AttributeError("cannot set attributes of an object on the other side")

    def __iter__(self):
        return self._cf_peer.op("iter", self._cf_ref())

    def __next__(self):
        return self._cf_peer.op("next", self._cf_ref())

    def __len__(self):
        return self._cf_peer.op("len", self._cf_ref())

    def __getitem__(self, key):
        return self._cf_peer.op("item", self._cf_ref(), self._cf_peer.codec.enc(key))

    def __contains__(self, item):
        return self._cf_peer.op("contains", self._cf_ref(), self._cf_peer.codec.enc(item))

    def __bool__(self):
        return self._cf_peer.op("bool", self._cf_ref())


def _same(a, b):
    return type(a) is type(b) and a == b


def assign(original, new):
    """Makes "original" (a mutable container the other side changed) equal to "new", in place, keeping the
    identity of nested containers of the same type where it can."""
    t = type(original)
    if t is not type(new):
        return new
    if t is list:
        original[:] = [assign(original[i], n) if i < len(original) else n for i, n in enumerate(new)]
    elif t is dict:
        merged = {k: assign(original[k], v) if k in original else v for k, v in new.items()}
        original.clear()
        original.update(merged)
    elif t is set:
        original.clear()
        original.update(new)
    elif t is bytearray:
        original[:] = new
    else:
        return new
    return original


MUTABLE = (list, dict, set, bytearray)


def object_op(op, obj, message):
    """What either side may ask of an object the other side handed it (besides calling it)."""
    if op == "iter":
        return iter(obj)
    if op == "next":
        return next(obj)
    if op == "len":
        return len(obj)
    if op == "bool":
        return bool(obj)
    if op == "item" and len(message) == 3:
        return obj[message[2]]
    if op == "contains" and len(message) == 3:
        return message[2] in obj
    raise ProtocolError("a malformed %s" % op)


class Peer:
    """One end of the channel: sends requests and waits for their answer, serving the other side's nested
    requests meanwhile ("serve" says how; ops it refuses are protocol errors)."""

    def __init__(self, me, serve_ops):
        self.codec = wire.Codec(me, lambda hid, tname: Proxy(self, hid, tname))
        self.serve_ops = serve_ops
        self.server = None
        self.depth = 0
        self.broken = None

    def fail(self, exc):
        if self.broken is None:
            self.broken = exc
        raise exc

    def recv(self):
        try:
            return self.codec.decode(wire.recv_frame())
        except (ChannelClosed, ProtocolError) as e:
            self.fail(e)

    def send(self, message):
        try:
            wire.send_frame(message)
        except ChannelClosed as e:
            self.fail(e)

    def request(self, message):
        """Sends a request; returns (value, mutations) of the answer or raises what the other side raised."""
        if self.broken is not None:
            raise self.broken
        if self.depth >= MAX_DEPTH:
            raise RecursionError("calls between the solution and the checker nested too deeply")
        self.depth += 1
        try:
            self.send(message)
            while True:
                reply = self.recv()
                kind = reply[0]
                if kind == "ok":
                    if len(reply) != 3 or type(reply[2]) is not list:
                        self.fail(ProtocolError("a malformed answer"))
                    return reply[1], reply[2]
                if kind == "raise":
                    try:
                        exc = exception_from(reply)
                    except ProtocolError as e:
                        self.fail(e)
                    raise exc
                if kind in self.serve_ops:
                    self.server(reply)
                    continue
                self.fail(ProtocolError("an unexpected %r frame" % kind[:40]))
        finally:
            self.depth -= 1

    def op(self, name, *args):
        return self.request([name, *args])[0]

    def call(self, target, args, kwargs):
        message = ["call", target, [self.codec.enc(a) for a in args], [[k, self.codec.enc(v)] for k, v in kwargs.items()]]
        value, mutations = self.request(message)
        for key, new in mutations:
            original = args[key] if type(key) is int and 0 <= key < len(args) else kwargs.get(key) if type(key) is str else None
            if type(original) in MUTABLE:
                assign(original, new)
        return value

    def answer(self, fn):
        """Runs fn() for the other side and sends its result (or what it raised)."""
        try:
            value, mutations = fn()
            message = ["ok", self.codec.enc(value), mutations]
        except (ChannelClosed, ProtocolError):
            raise
        except BaseException as e:
            message = exception_message(e)
        try:
            self.send(message)
        except ValueError as e:
            self.send(exception_message(e))
`;
