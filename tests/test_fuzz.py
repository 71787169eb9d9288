"""Fuzz the command line with malformed and hostile inputs: task files (YAML), expressions, DIMACS
files and annotation files (CSV / JSON lines), and hold rscount to its promises on every one:

- the exit code is 0, 1, 2 or 3 (never a crash, a signal or Python's own 1 after an exception);
- no traceback on stdout or stderr;
- stderr stays under a size cap, and an invalid input (exit 2) gets one line naming the file,
  field or line: `rscount: error: ...` on stderr (`count`, `cnf`), an `error:` line (`check`);
- the command finishes within its `--timeout` plus a margin (a time limit is exit 3);
- nothing is written to the working directory unless asked, no input file changes (no silent
  overwrite), and nothing in an input is executed (a `touch PWNED` would leave a file behind).

Each example runs `rscount.cli.main(argv)` in a forked copy of this process (no interpreter start,
so hundreds of examples fit in CI), in a fresh temporary working directory, with its stdout and
stderr captured at the file-descriptor level. An exception escaping main() is printed as the
interpreter would print it (a traceback, exit 1), so the assertions see exactly what a user would
see; a child that overruns its time limit is killed with its process group, so a hang fails one
example instead of hanging the suite. A few real `rscount` processes check the time limit end to end.

The default profile runs a few hundred examples in all (CI); `pytest --slow tests/test_fuzz.py`
(or RSCOUNT_FUZZ=slow) runs ten times as many.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from rscount.cli import main

# ---------------------------------------------------------------------------------------------
# Profiles and limits

SLOW = os.environ.get("RSCOUNT_FUZZ", "").lower() == "slow"
settings.register_profile(
    "fuzz", deadline=None, suppress_health_check=list(HealthCheck), print_blob=True, max_examples=40
)
settings.register_profile("fuzz-slow", parent=settings.get_profile("fuzz"), max_examples=400)
PROFILE = settings.get_profile("fuzz-slow" if SLOW else "fuzz")


def examples(n: int) -> int:
    """`n` examples in CI, ten times as many with --slow."""
    return n * 10 if SLOW else n


LIMIT = 3  # --timeout given to every counting command (seconds)
MARGIN = 15  # wall-clock allowance over the limit (noisy shared machines): not a performance test
STDERR_CAP = 2000  # characters of stderr at most, whatever the input
LINE_CAP = 500  # characters of one error line at most (values are quoted short)
MEMORY_HEADROOM = 2 << 30  # bytes of address space a forked run may add (protects the machine)
CODES = {0, 1, 2, 3}
MARKER = "PWNED"  # what hostile inputs try to create: its presence means code ran


# ---------------------------------------------------------------------------------------------
# Running the command line


@dataclass
class Run:
    argv: list[str]
    code: int
    out: str
    err: str
    seconds: float
    hung: bool

    def json_count(self) -> Any:
        """The count and support size of `count --json`."""
        record = json.loads(self.out)
        return record["count"], record.get("support")

    def error_lines(self) -> list[str]:
        """The lines that report invalid input: stderr's, `check`'s `error:` lines and `report`'s
        `FILE: error:` lines."""
        lines = [line for line in self.err.splitlines() if line.strip()]
        out = [line.strip() for line in self.out.splitlines()]
        lines += [line for line in out if line.startswith("error:") or ": error:" in line]
        return lines


def _limit_memory() -> None:
    try:
        status = Path("/proc/self/status").read_text()
        used = int(re.search(r"VmSize:\s+(\d+)", status).group(1)) * 1024  # type: ignore[union-attr]
        cap = used + MEMORY_HEADROOM
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (OSError, ValueError, AttributeError):
        pass


def _child(argv: list[str], cwd: Path, out_path: Path, err_path: Path) -> int:
    """In the forked child: run main(argv) as the installed command would (never returns)."""
    code = 70
    try:
        os.setpgid(0, 0)
        _limit_memory()
        os.chdir(cwd)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
        os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:  # what the interpreter would print: the failure we look for
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        try:
            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:
            pass
        code = 1
    finally:
        os._exit(code if isinstance(code, int) and 0 <= code < 256 else 70)


def run_forked(argv: Sequence[str], cwd: Path, limit: float = LIMIT + MARGIN) -> Run:
    """`rscount ARGV...` in a forked copy of this process, in `cwd`, killed after `limit` seconds."""
    argv = [str(a) for a in argv]
    with tempfile.TemporaryDirectory(prefix="rscount-fuzz-io-") as cap:
        out_path, err_path = Path(cap) / "out", Path(cap) / "err"
        sys.stdout.flush()
        sys.stderr.flush()
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(argv, cwd, out_path, err_path)
        hung = False
        delay = 0.002
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() - start > limit:
                hung = True
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                break
            time.sleep(delay)
            delay = min(delay * 1.5, 0.05)
        seconds = time.monotonic() - start
        code = os.waitstatus_to_exitcode(status)
        out = out_path.read_bytes().decode("utf-8", "backslashreplace") if out_path.exists() else ""
        err = err_path.read_bytes().decode("utf-8", "backslashreplace") if err_path.exists() else ""
    return Run(argv, code, out, err, seconds, hung)


# ---------------------------------------------------------------------------------------------
# Cases: files in a fresh working directory and a command line


def _short(data: bytes) -> str:
    if len(data) <= 600:
        return repr(data)
    return f"{data[:400]!r} ... <{len(data)} bytes> ... {data[-120:]!r}"


@dataclass
class Case:
    """The input files (name -> bytes, written into a fresh directory) and the command line."""

    files: dict[str, bytes]
    argv: list[str]
    outputs: frozenset[str] = frozenset()  # files the command was asked to write (when it succeeds)
    dirs: tuple[str, ...] = ()
    outputs_on_error: bool = False  # report writes its files whatever the verdict

    def __repr__(self) -> str:
        files = ", ".join(f"{name!r}: {_short(data)}" for name, data in self.files.items())
        return f"Case(argv={self.argv!r}, files={{{files}}})"

    @property
    def command(self) -> str:
        return self.argv[0]


def _snapshot(root: Path) -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        found[rel] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    return found


def execute(
    case: Case, inspect: Callable[[Path], None] | None = None
) -> tuple[Run, dict[str, str | None], dict[str, str | None]]:
    """Write the case's files in a fresh directory, run its command there; the run and the
    directory's listing (with content hashes) before and after (`inspect` sees the directory
    before it goes)."""
    with tempfile.TemporaryDirectory(prefix="rscount-fuzz-") as tmp:
        work = Path(tmp)
        for d in case.dirs:
            (work / d).mkdir(parents=True, exist_ok=True)
        for name, data in case.files.items():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_bytes(data)
        before = _snapshot(work)
        run = run_forked(case.argv, work)
        after = _snapshot(work)
        if inspect is not None:
            inspect(work)
    return run, before, after


def assert_promises(case: Case, run: Run, before: dict, after: dict) -> None:
    """The promises every run keeps, whatever its input."""
    what = (
        f"{case!r}\n--- exit {run.code} in {run.seconds:.1f} s"
        f"\n--- stdout:\n{run.out[-3000:]}\n--- stderr:\n{run.err[-3000:]}"
    )
    assert not run.hung, f"did not finish within --timeout {LIMIT} + {MARGIN} s (killed)\n{what}"
    assert run.code in CODES, f"exit code {run.code} (negative: killed by that signal)\n{what}"
    assert "Traceback" not in run.err and "Traceback" not in run.out, f"traceback\n{what}"
    assert len(run.err) <= STDERR_CAP, f"stderr of {len(run.err)} characters\n{what}"
    assert MARKER not in after, f"code in the input ran: {MARKER} was created\n{what}"
    for name, digest in before.items():
        assert after.get(name, "gone") == digest, f"{name} was changed or removed\n{what}"
    created = set(after) - set(before)
    allowed = set(case.outputs) if run.code in (0, 1) or case.outputs_on_error else set()
    assert created <= allowed, f"files written without being asked: {sorted(created - allowed)}\n{what}"
    if run.code == 2:
        lines = run.error_lines()
        assert lines, f"exit 2 without an error line\n{what}"
        if case.command in ("count", "cnf"):
            assert len(lines) == 1 and lines[0].startswith("rscount: error: "), f"not one error line\n{what}"
        elif case.command == "check":
            assert not run.err.strip() or run.err.startswith("rscount: error: "), f"stray stderr\n{what}"
        for line in lines:
            assert len(line) <= LINE_CAP, f"an error line of {len(line)} characters\n{what}"
        names = [Path(n).name for n in case.files] + [Path(a).name for a in case.argv]
        assert any(n and n in line for line in lines for n in names), f"the error names no file\n{what}"


def check_case(case: Case, inspect: Callable[[Path], None] | None = None) -> Run:
    """Run a case and assert the promises; the run, for more specific assertions."""
    run, before, after = execute(case, inspect)
    assert_promises(case, run, before, after)
    return run


COUNTING = ("--quiet", "--timeout", str(LIMIT))


# ---------------------------------------------------------------------------------------------
# Strategies: hostile values and raw YAML


class Raw(str):
    """Text placed verbatim into YAML (a token `yaml.safe_dump` would quote)."""


BOMB = (
    "["
    + ", ".join(
        [f"&l0 [{', '.join(['lol'] * 9)}]"]
        + [f"&l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
    )
    + "]"
)
RAW_YAML = [
    "1" * 5000,  # an integer literal over Python's 4300-digit conversion limit
    "[" * 3000 + "]" * 3000,
    "{a: " * 1500 + "1" + "}" * 1500,
    BOMB,  # billion laughs
    "&self [*self]",  # a list containing itself
    ".inf",
    "-.inf",
    ".nan",
    "0x7FFFFFFFFFFFFFFFFFFF",
    "0o777",
    "0b101",
    "1_000",
    "190:20:30",  # YAML 1.1 sexagesimal
    "1.0e+400",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [a: 1, b: 2]",
    "!!pairs [a: 1, a: 2]",
    "!!python/name:os.system",
    f"!!python/object/apply:os.system ['touch {MARKER}']",
    "!!python/object/new:type ['X', [], {}]",
    "!custom x",
    "*nowhere",
    "{? [a, b] : c}",
    "{a: 1, a: 2}",
    "[c1, c1]",
    "'unterminated",
    '"\\x"',
    "@reserved",
    "`tick",
    "a: b: c",
    "{]",
    "|\n  block",
    "!!str",
    "!!int x",
    "!!float .inf",
    "~",
    "null",
    "Yes",
    "off",
]
LONG = "x" * 10_000
SCALARS: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    10**30,
    -(10**30),
    2**63,
    2**64 + 1,
    0.5,
    1.5,
    -0.0,
    1e308,
    1e-300,
    math.inf,
    -math.inf,
    math.nan,
    "",
    " ",
    "exhaustive",
    "sample",
    "examples",
    "file",
    "count",
    "objects",
    "joint",
    "disentangled",
    "c1",
    "y",
    "__import__('os').system('touch PWNED')",
    LONG,
    "\x00",
    "\u202e",
    "é",
    "a\nb",
    "../outside.csv",
    "/",
    ".",
    "-",
    "data.csv",
    "k.cnf",
    "/dev/null",
    "missing.csv",
    "${HOME}",
    "%s%n",
]


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


hostile_values: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(SCALARS),
    st.sampled_from(RAW_YAML).map(Raw),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.lists(st.integers(-3, 3) | st.sampled_from(["red", "c1", None, 1.5]), max_size=5),
    st.dictionaries(
        st.sampled_from(["c1", "c2", "sample", "seed", "file", "count", "x", ""]),
        st.integers(-2, 5),
        max_size=3,
    ),
    st.integers(1, 80).map(nested),
    st.integers(50, 3000).map(lambda n: list(range(n))),
    st.integers(50, 3000).map(lambda n: [[i % 2, (i // 2) % 2] for i in range(n)]),
)


def to_yaml(data: Any) -> bytes:
    """YAML text of `data`, with every Raw value written verbatim."""
    raws: dict[str, str] = {}

    def swap(value: Any) -> Any:
        if isinstance(value, Raw):
            key = f"RAWTOKEN{len(raws)}X"
            raws[key] = str(value)
            return key
        if isinstance(value, dict):
            return {swap(k): swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = yaml.safe_dump(swap(data), sort_keys=False, allow_unicode=True, width=10**6)
    for key, raw in raws.items():
        text = text.replace(key, raw)
    return text.encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------------------------------------
# Strategies: task files

DOMAINS = st.sampled_from(
    [[0, 1], [0, 1, 2], [0, 1, 2, 3], ["red", "green", "blue"], [1, 3, 5], [-1, 0, 1], ["a", 0]]
)
VALID_LABELS = ["c1", "c1 & c2", "Xor(c1, c2)", "Or(c1, Not(c2))", "c1 + c2", "Eq(c1, c2)", "Max(c1, c2)"]


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, prefix + (i,))


def _parent(obj: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        obj = obj[step]
    return obj


@st.composite
def mutated(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with a few of its values replaced, removed, wrapped, or keys added."""
    data = json.loads(json.dumps(data))  # a deep copy (the base is JSON-like)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(list(paths(data))))
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "wrap"]))
        if op == "add" or not where:
            target = data if not where else _parent(data, where)
            if isinstance(target, dict):
                key = draw(
                    st.sampled_from(
                        [
                            "support",
                            "mode",
                            "expect",
                            "objects",
                            "knowledge",
                            "completion",
                            "concept_supervision",
                            "unknown",
                            "seed",
                            "sample",
                            "c9",
                            "y",
                        ]
                    )
                )
                target[key] = draw(hostile_values)
            continue
        parent = _parent(data, where)
        if op == "delete":
            del parent[where[-1]]
        elif op == "wrap":
            parent[where[-1]] = [parent[where[-1]]]
        else:
            parent[where[-1]] = draw(hostile_values)
    return data


