"""Choosing a backend (`auto`) and running it in a child process that a time limit can stop.

Solver libraries run C code that ignores Python signals and has no timeout of its own, so each
count runs in a forked child; the parent kills it on timeout or Ctrl-C.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections.abc import Callable
from typing import Any

from .backends import CountOptions, CountResult, backends
from .encoding import Encoding
from .errors import RscountError

AUTO_ENUMERATE_LIMIT = 1000
# Largest CNF sent to the SDD backend by auto (measured: exhaustive XOR-6, 6144 clauses, 3.5 s and
# XOR-7, 16052 clauses, 47 s; a 3-concept sum over 12 values with 2 examples, 6338 clauses, > 120 s).
AUTO_SDD_MAX_CLAUSES = {"binary": 8000, "categorical": 1500}


def choose(encoding: Encoding, options: CountOptions) -> tuple[str, str, int | None]:
    """auto: enumerate when the solver needs at most AUTO_ENUMERATE_LIMIT models, else SDD on small
    CNFs, else ApproxMC. Returns (method, reason, count found by the enumeration probe or None)."""
    found = backends()["enumerate"].count_up_to(encoding, AUTO_ENUMERATE_LIMIT, options)
    if found is not None:
        return "enumerate", f"at most {AUTO_ENUMERATE_LIMIT} solver models, enumerated", found
    clauses = len(encoding.cnf.clauses)
    binary = all(len(c.values) == 2 for c in encoding.task.concepts)
    if clauses <= AUTO_SDD_MAX_CLAUSES["binary" if binary else "categorical"]:
        return "sdd", f"more than {AUTO_ENUMERATE_LIMIT} models; CNF small ({clauses} clauses)", None
    reason = f"more than {AUTO_ENUMERATE_LIMIT} models; CNF too large for SDD ({clauses} clauses)"
    return "approxmc", reason, None


def count_encoding(encoding: Encoding, method: str, options: CountOptions) -> CountResult:
    """Count in this process with `method` (a backend name or 'auto')."""
    start = time.perf_counter()
    available = backends()
    if method == "auto":
        chosen, reason, found = choose(encoding, options)
        if found is not None:
            result = CountResult(found, True, chosen)
        else:
            result = available[chosen].count(encoding, options)
        result.details["auto"] = reason
    elif method in available:
        result = available[method].count(encoding, options)
    else:
        raise RscountError(f"--method: unknown method {method!r} (choose from auto, {', '.join(available)})")
    result.seconds = time.perf_counter() - start
    return result


def run_stoppable(fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
    """Run fn(*args) in a forked child; kill it after `timeout` seconds or on Ctrl-C."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        try:
            sender.send(("ok", fn(*args)))
        except RscountError as exc:
            sender.send(("user", str(exc)))
        except BaseException:  # an internal error: hand the traceback to the parent
            sender.send(("bug", traceback.format_exc()))

    process = context.Process(target=child, daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise RscountError(f"stopped after the time limit of {timeout:g} s (--timeout)")
        kind, payload = receiver.recv()
    except EOFError:
        raise RuntimeError(f"the counting process died (exit code {process.exitcode})") from None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
    if kind == "user":
        raise RscountError(payload)
    if kind == "bug":
        raise RuntimeError(f"counting failed in the child process:\n{payload}")
    return payload
