/**
 * The two Python programs of a code grading: the solution's driver (untrusted process: the model's program,
 * the case's driver helpers, answers to requests) and the checker (trusted process: tests, helpers,
 * expected values, the report to the host on fd 7).
 */

/** main.py of the solution's sandbox. */
export const PYTHON_DRIVER = String.raw`"""The solution's process: loads the model's program and the case's driver helpers, then answers the
checker's requests (calls as data) with results serialised by type. Nothing here decides a verdict."""
import json
import marshal
import os
import sys
import peer as channel
import wire

FUNCTION = json.load(open("job.json", encoding="utf-8"))["function"]


def load(ns):
    """None when the program and the driver loaded and define FUNCTION, else why not."""
    try:
        source = open("solution.py", encoding="utf-8").read()
        code = compile(source, "solution.py", "exec")
    except SyntaxError as e:
        return "%s: %s (line %s)" % (type(e).__name__, e.msg, e.lineno)
    except BaseException as e:
        return "%s: %s" % (type(e).__name__, e)
    try:
        exec(code, ns)
    except SystemExit:
        pass
    except BaseException as e:
        line = getattr(e, "lineno", None)
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == "solution.py":
                line = tb.tb_lineno
            tb = tb.tb_next
        text = str(e).replace("\n", " ")[:200]
        return type(e).__name__ + (": " + text if text else "") + (" (line %s)" % line if line else "")
    ns["__name__"] = "__main__"
    try:
        helpers = open("driver.py", encoding="utf-8").read()
    except FileNotFoundError:
        helpers = None
    if helpers is not None:
        try:
            exec(compile(helpers, "driver.py", "exec"), ns)
        except BaseException as e:
            return "the case's driver helpers failed: %s: %s" % (type(e).__name__, str(e)[:200])
    if FUNCTION not in ns:
        return "%s is not defined" % FUNCTION
    return None


def serve(peer, ns, message):
    op = message[0]

    def target(ref):
        if type(ref) is str:
            if ref not in ns:
                raise NameError("name %r is not defined" % ref)
            return ns[ref]
        return ref

    def run():
        if op == "call" and len(message) == 4:
            fn = target(message[1])
            args, kwargs = message[2], dict(message[3])
            pristine = None
            if any(type(a) in channel.MUTABLE for a in args) or any(type(a) in channel.MUTABLE for a in kwargs.values()):
                try:
                    # A C-speed deep copy of plain data (marshal never leaves this process).
                    pristine = marshal.loads(marshal.dumps((args, kwargs)))
                except ValueError:
                    again = peer.codec.decode(raw_holder[0])
                    pristine = (again[2], dict(again[3]))
            value = fn(*args, **kwargs)
            mutations = []
            if pristine is not None:
                for i, a in enumerate(args):
                    if type(a) in channel.MUTABLE and not channel._same(a, pristine[0][i]):
                        mutations.append([i, peer.codec.enc(a)])
                for k, a in kwargs.items():
                    if type(a) in channel.MUTABLE and not channel._same(a, pristine[1][k]):
                        mutations.append([k, peer.codec.enc(a)])
            return value, mutations
        if len(message) < 2:
            raise wire.ProtocolError("a malformed %s" % op)
        obj = target(message[1])
        if op == "get" and len(message) == 3 and type(message[2]) is str:
            return getattr(obj, message[2]), []
        return channel.object_op(op, obj, message), []

    peer.answer(run)


raw_holder = [b""]


def main():
    peer = channel.Peer("s", {"call", "get", "iter", "next", "len", "bool", "item", "contains"})
    ns = {"__name__": "solution", "__builtins__": __builtins__}
    peer.server = lambda message: serve(peer, ns, message)
    original_recv = wire.recv_frame

    def recv_and_keep():
        raw = original_recv()
        raw_holder[0] = raw
        return raw

    wire.recv_frame = recv_and_keep
    problem = load(ns)
    try:
        peer.send(["hello", problem])
        if problem is not None:
            return
        while True:
            message = peer.recv()
            if message == ["bye"]:
                peer.send(["bye"])
                return
            serve(peer, ns, message)
    except (wire.ChannelClosed, wire.ProtocolError):
        return


main()
# Done (bye, or the checker is gone): leave now, whatever threads or atexit hooks the program left behind.
for stream in (sys.stdout, sys.stderr):
    try:
        stream.flush()
    except BaseException:
        pass
os._exit(0)
`;

