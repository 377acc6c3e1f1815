/**
 * The Python channel runtime, part 1 (wire.py, copied into both sandboxes): framing on fds 5/6 and the
 * typed codec. Kept as text: it is written next to the programs it serves, never run by Node.
 */

/** wire.py: frames and the typed codec. */
export const PYTHON_WIRE = String.raw`"""The channel between the solution and the checker: length-prefixed JSON frames on fds 5 (in) and 6 (out),
values serialised with their Python type, objects that are not plain data passed as handles."""
import binascii
import json
import math
import os
import struct
import sys

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

READ_FD, WRITE_FD = 5, 6
MAX_FRAME = 64 << 20
MAX_DEPTH = 64


class ChannelClosed(BaseException):
    """The other side is gone (EOF or a broken pipe)."""


class ProtocolError(BaseException):
    """A frame that is not what the protocol allows."""


def _read_exact(n):
    chunks, left = [], n
    while left:
        try:
            chunk = os.read(READ_FD, min(left, 1 << 20))
        except InterruptedError:
            continue
        except OSError as e:
            raise ChannelClosed(e.strerror or str(e))
        if not chunk:
            raise ChannelClosed("end of file")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv_frame():
    (n,) = struct.unpack(">I", _read_exact(4))
    if n > MAX_FRAME:
        raise ProtocolError("a frame of %d bytes (at most %d)" % (n, MAX_FRAME))
    return _read_exact(n)


def send_frame(message):
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8", "surrogatepass")
    if len(data) > MAX_FRAME:
        raise ValueError("a value of %d bytes is too large to send (at most %d)" % (len(data), MAX_FRAME))
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        try:
            n = os.write(WRITE_FD, view)
        except InterruptedError:
            continue
        except OSError as e:
            raise ChannelClosed(e.strerror or str(e))
        view = view[n:]


_SCALARS = (int, str, bool, type(None))


def _module(name):
    """A standard module, imported only when a value needs it (the runtimes start faster without them)."""
    found = sys.modules.get(name)
    if found is None:
        found = __import__(name)
    return found


def _loaded_type(module, name):
    """The class module.name when that module is already imported (a value of it can exist only then)."""
    found = sys.modules.get(module)
    return getattr(found, name, None) if found is not None else None


def _b64(data):
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def _unb64(text):
    return binascii.a2b_base64(text.encode("ascii"))


def _json_scalars(seq):
    """True when every item is sent as itself: int, str, bool, None, or a finite float."""
    for x in seq:
        t = type(x)
        if t is float:
            if not math.isfinite(x):
                return False
        elif t not in _SCALARS:
            return False
    return True
import builtins as _builtins

_BUILTIN_EXCEPTIONS = {name: cls for name, cls in vars(_builtins).items() if isinstance(cls, type) and issubclass(cls, Exception)}
_raised_classes = {}


def _no_constant(name):
    raise ProtocolError("bare %s is not allowed on the channel" % name)


def exception_message(exc):
    """["raise", type name, builtin base names in MRO order, message]."""
    bases = [c.__name__ for c in type(exc).__mro__ if c.__name__ in _BUILTIN_EXCEPTIONS and _BUILTIN_EXCEPTIONS[c.__name__] is c]
    try:
        text = str(exc)
    except BaseException:
        text = ""
    return ["raise", type(exc).__name__, bases, text[:2000]]


class RemoteBaseException(Exception):
    """What the other side raised when it was not an Exception (SystemExit, KeyboardInterrupt, ...)."""


def exception_from(message):
    """The exception to raise here for the other side's ["raise", ...]: a builtin class, or a subclass of one
    named like the original. Never a BaseException that could end this process."""
    if len(message) != 4 or not isinstance(message[1], str) or not isinstance(message[2], list) or not isinstance(message[3], str):
        raise ProtocolError("a malformed raise")
    name = message[1] if message[1].isidentifier() and len(message[1]) <= 80 else "RemoteError"
    base = next((_BUILTIN_EXCEPTIONS[b] for b in message[2] if isinstance(b, str) and b in _BUILTIN_EXCEPTIONS), RemoteBaseException)
    if base.__name__ == name:
        cls = base
    else:
        cls = _raised_classes.get((name, base))
        if cls is None:
            cls = _raised_classes[(name, base)] = type(name, (base,), {"__module__": "solution"})
    return cls(message[3])


class Codec:
    """Encodes values for the channel and decodes what arrives. "me" is "s" (solution) or "c" (checker);
    own objects that are not plain data are exported as handles, handles of the other side become proxies."""

    def __init__(self, me, proxy_factory):
        self.me = me
        self.peer = "c" if me == "s" else "s"
        self.proxy_factory = proxy_factory
        self.exported = {}
        self.export_ids = {}
        self.proxies = {}

    def reset_exports(self):
        self.exported.clear()
        self.export_ids.clear()

    def handle(self, obj):
        if getattr(type(obj), "_cf_is_proxy", False):
            ref = obj._cf_ref()
            if type(ref) is not dict:
                raise ValueError("a name of the solution (%s) cannot be passed as a value" % ref)
            return ref
        key = id(obj)
        hid = self.export_ids.get(key)
        if hid is None or self.exported.get(hid) is not obj:
            hid = len(self.exported) + 1
            while hid in self.exported:
                hid += 1
            self.exported[hid] = obj
            self.export_ids[key] = hid
        return {"$h": [self.me, hid, type(obj).__qualname__[:80]]}

    def enc(self, v, depth=0):
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            return v
        if depth > MAX_DEPTH * 16:
            raise ValueError("a value nested too deeply to send")
        d = depth + 1
        if t is float:
            return v if math.isfinite(v) else {"$float": repr(v)}
        if t is list:
            # Fast paths (the JSON encoder writes these natively): scalars, rows of scalars, tuples of scalars.
            if _json_scalars(v):
                return v
            first = type(v[0])
            if first is list and all(type(x) is list and _json_scalars(x) for x in v):
                return v
            if first is tuple and all(type(x) is tuple and _json_scalars(x) for x in v):
                return {"$tuples": v}
            return [self.enc(x, d) for x in v]
        if t is tuple:
            return {"$tuple": v if _json_scalars(v) else [self.enc(x, d) for x in v]}
        if t is dict:
            return {"$dict": [[self.enc(k, d), self.enc(x, d)] for k, x in v.items()]}
        if t is set:
            return {"$set": [self.enc(x, d) for x in v]}
        if t is frozenset:
            return {"$frozenset": [self.enc(x, d) for x in v]}
        if t is bytes:
            return {"$bytes": _b64(v)}
        if t is bytearray:
            return {"$bytearray": _b64(bytes(v))}
        if t is complex:
            return {"$complex": [self.enc(v.real, d), self.enc(v.imag, d)]}
        if t is _loaded_type("fractions", "Fraction"):
            return {"$fraction": [v.numerator, v.denominator]}
        if t is _loaded_type("decimal", "Decimal"):
            return {"$decimal": str(v)}
        dt = sys.modules.get("datetime")
        if dt is not None:
            if t is dt.datetime:
                return {"$datetime": v.isoformat()}
            if t is dt.date:
                return {"$date": v.isoformat()}
            if t is dt.time:
                return {"$time": v.isoformat()}
            if t is dt.timedelta:
                return {"$timedelta": [v.days, v.seconds, v.microseconds]}
        return self.handle(v)

    def _hook(self, obj):
        if len(obj) != 1:
            raise ProtocolError("an object with %d keys" % len(obj))
        ((tag, x),) = obj.items()
        if tag == "$tuple" and type(x) is list:
            return tuple(x)
        if tag == "$tuples" and type(x) is list and all(type(row) is list for row in x):
            return [tuple(row) for row in x]
        if tag == "$dict" and type(x) is list:
            out = {}
            for pair in x:
                if type(pair) is not list or len(pair) != 2:
                    raise ProtocolError("a malformed dict entry")
                out[pair[0]] = pair[1]
            return out
        if tag == "$set" and type(x) is list:
            return set(x)
        if tag == "$frozenset" and type(x) is list:
            return frozenset(x)
        if tag == "$float" and x in ("nan", "inf", "-inf"):
            return float(x)
        if tag == "$bytes" and type(x) is str:
            return _unb64(x)
        if tag == "$bytearray" and type(x) is str:
            return bytearray(_unb64(x))
        if tag == "$fraction" and type(x) is list and len(x) == 2 and all(type(n) is int for n in x) and x[1] > 0:
            return _module("fractions").Fraction(x[0], x[1])
        if tag == "$decimal" and type(x) is str:
            return _module("decimal").Decimal(x)
        if tag == "$complex" and type(x) is list and len(x) == 2 and all(type(n) in (float, int) for n in x):
            return complex(x[0], x[1])
        if tag == "$datetime" and type(x) is str:
            return _module("datetime").datetime.fromisoformat(x)
        if tag == "$date" and type(x) is str:
            return _module("datetime").date.fromisoformat(x)
        if tag == "$time" and type(x) is str:
            return _module("datetime").time.fromisoformat(x)
        if tag == "$timedelta" and type(x) is list and len(x) == 3 and all(type(n) is int for n in x):
            return _module("datetime").timedelta(days=x[0], seconds=x[1], microseconds=x[2])
        if tag == "$h" and type(x) is list and len(x) == 3 and type(x[1]) is int and type(x[2]) is str:
            owner, hid, tname = x
            if owner == self.me:
                if hid not in self.exported:
                    raise ProtocolError("an unknown handle %d" % hid)
                return self.exported[hid]
            if owner == self.peer:
                proxy = self.proxies.get(hid)
                if proxy is None:
                    proxy = self.proxies[hid] = self.proxy_factory(hid, tname)
                return proxy
        raise ProtocolError("an unknown or malformed tag %r" % (tag[:40],))

    def decode(self, raw):
        try:
            message = json.loads(raw.decode("utf-8", "surrogatepass"), object_hook=self._hook, parse_constant=_no_constant)
        except (ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as e:
            raise ProtocolError("a malformed frame: %s" % (str(e)[:200],))
        if type(message) is not list or not message or type(message[0]) is not str:
            raise ProtocolError("a frame that is not a message")
        return message
`;