SUPPORTS = st.one_of(
    st.just("exhaustive"),
    st.builds(
        lambda f, s: {"sample": f, "seed": s}, st.sampled_from([0.5, 0.25, 1, 2, 3]), st.integers(0, 5)
    ),
    st.builds(lambda n, s: {"examples": n, "seed": s}, st.integers(1, 4), st.integers(0, 5)),
    st.just([[0, 0], [1, 1]]),
    st.just([{"c1": 0, "c2": 1}]),
    st.just({"file": "data.csv"}),
)


@st.composite
def task_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A task file's mapping, most often valid, over concepts c1, c2 (and maybe c3)."""
    names = ["c1", "c2"] + (["c3"] if draw(st.booleans()) else [])
    if draw(st.integers(0, 5)) == 0:
        data: dict[str, Any] = {"objects": {"count": draw(st.integers(1, 3)), "attributes": {"d": [0, 1]}}}
        data["labels"] = {"y": "d_1"}
    else:
        data = {"concepts": {n: (draw(DOMAINS) if draw(st.booleans()) else [0, 1]) for n in names}}
        label = draw(st.sampled_from(VALID_LABELS + [{"dimacs": "k.cnf"}]))
        data["labels"] = {"y": label}
    if draw(st.booleans()):
        data["support"] = draw(SUPPORTS)
    if draw(st.integers(0, 3)) == 0:
        data["concept_supervision"] = draw(st.sampled_from([[], [[0, 0]], {"sample": 0.5, "seed": 1}]))
    if draw(st.integers(0, 3)) == 0:
        data["mode"] = draw(st.sampled_from(["disentangled", "joint", "objects"]))
    if draw(st.integers(0, 3)) == 0:
        data["expect"] = draw(
            st.sampled_from([{"count": 2}, {"shortcuts": 0}, {"max_count": 10}, {"min_count": 1}])
        )
    if draw(st.booleans()):
        data["name"] = draw(st.sampled_from(["t", "with space", "../up", LONG[:300]]))
    return data


