"""Choosing a backend (`auto`) and running it in a child process that a time limit can stop.

Solver libraries run C code that ignores Python signals and has no timeout of its own, so each
count runs in a forked child; the parent kills it on timeout or Ctrl-C.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
import traceback
from collections.abc import Callable
from typing import Any

from .backends import CountOptions, CountResult, backends
from .closed_forms import closed_form
from .encoding import Encoding, encode
from .errors import RscountError
from .joint import encode_joint
from .permutations import TooManyClasses
from .progress import Progress
from .task import Task

MODES: dict[str, Callable[..., Encoding]] = {  # keys: task.MODE_NAMES
    "disentangled": encode,
    "joint": encode_joint,
    "objects": functools.partial(encode, objects=True),
}
CLOSED_FORM = "closed-form"
APPROX = "approx"
EXACT = "exact"

AUTO_ENUMERATE_LIMIT = 1000
# decompose costs about 1.5 ms per permutation class on 8 Boolean concepts (benchmarks/), so auto
# lets it count at most this many classes before it turns to ApproxMC.
AUTO_DECOMPOSE_MAX_CLASSES = 5000


def auto_count(encoding: Encoding, options: CountOptions) -> CountResult:
    """auto: in the disentangled and objects modes, decompose by permutation when at most
    AUTO_DECOMPOSE_MAX_CLASSES classes survive pruning (the pruning runs first and costs SAT calls
    only); otherwise enumerate when the solver needs at most AUTO_ENUMERATE_LIMIT models, and use
    ApproxMC beyond. The joint mode's CNF (small by construction): enumeration, else SDD.

    Decomposition goes first because a failed enumeration probe costs up to AUTO_ENUMERATE_LIMIT
    solver calls on the whole CNF (seconds on supports of thousands of vectors), while a count
    that enumeration could finish has at most that many classes (each kept class holds at least
    one solver model), which decompose counts quickly."""
    available = backends()
    if encoding.mode != "joint":
        try:
            result = available["decompose"].count(encoding, options, max_classes=AUTO_DECOMPOSE_MAX_CLASSES)
            result.details["auto"] = f"at most {AUTO_DECOMPOSE_MAX_CLASSES} permutation classes survive"
            return result
        except TooManyClasses as exc:
            reason = str(exc)
    else:
        reason = "the joint mode"
    found = available["enumerate"].count_up_to(encoding, AUTO_ENUMERATE_LIMIT, options)
    if found is not None:
        result = CountResult(found, True, "enumerate")
        result.details["auto"] = f"{reason}; at most {AUTO_ENUMERATE_LIMIT} solver models, enumerated"
        return result
    if encoding.mode == "joint":
        result = available["sdd"].count(encoding, options)
        result.details["auto"] = f"more than {AUTO_ENUMERATE_LIMIT} models; the joint CNF by SDD"
        return result
    result = available["approxmc"].count(encoding, options)
    result.details["auto"] = f"{reason} and more than {AUTO_ENUMERATE_LIMIT} solver models"
    return result


# decompose-approx runs ApproxMC once per permutation class (about 0.1 s at least), so `approx`
# uses it only when few classes survive pruning; plain ApproxMC otherwise.
APPROX_DECOMPOSE_MAX_CLASSES = 64


def approx_count(encoding: Encoding, options: CountOptions) -> CountResult:
    """approx: ApproxMC per permutation class when few classes survive pruning (disentangled mode),
    else ApproxMC on the whole CNF; both with the (epsilon, delta) of `options`."""
    available = backends()
    if encoding.mode != "joint":
        try:
            result = available["decompose-approx"].count(encoding, options, APPROX_DECOMPOSE_MAX_CLASSES)
            result.details["auto"] = "few permutation classes: ApproxMC per class"
            return result
        except TooManyClasses as exc:
            reason = f"{exc}: ApproxMC on the whole CNF"
    else:
        reason = f"the {encoding.mode} CNF by ApproxMC"
    result = available["approxmc"].count(encoding, options)
    result.details["auto"] = reason
    return result


def count_encoding(encoding: Encoding, method: str, options: CountOptions) -> CountResult:
    """Count in this process with `method` (a backend name or 'auto')."""
    start = time.perf_counter()
    available = backends()
    if method == "auto":
        result = auto_count(encoding, options)
    elif method == APPROX:
        result = approx_count(encoding, options)
    elif method == EXACT:  # the fastest exact backend measured for the mode (docs/performance.md)
        result = available["sdd" if encoding.mode == "joint" else "decompose"].count(encoding, options)
    elif method in available:
        result = available[method].count(encoding, options)
    else:
        names = ", ".join(["auto", EXACT, APPROX, *available])
        raise RscountError(f"--method: {method!r} is not a backend (choose from {names})")
    result.seconds = time.perf_counter() - start
    return result


def _check_choice(mode: str, method: str) -> None:
    if mode not in MODES:
        raise RscountError(f"--mode: unknown mode {mode!r} (choose from {', '.join(MODES)})")
    methods = ["auto", CLOSED_FORM, EXACT, APPROX, *backends()]
    if method not in methods:
        raise RscountError(f"--method: unknown method {method!r} (choose from {', '.join(methods)})")


def build_encoding(task: Task, mode: str, progress: Progress | None = None) -> Encoding:
    """The CNF of `task` in counting mode `mode`."""
    _check_choice(mode, "auto")
    return MODES[mode](task, progress)


def count_task(
    task: Task,
    mode: str = "disentangled",
    method: str = "auto",
    options: CountOptions | None = None,
    encoding: Encoding | None = None,
) -> tuple[CountResult, Encoding | None]:
    """Count `task`: by a closed form when `method` is 'closed-form', or 'auto' and one applies;
    otherwise encode (unless `encoding` is given) and run the backend. Returns the encoding used."""
    options = options or CountOptions()
    _check_choice(mode, method)
    reasons: list[str] = []
    if method in ("auto", CLOSED_FORM):
        start = time.perf_counter()
        found = closed_form(task, mode)
        if isinstance(found, tuple):
            name, form = found
            details = {"closed_form": name, "formula": form.formula, "expression": form.expression}
            if method == "auto":
                details["auto"] = "a closed form applies"
            seconds = time.perf_counter() - start
            return CountResult(form.count, True, CLOSED_FORM, seconds, details=details), None
        reasons = found
        if method == CLOSED_FORM:
            raise RscountError("no closed form applies to this task: " + "; ".join(reasons))
    if encoding is None:
        if options.progress:
            options.progress.update(f"encoding {task.name}", force=True)
        encoding = build_encoding(task, mode, options.progress)
    result = count_encoding(encoding, method, options)
    if reasons:
        result.details["closed_forms_inapplicable"] = reasons
    return result, encoding


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
    _start_even_in_a_daemon(process)
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


def _start_even_in_a_daemon(process: multiprocessing.process.BaseProcess) -> None:
    """Start `process`, also from a daemonic process such as a Dask worker. multiprocessing refuses
    children of daemons so that none outlive them; run_stoppable always kills and joins its child."""
    config = multiprocessing.current_process()._config
    daemonic = config.get("daemon", False)
    config["daemon"] = False
    try:
        process.start()
    finally:
        config["daemon"] = daemonic