/** main.py of the checker's sandbox. */
export const PYTHON_CHECKER = String.raw`"""The checker's process: the case's tests, helpers and expected values. Calls the solution's names through
the channel, compares under the case's rules, and reports each test to the host on fd 7."""
import builtins
import json
import math
import os
import time
import peer as channel
import wire

REPORT_FD = 7


def report(**event):
    os.write(REPORT_FD, (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass"))


def short(v):
    try:
        r = repr(v)
    except BaseException:
        r = "<unprintable %s>" % type(v).__name__
    return r if len(r) <= 80 else r[:77] + "..."


def describe(e):
    s = str(e).replace("\n", " ")
    return type(e).__name__ + (": " + s[:200] if s else "")


def eq(a, b, tol):
    ta, tb = type(a), type(b)
    if ta is bool or tb is bool:
        return ta is tb and a == b
    if ta in (int, float) and tb in (int, float):
        if ta is float or tb is float:
            if math.isnan(a) or math.isnan(b):
                return math.isnan(a) and math.isnan(b)
            if math.isinf(a) or math.isinf(b):
                return a == b
            return abs(a - b) <= tol * max(1.0, abs(a))
        return a == b
    if ta in (list, tuple) and tb in (list, tuple):
        return len(a) == len(b) and all(eq(x, y, tol) for x, y in zip(a, b))
    if ta is dict and tb is dict:
        return len(a) == len(b) and all(k in b and eq(v, b[k], tol) for k, v in a.items())
    if ta in (set, frozenset) and tb in (set, frozenset):
        return len(a) == len(b) and all(x in b for x in a)
    if a is None:
        return b is None
    return ta is tb and a == b


def unordered_eq(a, b, tol):
    if type(a) not in (list, tuple, set, frozenset) or type(b) not in (list, tuple, set, frozenset) or len(a) != len(b):
        return False
    left = list(b)
    for x in a:
        for j, y in enumerate(left):
            if eq(x, y, tol):
                del left[j]
                break
        else:
            return False
    return True


class TestFailed(Exception):
    pass


class NamedProxy(channel.Proxy):
    """A name the solution's process defines (the function, a class, a driver helper)."""

    __slots__ = ()

    def _cf_ref(self):
        return self._cf_type

    def __repr__(self):
        return "<solution %s>" % self._cf_type


def run_test(G, t):
    if "code" in t:
        exec(compile(t["code"], "test", "exec"), G)
        return
    got = eval(compile(t["call"], "call", "eval"), G)
    if "check" in t:
        verdict = eval(compile(t["check"], "check", "eval"), G)(got)
        if verdict is not True and verdict is not None:
            raise TestFailed("got %s, which %s rejects" % (short(got), t["check"]))
        return
    expected = eval(compile(t["expect"], "expect", "eval"), G)
    tol = t.get("tolerance", 1e-9)
    rule = t.get("compare", "exact")
    if rule == "unordered":
        if not unordered_eq(expected, got, tol):
            raise TestFailed("expected %s in any order, got %s" % (short(expected), short(got)))
    elif rule == "any_of":
        if not any(eq(alt, got, tol) for alt in expected):
            raise TestFailed("expected one of %s, got %s" % (short(expected), short(got)))
    elif not eq(expected, got, tol):
        raise TestFailed("expected %s, got %s" % (short(expected), short(got)))


def verdict_of(peer, G, t):
    """(status, reason) of one test; a broken channel overrides whatever the test code made of it."""
    try:
        run_test(G, t)
        status, reason = "pass", ""
    except TestFailed as e:
        status, reason = "fail", str(e)
    except AssertionError as e:
        status, reason = "fail", str(e) or "assertion failed"
    except (wire.ChannelClosed, wire.ProtocolError):
        status, reason = "fail", ""
    except BaseException as e:
        status, reason = "fail", "raised " + describe(e)
    if isinstance(peer.broken, wire.ChannelClosed):
        return "lost", str(peer.broken)
    if isinstance(peer.broken, wire.ProtocolError):
        return "protocol", str(peer.broken)
    return status, reason


def exchange(peer, event, message, valid, what):
    """Sends message (if any) and reads one frame that must be valid; on a broken channel reports the event
    as failed and returns None."""
    try:
        if message is not None:
            peer.send(message)
        frame = peer.recv()
        if not valid(frame):
            raise wire.ProtocolError(what)
        return frame
    except wire.ChannelClosed as e:
        report(e=event, ok=False, why="lost", reason=str(e))
    except wire.ProtocolError as e:
        report(e=event, ok=False, why="protocol", reason=str(e))
    return None


def main():
    plan = json.load(open("plan.json", encoding="utf-8"))
    peer = channel.Peer("c", {"call", "iter", "next", "len", "bool", "item", "contains"})
    codec = peer.codec

    def serve(message):
        # The solution may only use what the tests handed it: call, iterate, measure, index, test membership.
        op = message[0]

        def run():
            obj = message[1] if len(message) >= 2 else None
            if not any(obj is x for x in codec.exported.values()):
                raise wire.ProtocolError("the solution asked for %s on something the checker never handed it" % op)
            if op == "call" and len(message) == 4:
                return obj(*message[2], **dict(message[3])), []
            return channel.object_op(op, obj, message), []

        try:
            peer.answer(run)
        except wire.ProtocolError as e:
            peer.fail(e)

    peer.server = serve
    G = {"__name__": "__main__", "__builtins__": builtins}
    for name in plan["names"]:
        G[name] = NamedProxy(peer, 0, name)
    hello = exchange(peer, "hello", None, lambda f: f[0] == "hello" and len(f) == 2 and (f[1] is None or type(f[1]) is str), "the first frame is not hello")
    if hello is None:
        return
    if hello[1] is not None:
        report(e="hello", ok=False, why="load", reason=hello[1][:500])
        return
    report(e="hello", ok=True)
    if plan.get("setup"):
        try:
            exec(compile(plan["setup"], "setup", "exec"), G)
        except BaseException as e:
            report(e="setup", ok=False, reason=describe(e))
            return
    passed = 0
    for i, t in enumerate(plan["tests"], 1):
        report(e="start", i=i)
        began = time.perf_counter()
        status, reason = verdict_of(peer, G, t)
        report(e="end", i=i, status=status, reason=reason[:600], ms=round((time.perf_counter() - began) * 1000, 3))
        codec.reset_exports()
        if status != "pass":
            return
        passed += 1
    if exchange(peer, "bye", ["bye"], lambda f: f == ["bye"], "the solution did not answer bye") is None:
        return
    report(e="done", passed=passed, total=len(plan["tests"]))


main()
`;