def _insert(data: bytes, at: float, junk: bytes) -> bytes:
    i = int(at * len(data))
    return data[:i] + junk + data[i:]


@st.composite
def raw_transform(draw: st.DrawFn, text: bytes) -> bytes:
    """Whole-file damage: encodings, BOMs, stray bytes, truncation, tabs, several documents."""
    kind = draw(
        st.sampled_from(
            [
                "none",
                "none",
                "none",
                "bom",
                "utf16",
                "bytes",
                "truncate",
                "crlf",
                "tabs",
                "nul",
                "docs",
                "empty",
                "comment",
                "dupkey",
            ]
        )
    )
    at = draw(st.floats(0, 1))
    if kind == "bom":
        return b"\xef\xbb\xbf" + text
    if kind == "utf16":
        return text.decode("utf-8", "replace").encode("utf-16")
    if kind == "bytes":
        return _insert(
            text, at, draw(st.sampled_from([b"\xff", b"\x80", b"\xc3\x28", b"\xed\xa0\x80", b"\xfe\xff"]))
        )
    if kind == "truncate":
        return text[: int(at * len(text))]
    if kind == "crlf":
        return text.replace(b"\n", b"\r\n")
    if kind == "tabs":
        return text.replace(b"  ", b"\t")
    if kind == "nul":
        return _insert(text, at, b"\x00")
    if kind == "docs":
        return b"---\n" + text + b"---\n" + text
    if kind == "empty":
        return draw(
            st.sampled_from([b"", b"\n", b"# only a comment\n", b"---\n", b"...\n", b"~\n", b"[]\n", b"42\n"])
        )
    if kind == "comment":
        return b"# " + LONG.encode() + b"\n" + text
    if kind == "dupkey":
        return text + draw(
            st.sampled_from([b"concepts: {c1: [0, 1]}\n", b"labels: {y: c1}\n", b"support: exhaustive\n"])
        )
    return text


GOOD_CNF = b"c y <-> c1 & c2\np cnf 2 2\n1 0\n2 0\n"
GOOD_CSV = b"c1,c2,y\n0,0,0\n1,1,1\n0,1,0\n"


RSBENCH_CONFIGS = [
    yaml.safe_load(path.read_text()) for path in sorted((Path(__file__).parent / "configs").glob("*.yaml"))
]


@st.composite
def task_cases(draw: st.DrawFn) -> Case:
    configs = st.sampled_from(RSBENCH_CONFIGS)  # rsbench generator configs (seed 004, appendix C)
    base = draw(configs) if draw(st.integers(0, 4)) == 0 else draw(task_dicts())
    text = to_yaml(draw(mutated(base)))
    text = draw(raw_transform(text))
    name = draw(st.sampled_from(["task.yaml", "task.yml", "task.yaml", "task"]))
    files = {name: text, "k.cnf": GOOD_CNF, "data.csv": GOOD_CSV}
    command = draw(st.sampled_from(["count", "count", "check"]))
    argv = [command, name, *COUNTING]
    outputs: frozenset[str] = frozenset()
    if command == "count" and draw(st.integers(0, 4)) == 0:
        argv += ["--json"]
    if command == "count" and draw(st.integers(0, 5)) == 0:
        target = draw(st.sampled_from(["out.cnf", "k.cnf", "data.csv"]))  # existing files: never overwritten
        argv += ["--emit", target]
        outputs = frozenset({target}) if target == "out.cnf" else frozenset()
    return Case(files, argv, outputs)


# ---------------------------------------------------------------------------------------------
# Strategies: expressions

EXPR_NAMES = ["c0", "c1", "c2", "c3", "c4", "d", "col", "red", "green", "x", "True", "False", "None", "y"]
EXPR_FUNCS = [
    "And",
    "Or",
    "Not",
    "Xor",
    "Implies",
    "Equivalent",
    "ITE",
    "Eq",
    "Ne",
    "Lt",
    "Le",
    "Gt",
    "Ge",
    "Min",
    "Max",
    "Abs",
    "Add",
    "Mul",
    "Pow",
    "Sum",
    "Symbol",
    "print",
    "eval",
    "exec",
    "open",
    "getattr",
    "__import__",
    "type",
    "globals",
]
EXPR_BINARY = [
    "&",
    "|",
    "^",
    ">>",
    "<<",
    "+",
    "-",
    "*",
    "**",
    "//",
    "%",
    "/",
    "@",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "and",
    "or",
    "in",
    "is",
    "is not",
    "not in",
]
EXPR_UNARY = ["~", "-", "+", "not "]
EXPR_LEAVES = [
    "0",
    "1",
    "2",
    "-1",
    "10**30",
    "99999999",
    "1.5",
    "1e308",
    "'red'",
    "''",
    "0x10",
    "1_0",
    "1j",
    "'x' * 3",
    "...",
    "b'x'",
]
EXPR_TOKENS = (
    EXPR_NAMES
    + EXPR_FUNCS
    + EXPR_BINARY
    + EXPR_UNARY
    + EXPR_LEAVES
    + [
        "(",
        ")",
        ",",
        ".",
        "[",
        "]",
        "{",
        "}",
        ":",
        "lambda",
        "if",
        "else",
        "=",
        ":=",
        ";",
        "\n",
        "#",
        "\\",
        "__class__",
        "__dict__",
        "__globals__",
        "'",
        '"',
        "`",
        "$",
        "\x00",
        "é",
        "²",
    ]
)

