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

The strategies that draw the inputs are in tests/strategies/hostile/, one module per input kind. The
default profile runs a few hundred examples in all (CI); `pytest --slow tests/test_fuzz.py` (or
RSCOUNT_FUZZ=slow) runs ten times as many.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from strategies.hostile.annotations import (
    CSV_CONCEPTS,
    CSV_LABEL,
    annotation_cases,
    benchmark_file_cases,
    good_row,
    hostile_test_vector_cases,
)
from strategies.hostile.cases import COUNTING, LIMIT, MARKER, Case
from strategies.hostile.dimacs import dimacs_cases
from strategies.hostile.expressions import expression_cases
from strategies.hostile.programs import program_cases
from strategies.hostile.tasks import GOOD_CNF, task_cases
from strategies.hostile.values import insert_junk, to_yaml

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


MARGIN = 15  # wall-clock allowance over the limit (noisy shared machines): not a performance test
STDERR_CAP = 2000  # characters of stderr at most, whatever the input
LINE_CAP = 500  # characters of one error line at most (values are quoted short)
MEMORY_HEADROOM = 2 << 30  # bytes of address space a forked run may add (protects the machine)
CODES = {0, 1, 2, 3}


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
# Running a case: its files in a fresh working directory, its command line there


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
        files["data.csv"] = insert_junk(b"c1,c2\n0,0\n1,2\n", at, junk)
    elif which == "cnf":
        task = {"concepts": {"c1": [0, 1], "c2": [0, 1]}, "labels": {"y": {"dimacs": "k.cnf"}}}
        files["k.cnf"] = insert_junk(GOOD_CNF, at, junk)
    text = to_yaml(task)
    files["task.yaml"] = insert_junk(text, at, junk) if which == "task" else text
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
            "c1,c2,col,y\n" + "".join(",".join(good_row(i)) + "\n" for i in range(rows))
        ).encode()
    elif which == "jsonl":
        task["support"] = {"file": "data.jsonl"}
        files["data.jsonl"] = "".join(
            json.dumps(dict(zip(["c1", "c2", "col", "y"], good_row(i)))) + "\n" for i in range(rows)
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
    rows = [good_row(i) + [good_row(i)[["c1", "c2", "col", "y"].index(column)]] for i in range(6)]
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
    rows = [dict(zip(["c1", "c2", "col"], good_row(i)[:3])) for i in range(6)]
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
        why = "is one of the inputs" if target == "task.yaml" else "--force"  # an input: even with it
        assert run.code == 2 and why in run.err, run.err


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
    assert status.get("good.yaml") == "passed", f"the good task: {status}\n{what}"
    if alone.code == 2:
        assert status.get("bad.yaml") == "invalid", f"check says invalid, report says {status}\n{what}"
        assert run.code == 2, f"report exits {run.code} with an invalid task\n{what}"
    else:
        assert status.get("bad.yaml") != "invalid", f"check exits {alone.code}, report says {status}\n{what}"


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