expr_leaf = st.sampled_from(EXPR_NAMES + EXPR_LEAVES) | st.integers(-5, 5).map(str)


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(st.sampled_from(EXPR_UNARY), children).map(lambda t: f"{t[0]}{t[1]}"),
        st.tuples(children, st.sampled_from(EXPR_BINARY), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(EXPR_FUNCS), st.lists(children, max_size=4)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
    )


HOSTILE_EXPRESSIONS = [
    f"__import__('os').system('touch {MARKER}')",
    f"open('{MARKER}', 'w')",
    f"exec(\"open('{MARKER}', 'w')\")",
    f"eval(\"__import__('os').system('touch {MARKER}')\")",
    "c0.__class__",
    "c0.__class__.__bases__[0].__subclasses__()",
    "().__class__.__base__.__subclasses__()",
    "(lambda: 1)()",
    "lambda x: x",
    "[c0 for c0 in ()]",
    "c0 if c1 else c2",
    "(x := 1)",
    "f'{c0}'",
    "c0[0]",
    "{c0: 1}",
    "{c0}",
    "[c0]",
    "(c0,)",
    "...",
    "c0; c1",
    "c0\nc1",
    "# comment",
    "",
    " ",
    "Or(*[c0, c1])",
    "Or(**{})",
    "And(c0, b=c1)",
    "Max()",
    "Min()",
    "Min(-5)",
    "Max(d)",
    "ITE(c0)",
    "ITE(c0, c1, c2, c3)",
    "ITE(d, c1, c2)",
    "Abs(c0, c1)",
    "Not()",
    "Not(c0, c1)",
    "Implies(c0)",
    "Equivalent()",
    "Xor()",
    "d // 0",
    "d % 0",
    "d // (d - d)",
    "d ** -1",
    "(d - 4) ** -2 == 0",
    "2 ** 2 ** 2 ** 2 ** 2",
    "9 ** 9 ** 9",
    "10 ** 10 ** 10",
    "(d + 2) ** 99999999",
    "(d + 2) ** 99999999 == 0",
    "d ** d ** d ** d ** d",
    "-(10 ** 30)",
    "d * 10 ** 30 == 0",
    "1" * 5000,
    "d == " + "1" * 4301,
    "col + 1",
    "col == 'red'",
    "col == red",
    "col < red",
    "d / 2",
    "Abs(col)",
    "Min(d, col)",
    "'x' * 10 ** 9",
    "Eq(c0)",
    "Eq(c0, c1, c2)",
    "c0 == c1 == c2",
    "1 < d < 3",
    "not c0",
    "c0 and c1",
    "True",
    "None",
    "1.5",
    "1e308 == d",
    "c0 @ c1",
    "\x00",
    "c0 \\\n | c1",
    "((((",
    "))",
    "__builtins__",
    "__class__",
    "c0.real",
    "globals()",
    "breakpoint()",
    "input()",
    "c0 is c1",
    "c0 in (c1,)",
    "Symbol('c0')",
    "y",
    "y & c0",
    "c0 << 1000000000",
    "1 << 10 ** 9",
    "d << 99999999999",
]


@st.composite
def expressions(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["structured", "structured", "soup", "fixed", "fixed", "long"]))
    if kind == "structured":
        return draw(st.recursive(expr_leaf, _extend, max_leaves=25))
    if kind == "soup":
        sep = draw(st.sampled_from([" ", ""]))
        return sep.join(draw(st.lists(st.sampled_from(EXPR_TOKENS), max_size=30)))
    if kind == "fixed":
        return draw(st.sampled_from(HOSTILE_EXPRESSIONS))
    n = draw(st.integers(1, 20_000))
    form = draw(
        st.sampled_from(["not", "chain", "parens", "Not", "xor", "and", "sum", "product", "max", "pow"])
    )
    chain = [f"c{i % 5}" for i in range(n)]
    return {
        "not": lambda: "~" * n + "c0",
        "chain": lambda: " | ".join(chain),
        "parens": lambda: "(" * n + "c0" + ")" * n,
        "Not": lambda: "Not(" * n + "c0" + ")" * n,
        "xor": lambda: "Xor(" + ", ".join(chain) + ")",
        "and": lambda: "And(" + ", ".join(chain) + ")",
        "sum": lambda: " + ".join(["d"] * n) + " == 3",
        "product": lambda: " * ".join(["d"] * n) + " == 0",
        "max": lambda: "Max(" + ", ".join(["d"] * n) + ")",
        "pow": lambda: f"(d + 2) ** {n * 10_000}",
    }[form]()


EXPR_CONCEPTS = {**{f"c{i}": [0, 1] for i in range(5)}, "d": [0, 1, 2, 3], "col": ["red", "green", "blue"]}


@st.composite
def expression_cases(draw: st.DrawFn) -> Case:
    expr = draw(expressions())
    where = draw(st.sampled_from(["label", "label", "knowledge", "second label"]))
    data: dict[str, Any] = {"concepts": EXPR_CONCEPTS}
    if where == "label":
        data["labels"] = {"y": expr}
    elif where == "second label":
        data["labels"] = {"y": "c0 & c1", "z": expr}
    else:
        data["labels"] = {"y": [0, 1]}
        data["knowledge"] = [f"Equivalent(y, {expr})" if draw(st.booleans()) else expr]
    data["support"] = draw(st.sampled_from(["exhaustive", {"examples": 4, "seed": 1}]))
    command = draw(st.sampled_from(["count", "check"]))
    return Case({"expr.yaml": to_yaml(data)}, [command, "expr.yaml", *COUNTING])


# ---------------------------------------------------------------------------------------------
# Strategies: DIMACS

HUGE = [10**5, 99999999999, 2**31, 2**63, 2**64, 10**30, -1, -(2**63)]
BAD_TOKENS = ["x", "1.5", "--1", "+1", "1_0", "0x1", "²", "١", "1e3", "-", "", "\x00", "nan", "inf", "٣"]
literal = st.one_of(st.integers(-6, 6), st.sampled_from(HUGE).map(lambda v: v * (-1) ** (v % 2)))


@st.composite
def dimacs_text(draw: st.DrawFn) -> bytes:
    n = draw(st.one_of(st.integers(0, 6), st.sampled_from(HUGE)))
    clauses = draw(st.lists(st.lists(literal, max_size=5), max_size=6))
    m = draw(st.one_of(st.just(len(clauses)), st.integers(-1, 8), st.sampled_from(HUGE)))
    header = draw(
        st.sampled_from(
            [
                f"p cnf {n} {m}",
                f"p cnf {n} {m}",
                f"p cnf {n} {m}",
                "p cnf",
                f"p cnf {n}",
                f"p dnf {n} {m}",
                f"p cnf {n} {m} 7",
                f"p  cnf\t{n}  {m}",
                "p cnf x y",
                f"P CNF {n} {m}",
                "",
                f"p cnf {n:x} {m}",
                f"p wcnf {n} {m}",
                f"p cnf {n} {m}\np cnf {n} {m}",
            ]
        )
    )
    lines = [header]
    for clause in clauses:
        tokens = [str(v) for v in clause]
        if draw(st.integers(0, 5)) == 0:
            tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(BAD_TOKENS)))
        if draw(st.integers(0, 6)) != 0:
            tokens.append("0")
        lines.append(" ".join(tokens))
    for _ in range(draw(st.integers(0, 3))):
        extra = draw(
            st.sampled_from(
                [
                    "c hello",
                    "c p show 1 2 0",
                    "c p show 99 0",
                    "c p show x 0",
                    "c ind 1 0",
                    "c ind 1",
                    "c var 1 = a",
                    "c var 99999 = b",
                    "c var x = y",
                    "%",
                    "0",
                    "c " + LONG,
                    "1 " * 5000 + "0",
                    "",
                    "   ",
                    "\t",
                    "1 -1 0",
                    "0 0 0",
                    "p",
                    "c",
                    "cc",
                ]
            )
        )
        lines.insert(draw(st.integers(0, len(lines))), extra)
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    return draw(raw_transform(text.encode("utf-8")))


@st.composite
def dimacs_cases(draw: st.DrawFn) -> Case:
    cnf = draw(dimacs_text())
    how = draw(st.sampled_from(["cnf", "cnf", "count", "check", "label"]))
    if how == "label":
        task = to_yaml(
            {"concepts": {"c1": [0, 1], "c2": [0, 1], "c3": [0, 1]}, "labels": {"y": {"dimacs": "k.cnf"}}}
        )
        command = draw(st.sampled_from(["count", "check"]))
        return Case({"task.yaml": task, "k.cnf": cnf}, [command, "task.yaml", *COUNTING])
    name = draw(st.sampled_from(["k.cnf", "k.cnf", "k.dimacs", "k.txt"]))
    return Case({name: cnf}, [how, name, *COUNTING])


# ---------------------------------------------------------------------------------------------
# Strategies: annotation files (CSV, JSON lines)

CSV_CONCEPTS = {"c1": [0, 1], "c2": [0, 1, 2], "col": ["red", "green"]}
CSV_LABEL = "c1 & (c2 == 2)"
CELLS = [
    "0",
    "1",
    "2",
    "red",
    "green",
    " 1 ",
    "1.0",
    "01",
    "-1",
    "3",
    "true",
    "false",
    "True",
    "FALSE",
    "",
    "x",
    "NaN",
    "inf",
    "1e3",
    '"1"',
    "null",
    "None",
    "[1]",
    "{}",
    LONG,
    "\x00",
    "é",
    "²",
    "\u00a0",
]
COLUMNS = ["c1", "c2", "col", "y", "extra", " c1", "C1", "c1 ", "", "\ufeffc1", "y"]


def _good_row(i: int) -> list[str]:
    c1, c2, col = i % 2, (i // 2) % 3, ["red", "green"][(i // 6) % 2]
    return [str(c1), str(c2), col, str(int(c1 == 1 and c2 == 2))]


@st.composite
def csv_text(draw: st.DrawFn) -> bytes:
    if draw(st.booleans()):
        header = ["c1", "c2", "col", "y"]
        rows = [_good_row(i) for i in range(draw(st.integers(0, 12)))]
        for _ in range(draw(st.integers(0, 3))):  # damage a few cells or rows
            if rows:
                r = draw(st.integers(0, len(rows) - 1))
                kind = draw(st.sampled_from(["cell", "short", "long"]))
                if kind == "cell":
                    cell = draw(st.sampled_from(CELLS) | st.text(max_size=4))
                    if rows[r]:
                        rows[r][draw(st.integers(0, len(rows[r]) - 1))] = cell
                    else:
                        rows[r].append(cell)
                elif kind == "short":
                    rows[r] = rows[r][: draw(st.integers(0, 3))]
                else:
                    rows[r] = rows[r] + ["1"] * draw(st.integers(1, 3))
        if draw(st.integers(0, 3)) == 0:
            header = draw(st.permutations(header + draw(st.lists(st.sampled_from(COLUMNS), max_size=2))))
    else:
        header = draw(st.lists(st.sampled_from(COLUMNS), max_size=6))
        rows = draw(st.lists(st.lists(st.sampled_from(CELLS) | st.text(max_size=4), max_size=7), max_size=6))
    size = draw(st.sampled_from(["small", "small", "small", "many", "wide"]))
    if size == "many":
        rows += [_good_row(i) for i in range(draw(st.integers(100, 5000)))]
    elif size == "wide":
        rows.append(["1"] * draw(st.integers(100, 20_000)))
    delimiter = draw(st.sampled_from([",", ",", ",", ";", "\t"]))
    buffer = io.StringIO()
    if draw(st.booleans()):
        writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        text = buffer.getvalue()
    else:  # by hand: quotes and delimiters inside cells stay unbalanced
        text = "".join(delimiter.join(r) + "\n" for r in [header, *rows])
    return draw(raw_transform(text.encode("utf-8", "surrogatepass")))


JSON_VALUES = [
    0,
    1,
    2,
    "0",
    "1",
    "red",
    "green",
    True,
    False,
    None,
    1.0,
    0.5,
    10**30,
    [],
    {},
    [1],
    {"a": 1},
    "x" * 1000,
    "",
    math.nan,
    math.inf,
]


@st.composite
def jsonl_text(draw: st.DrawFn) -> bytes:
    lines = []
    for i in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["good", "good", "good", "object", "raw"]))
        if kind == "good":
            c1, c2, col, y = _good_row(i)
            lines.append(json.dumps({"c1": int(c1), "c2": int(c2), "col": col, "y": int(y)}))
        elif kind == "object":
            keys = draw(st.lists(st.sampled_from(["c1", "c2", "col", "y", "extra", ""]), max_size=5))
            lines.append(json.dumps({k: draw(st.sampled_from(JSON_VALUES)) for k in keys}))
        else:
            lines.append(
                draw(
                    st.sampled_from(
                        [
                            "{",
                            "[1, 2, 3]",
                            "3",
                            '"str"',
                            "null",
                            "",
                            "   ",
                            '{"c1": 0, "c1": 1, "c2": 0, "col": "red"}',
                            '{"c1": ' + "1" * 5000 + ', "c2": 0, "col": "red"}',
                            "[" * 100_000 + "]" * 100_000,
                            '{"c1": NaN, "c2": Infinity, "col": "red"}',
                            '{"c1": 1e400, "c2": 0, "col": "red"}',
                            "\ufeff{}",
                            '{"c1": "\\ud800", "c2": 0, "col": "red"}',
                        ]
                    )
                )
            )
    text = "\n".join(lines) + draw(st.sampled_from(["\n", ""]))
    return draw(raw_transform(text.encode("utf-8")))


@st.composite
def annotation_cases(draw: st.DrawFn) -> Case:
    if draw(st.booleans()):
        name, data = draw(st.sampled_from(["data.csv", "data.csv", "data.txt"])), draw(csv_text())
    else:
        name, data = draw(st.sampled_from(["data.jsonl", "data.ndjson"])), draw(jsonl_text())
    task: dict[str, Any] = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}}
    where = draw(st.sampled_from(["support", "support", "supervision", "both"]))
    if where in ("support", "both"):
        task["support"] = {"file": name}
    if where in ("supervision", "both"):
        task["concept_supervision"] = {"file": name}
    command = draw(st.sampled_from(["count", "check"]))
    return Case({"task.yaml": to_yaml(task), name: data}, [command, "task.yaml", *COUNTING])


INLINE_ROWS = [
    "[[0, 2, red]]",
    "[[1, 0, green], [0, 1, red]]",
    "[[0, 3, red]]",
    "[[0, 2]]",
    "[0, 2, red]",
    "{c1: 0, c2: 2, col: red}",
    "[{c1: 0, c2: 2, col: blue}]",
    "[[" * 3000,
    "!!python/object/apply:os.system ['echo hacked']",
    "&a [*a]",
    "[]",
    "",
    "no/such/file.csv",
]


@st.composite
def hostile_test_vector_cases(draw: st.DrawFn) -> Case:
    """`forecast --test`: test vectors as a CSV or JSON lines file (damaged or not), a YAML file of
    hostile values, or rows written inline."""
    task = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}, "support": [[1, 2, "red"], [0, 1, "green"]]}
    files = {"task.yaml": to_yaml(task)}
    kind = draw(st.sampled_from(["csv", "jsonl", "yaml", "inline"]))
    if kind == "csv":
        files["test.csv"], where = draw(csv_text()), "test.csv"
    elif kind == "jsonl":
        files["test.jsonl"], where = draw(jsonl_text()), "test.jsonl"
    elif kind == "yaml":
        files["test.yaml"], where = (
            draw(raw_transform(to_yaml([[0, 2, "red"], [1, 1, "green"]]))),
            "test.yaml",
        )
    else:
        where = draw(st.sampled_from(INLINE_ROWS))
    return Case(files, ["forecast", "task.yaml", "--test", where, *COUNTING])


OBJECT_TASK = {
    "objects": {"count": 2, "attributes": {"shape": ["square", "circle"], "color": ["red", "blue"]}},
    "labels": {"y": "Ne(shape_1, shape_2)"},
}
LEAVES = ['{"shape": "square", "color": "red"}', '{"shape": "circle", "color": "blue"}']
SYMBOL_PIECES = [
    *LEAVES,
    "stack(",
    "side_by_side([",
    "[",
    "]",
    ")",
    "{",
    "}",
    ",",
    ":",
    '"shape"',
    "'red'",
    "__import__('os')",
    ".system",
    "lambda x: x",
    "1" * 5000,
    "[" * 5000,
    "\\",
    '"',
    "\x00",
]


@st.composite
def symbol_text(draw: st.DrawFn) -> str:
    """A KANDY symbol cell: a well-formed tree, or pieces of trees and hostile tokens run together."""
    if draw(st.booleans()):
        return f"stack([{draw(st.sampled_from(LEAVES))}, {draw(st.sampled_from(LEAVES))}])"
    return "".join(draw(st.lists(st.sampled_from(SYMBOL_PIECES), max_size=8)))


@st.composite
def benchmark_file_cases(draw: st.DrawFn) -> Case:
    """KANDY annotations.csv and CLEVR scene JSON files, well-formed or damaged, as supports."""
    if draw(st.booleans()):
        rows = [
            f"i.png,{draw(st.sampled_from(['1', '2', 'x', '']))},{draw(st.sampled_from(['0', '1', '2']))},"
            f'{draw(st.sampled_from(["0", "1"]))},"{draw(symbol_text()).replace(chr(34), chr(34) * 2)}"'
            for _ in range(draw(st.integers(0, 4)))
        ]
        text = "filename,task_id,label,supervised,symbol\n" + "\n".join(rows)
        name, extra = (
            "annotations.csv",
            draw(st.sampled_from([{}, {"task": 1}, {"task": "x"}, {"format": "kandy"}])),
        )
    else:
        scene = draw(
            st.sampled_from(
                [
                    '{"objects": [' + LEAVES[0] + ", " + LEAVES[1] + "]}",
                    '{"objects": [' + LEAVES[0] + "]}",
                    '{"objects": [{"shape": "cube", "color": "red"}, ' + LEAVES[1] + "]}",
                    '{"objects": {}}',
                    "[]",
                    '{"objects": [' + "[" * 3000 + "]" * 3000 + "]}",
                ]
            )
        )
        text = '{"scenes": [' + ", ".join([scene] * draw(st.integers(0, 3))) + "]}"
        name, extra = "scenes.json", draw(st.sampled_from([{}, {"format": "clevr"}, {"task": 1}]))
    task = {**OBJECT_TASK, "support": {"file": name, **extra}}
    data = draw(raw_transform(text.encode("utf-8")))
    return Case(
        {"task.yaml": to_yaml(task), name: data},
        [draw(st.sampled_from(["count", "check"])), "task.yaml", *COUNTING],
    )


# ---------------------------------------------------------------------------------------------
# Strategies: ProbLog / DeepProbLog programs (program:, query:)

PROGRAM_LINES = [
    "nn(net, [X], Y, [0, 1, 2]) :: digit(X, Y).",
    "addition(X, Y, Z) :- digit(X, X2), digit(Y, Y2), Z is X2 + Y2.",
    "0.5::a. 0.5::b.",
    "0.5::c(red); 0.5::c(blue).",
    "q :- a, \\+ b.",
    "q :- c(red).",
    "q :- q.",
    "p(X) :- p(X).",
    ":- initialization(main).",
    ":- use_module(library(lists)).",
    ":- use_module('/etc/passwd').",
    "q :- call(a).",
    "q :- X.",
    "q :- shell('rm -rf /').",
    "q :- consult('/etc/passwd').",
    "q :- open('x', write, S), write(S, a).",
    "q :- assertz(a).",
    "q :- findall(X, digit(X, _), L), length(L, N), N > 1.",
    "evidence(a, true).",
    "query(q).",
    "t(_)::a.",
    "nn(net, [X], Y) :: digit(X, Y).",
    "1.5::a.",
    "0.7::d(X) :- between(1, 1000000, X).",
    "q :- between(1, 100000000, X), X < 0.",
    "deep(N) :- N > 0, M is N - 1, deep(M).",
    "q :- deep(100000).",
    "q :- (a ; b) -> c(red) ; c(blue).",
    "q(",
    ")).",
    "0.5::",
    LONG,
    "\x00",
    "é :- a.",
]
QUERIES = [
    "q",
    "addition(a, b, Z)",
    "[q, q]",
    "p(X)",
    "undefined",
    "q).",
    "X",
    "'q'",
    "q :- a",
    LONG,
    "[]",
    "{}",
]


@st.composite
def program_cases(draw: st.DrawFn) -> Case:
    lines = draw(st.lists(st.sampled_from(PROGRAM_LINES), min_size=0, max_size=8))
    text = "\n".join(lines).encode()
    if draw(st.booleans()):
        text = draw(raw_transform(text))
    task: dict[str, Any] = {"program": "k.pl", "support": "exhaustive"}
    if draw(st.booleans()):
        task["query"] = draw(st.sampled_from(QUERIES))
    if draw(st.booleans()):
        task["mode"] = draw(st.sampled_from(["objects", "disentangled", "jrs"]))
    command = draw(st.sampled_from(["count", "check", "explain"]))
    return Case({"task.yaml": to_yaml(task), "k.pl": text}, [command, "task.yaml", *COUNTING])


# ---------------------------------------------------------------------------------------------
# The generic promises, over every kind of input


@settings(PROFILE, max_examples=examples(90))
@given(task_cases())
def test_hostile_task_files_keep_the_promises(case):
    check_case(case)


@settings(PROFILE, max_examples=examples(90))
@given(expression_cases())
def test_hostile_expressions_keep_the_promises(case):
    check_case(case)


@settings(PROFILE, max_examples=examples(60))
@given(dimacs_cases())
def test_hostile_dimacs_keeps_the_promises(case):
    check_case(case)


@settings(PROFILE, max_examples=examples(40))
@given(benchmark_file_cases())
def test_hostile_benchmark_annotation_files_keep_the_promises(case):
    check_case(case)


@settings(PROFILE, max_examples=examples(60))
@given(annotation_cases())
def test_hostile_annotation_files_keep_the_promises(case):
    check_case(case)


@settings(PROFILE, max_examples=examples(30))
@given(hostile_test_vector_cases())
def test_hostile_test_vectors_keep_the_promises(case):
    check_case(case)


@settings(PROFILE, max_examples=examples(40))
@given(program_cases())
def test_hostile_programs_keep_the_promises(case):
    check_case(case)


# ---------------------------------------------------------------------------------------------
# Promises with a known answer: refusals, and damage that must not change the answer

GOOD_TASK = {
    "concepts": {"c1": [0, 1], "c2": [0, 1, 2]},
    "labels": {"y": "c1 & Eq(c2, 2)"},
    "support": "exhaustive",
}


def flow(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10**6).strip().removesuffix("...").strip()


@settings(PROFILE, max_examples=examples(15))
@given(
    st.sampled_from(["top", "concepts", "labels", "support", "expect"]),
    st.booleans(),
    st.sampled_from(["count", "check"]),
)
def test_duplicate_yaml_keys_are_refused(where, same, command):
    """A key given twice in one mapping is an error (the second must not silently win)."""
    lines = [
        "concepts: {c1: [0, 1], c2: [0, 1, 2]" + (", c1: [0, 1]" if where == "concepts" else "") + "}",
        "labels: {y: c1 & Eq(c2, 2)" + (", y: c1" if where == "labels" else "") + "}",
        "support: {sample: 0.5, seed: 1" + (", seed: 2" if where == "support" else "") + "}",
        "expect: {min_count: 1" + (", min_count: 2" if where == "expect" else "") + "}",
    ]
    if where == "top":
        lines.append(lines[0] if same else "concepts: {c1: [0, 1], c2: [0, 1]}")
    case = Case({"dup.yaml": ("\n".join(lines) + "\n").encode()}, [command, "dup.yaml", *COUNTING])
    run = check_case(case)
    assert run.code == 2, (
        f"a duplicate key in {where} was accepted (exit {run.code})\n{case!r}\n{run.out}{run.err}"
    )


@settings(PROFILE, max_examples=examples(15))
@given(
    st.sampled_from([b"\xff", b"\x80", b"\xc3\x28", b"\xed\xa0\x80", b"\xc0\xaf"]),
    st.floats(0, 1),
    st.sampled_from(["task", "csv", "cnf"]),
)
def test_non_utf8_files_are_refused_naming_the_file(junk, at, which):
    task = {**GOOD_TASK}
    files = {}
    if which == "csv":
        task["support"] = {"file": "data.csv"}
        task["labels"] = {"y": "c1 & Eq(c2, 2)"}
        files["data.csv"] = _insert(b"c1,c2\n0,0\n1,2\n", at, junk)
    elif which == "cnf":
        task = {"concepts": {"c1": [0, 1], "c2": [0, 1]}, "labels": {"y": {"dimacs": "k.cnf"}}}
        files["k.cnf"] = _insert(GOOD_CNF, at, junk)
    text = to_yaml(task)
    files["task.yaml"] = _insert(text, at, junk) if which == "task" else text
    run = check_case(Case(files, ["count", "task.yaml", *COUNTING]))
    bad = {"task": "task.yaml", "csv": "data.csv", "cnf": "k.cnf"}[which]
    assert run.code == 2 and bad in run.err, f"{which} with {junk!r}: exit {run.code}\n{run.err}"


@settings(PROFILE, max_examples=examples(20))
@given(
    st.sampled_from(["bom", "crlf", "bom+crlf"]),
    st.sampled_from(["task", "csv", "jsonl", "cnf"]),
    st.integers(1, 12),
)
def test_bom_and_crlf_do_not_change_the_answer(damage, which, rows):
    """A UTF-8 byte-order mark or Windows line ends are read as the same file."""

    def spoil(data: bytes) -> bytes:
        if "crlf" in damage:
            data = data.replace(b"\n", b"\r\n")
        return b"\xef\xbb\xbf" + data if "bom" in damage else data

    task: dict[str, Any] = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}}
    files: dict[str, bytes] = {}
    if which == "csv":
        task["support"] = {"file": "data.csv"}
        files["data.csv"] = (
            "c1,c2,col,y\n" + "".join(",".join(_good_row(i)) + "\n" for i in range(rows))
        ).encode()
    elif which == "jsonl":
        task["support"] = {"file": "data.jsonl"}
        files["data.jsonl"] = "".join(
            json.dumps(dict(zip(["c1", "c2", "col", "y"], _good_row(i)))) + "\n" for i in range(rows)
        ).encode()
    elif which == "cnf":
        task = {"concepts": {"c1": [0, 1], "c2": [0, 1]}, "labels": {"y": {"dimacs": "k.cnf"}}}
        files["k.cnf"] = GOOD_CNF
    files["task.yaml"] = to_yaml(task)
    target = {"task": "task.yaml", "csv": "data.csv", "jsonl": "data.jsonl", "cnf": "k.cnf"}[which]
    argv = ["count", "task.yaml", "--json", *COUNTING]
    plain = check_case(Case(files, argv))
    spoilt = check_case(Case({**files, target: spoil(files[target])}, argv))
    assert plain.code == 0, f"the undamaged task fails: {plain.err}"
    assert spoilt.code == 0, f"{damage} in {target} changes exit 0 to {spoilt.code}: {spoilt.err.strip()}"
    got, want = spoilt.json_count(), plain.json_count()
    assert got == want, f"{damage} in {target} changes the count from {want} to {got}"


@settings(PROFILE, max_examples=examples(10))
@given(
    st.sampled_from(["c1", "c2", "col", "y"]),
    st.sampled_from(["support", "concept_supervision"]),
    st.sampled_from(["count", "check"]),
)
def test_duplicate_csv_columns_are_refused(column, key, command):
    header = ["c1", "c2", "col", "y", column]
    rows = [_good_row(i) + [_good_row(i)[["c1", "c2", "col", "y"].index(column)]] for i in range(6)]
    text = "".join(",".join(r) + "\n" for r in [header, *rows]).encode()
    task: dict[str, Any] = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}, key: {"file": "data.csv"}}
    run = check_case(Case({"task.yaml": to_yaml(task), "data.csv": text}, [command, "task.yaml", *COUNTING]))
    assert run.code == 2, f"column {column} given twice in the {key} file was accepted (exit {run.code})"
    assert "data.csv" in "".join(run.error_lines())


@settings(PROFILE, max_examples=examples(15))
@given(
    st.integers(0, 5),
    st.sampled_from(
        [
            ("c1", "2"),
            ("c1", "-1"),
            ("c2", "3"),
            ("c2", "true"),
            ("c2", "false"),
            ("c2", "1.0"),
            ("col", "blue"),
            ("col", "0"),
            ("c1", ""),
            ("c2", "x" * 500),
            ("col", "RED"),
        ]
    ),
    st.sampled_from(["csv", "jsonl"]),
)
def test_a_cell_outside_its_domain_is_refused_with_its_line(row, bad, kind):
    """`true`/`false` only for [0, 1] concepts; the error names the file and line (the header is
    line 1 of a CSV file)."""
    column, value = bad
    rows = [dict(zip(["c1", "c2", "col"], _good_row(i)[:3])) for i in range(6)]
    rows[row][column] = value
    if kind == "csv":
        name = "data.csv"
        text = "c1,c2,col\n" + "".join(f"{r['c1']},{r['c2']},{r['col']}\n" for r in rows)
        line = row + 2
    else:
        name = "data.jsonl"
        text = "".join(json.dumps(r) + "\n" for r in rows)
        line = row + 1
    task = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}, "support": {"file": name}}
    run = check_case(
        Case({"task.yaml": to_yaml(task), name: text.encode()}, ["count", "task.yaml", *COUNTING])
    )
    assert run.code == 2, f"{column} = {value!r} in {name} was accepted (exit {run.code})"
    assert f"{name}:{line}" in run.err, f"the error does not name {name}:{line}: {run.err.strip()}"


def test_emit_never_overwrites_an_existing_file():
    for target in ("task.yaml", "existing.cnf"):
        case = Case(
            {"task.yaml": to_yaml(GOOD_TASK), "existing.cnf": b"keep me\n"},
            ["count", "task.yaml", "--emit", target, *COUNTING],
        )
        run = check_case(case)
        assert run.code == 2 and "--force" in run.err, run.err


# ---------------------------------------------------------------------------------------------
# report DIR: a hostile file next to a good one

GOOD_REPORT_TASK = to_yaml({**GOOD_TASK, "expect": {"min_count": 1}})


@settings(PROFILE, max_examples=examples(10))
@given(st.one_of(task_cases(), expression_cases()))
def test_report_marks_exactly_the_hostile_file_as_an_error(hostile):
    """`report DIR` finishes, marks the hostile file as an error exactly when `check` calls it
    invalid, passes the good one next to it, and exits 2 when one is invalid."""
    hostile_name = hostile.argv[1]
    files = {f"tasks/{n}": d for n, d in hostile.files.items() if n != hostile_name}
    files["tasks/bad.yaml"] = hostile.files[hostile_name]
    files["tasks/good.yaml"] = GOOD_REPORT_TASK
    alone, _, _ = execute(Case(files, ["check", "tasks/bad.yaml", *COUNTING]))
    if alone.hung or "Traceback" in alone.err:
        reject()  # the other tests report it; here the question is what report makes of the file
    argv = ["report", "tasks", "--jobs", "1", "--json", "out/report.json", *COUNTING]
    case = Case(files, argv, frozenset({"out/report.json"}), dirs=("out",), outputs_on_error=True)
    report: dict[str, Any] | None = None

    def read_report(work: Path) -> None:
        nonlocal report
        if (work / "out/report.json").exists():
            report = json.loads((work / "out/report.json").read_text())

    run = check_case(case, read_report)
    what = f"{case!r}\n--- exit {run.code}\n{run.out}{run.err}"
    assert report is not None, f"no report written\n{what}"
    status = {t["file"]: t["status"] for t in report["tasks"]}
    assert status.get("good.yaml") == "pass", f"the good task: {status}\n{what}"
    if alone.code == 2:
        assert status.get("bad.yaml") == "error", f"check says invalid, report says {status}\n{what}"
        assert run.code == 2, f"report exits {run.code} with an invalid task\n{what}"
    else:
        assert status.get("bad.yaml") != "error", f"check exits {alone.code}, report says {status}\n{what}"


# ---------------------------------------------------------------------------------------------
# The time limit, end to end: real processes

HARD_LIMIT = 2


def _command() -> list[str]:
    found = shutil.which("rscount")
    return [found] if found else [sys.executable, "-m", "rscount.cli"]


def _many(n: int, values: int) -> str:
    return yaml.safe_dump(
        {"concepts": {f"c{i}": list(range(values)) for i in range(n)}, "labels": {"y": "c0 == c1"}}
    )


LIMIT_CASES: dict[str, tuple[list[str], dict[str, str], set[int]]] = {
    "sdd xor 9 (valid, long)": (["xor", "--bits", "9", "--method", "sdd"], {}, {3}),
    "check (d + 2) ** 99999999": (
        ["check", "t.yaml"],
        {"t.yaml": "concepts: {d: [0, 1, 2]}\nlabels: {y: (d + 2) ** 99999999 == 0}\n"},
        CODES,
    ),
    "check two concepts of 2000 values": (["check", "t.yaml"], {"t.yaml": _many(2, 2000)}, CODES),
    "count two concepts of 2000 values": (["count", "t.yaml"], {"t.yaml": _many(2, 2000)}, CODES),
    "count 70 Booleans, 5 examples": (
        ["count", "t.yaml"],
        {
            "t.yaml": yaml.safe_dump(
                {
                    "concepts": {f"c{i}": [0, 1] for i in range(70)},
                    "labels": {"y": " | ".join(f"c{i}" for i in range(70))},
                    "support": {"examples": 5, "seed": 1},
                }
            )
        },
        CODES,
    ),
    "count a label of 10000 ~": (
        ["count", "t.yaml"],
        {"t.yaml": "concepts: {c1: [0, 1]}\nlabels: {y: '" + "~" * 10_000 + "c1'}\n"},
        CODES,
    ),
    "cnf p cnf 100000 1": (["cnf", "k.cnf"], {"k.cnf": "p cnf 100000 1\n1 0\n"}, CODES),
    "cnf p cnf 99999999999 1": (["cnf", "k.cnf"], {"k.cnf": "p cnf 99999999999 1\n1 0\n"}, CODES),
}


@pytest.mark.parametrize("name", list(LIMIT_CASES))
def test_time_limit_holds_for_the_installed_command(name, tmp_path):
    argv, files, codes = LIMIT_CASES[name]
    for file, text in files.items():
        (tmp_path / file).write_text(text)
    before = _snapshot(tmp_path)
    command = _command() + argv + ["--quiet", "--timeout", str(HARD_LIMIT)]
    start = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="backslashreplace",
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=HARD_LIMIT + MARGIN)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(
            f"{name}: running {HARD_LIMIT + MARGIN} s after --timeout {HARD_LIMIT} (killed)\n{err[-2000:]}"
        )
    seconds = time.monotonic() - start
    what = f"{name}: exit {proc.returncode} in {seconds:.1f} s\n{out[-1500:]}\n{err[-3000:]}"
    assert proc.returncode in codes, what
    assert "Traceback" not in err and "Traceback" not in out, what
    assert len(err) <= STDERR_CAP, what
    if codes == {3}:  # a valid task that takes long: stopped by the time limit, saying so
        assert "time limit" in (err + out), what
    assert _snapshot(tmp_path) == before, f"files written: {what}"
