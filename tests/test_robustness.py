"""Hostile and malformed input: one line and exit 2 for what is wrong, exit 3 for what is too big or
too slow, never a traceback, and nothing overwritten (issue 16's reproductions, one test each)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
import yaml
from support import REPO

from rscount.counting.processes.isolation import run_stoppable
from rscount.counting.settings import CountSettings
from rscount.errors import CapExceeded, InvalidSetting, LimitReached, MemoryLimitExceeded, TaskError
from rscount.formats.inputs import load_yaml
from rscount.limits import number_text
from rscount.task.expressions import evaluate, parse

GOOD = "concepts:\n  a: [0, 1]\n  b: [0, 1]\nlabels:\n  y: a ^ b\nsupport: exhaustive\n"


def write(directory: Path, name: str, text: str | bytes) -> Path:
    path = directory / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def one_line_error(run, code: int) -> str:
    assert run.code == code, (run.code, run.out, run.err)
    assert "Traceback" not in run.err + run.out
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rscount: error: "), run.err
    assert len(lines[0]) < 400
    return lines[0]


def boolean_task(n: int, label: str, support: str) -> str:
    names = "\n".join(f"  c{i}: [0, 1]" for i in range(n))
    return f"concepts:\n{names}\nlabels:\n  y: {label}\nsupport: {support}\n"


# Tracebacks before: each of these is now one line naming where.


def test_a_task_file_that_is_not_utf8_is_one_line_exit_2(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD.encode() + b"# \xff\xfe\n")
    assert "not a UTF-8 text file" in one_line_error(cli("count", path, "-q"), 2)


def test_a_csv_cell_that_is_not_utf8_is_one_line_exit_2(cli, tmp_path):
    write(tmp_path, "rows.csv", b"a,b\n0,\xff\n")
    path = write(tmp_path, "t.yaml", GOOD.replace("exhaustive", "{file: rows.csv}"))
    assert "rows.csv: not a UTF-8 text file" in one_line_error(cli("count", path, "-q"), 2)


def test_an_infinite_sample_is_refused(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD.replace("exhaustive", "{sample: .inf}"))
    assert "support: sample amount must be a positive number, got inf" in one_line_error(
        cli("count", path, "-q"), 2
    )


def test_examples_are_drawn_from_a_space_of_more_than_2_to_the_63_vectors(tmp_path):
    from rscount.knowledge.loading import load_task

    task = load_task(write(tmp_path, "t.yaml", boolean_task(70, "c0 & c1", "{examples: 5, seed: 3}")))
    assert len(task.support.rows) == 5 and len(set(task.support.rows)) == 5
    assert load_task(tmp_path / "t.yaml").support.rows == task.support.rows  # the seed fixes the draw


def test_ten_thousand_negations_are_one_line_exit_2(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD.replace("a ^ b", "~" * 10_000 + "a"))
    assert "labels.y: expression nested too deeply" in one_line_error(cli("count", path, "-q"), 2)


# PyYAML with libyaml and without (libyaml 0.2.6 refuses past 1000 levels by itself, 0.2.5 does not)
YAML_LOADERS = [
    pytest.param(yaml.SafeLoader, id="python-parser"),
    pytest.param(
        getattr(yaml, "CSafeLoader", None),
        id="libyaml-parser",
        marks=pytest.mark.skipif(not yaml.__with_libyaml__, reason="this PyYAML was built without libyaml"),
    ),
]


@pytest.mark.parametrize("loader", YAML_LOADERS)
def test_yaml_nested_thousands_deep_is_refused_at_once_by_its_cap(cli, tmp_path, monkeypatch, loader):
    monkeypatch.setattr("rscount.formats.inputs.SAFE_LOADER", loader)
    path = write(tmp_path, "t.yaml", GOOD + "extra: " + "[" * 5000 + "]" * 5000 + "\n")
    line = one_line_error(cli("count", path, "-q", "--timeout", "60"), 3)
    assert "levels of nesting in a YAML document" in line and "RSCOUNT_MAX_YAML_DEPTH" in line


@pytest.mark.parametrize("loader", YAML_LOADERS)
def test_yaml_nesting_under_a_raised_cap_reads_alike_on_both_parsers(monkeypatch, loader):
    monkeypatch.setenv("RSCOUNT_MAX_YAML_DEPTH", "100000")
    value: list = []
    for _ in range(149):
        value = [value]
    assert load_yaml("a: " + "[" * 150 + "]" * 150 + "\n", "t.yaml", loader) == {"a": value}


def test_yaml_nested_past_the_python_parsers_stack_is_a_limit_not_a_recursion_error(monkeypatch):
    monkeypatch.setenv("RSCOUNT_MAX_YAML_DEPTH", "100000")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default (importing problog raises it to 10000)
    try:
        with pytest.raises(LimitReached, match="t.yaml: YAML nested too deeply for the reader's stack"):
            load_yaml("a: " + "[" * 1500 + "]" * 1500 + "\n", "t.yaml", yaml.SafeLoader)
    finally:
        sys.setrecursionlimit(limit)


def test_a_huge_dimacs_header_is_refused_before_allocating(cli, tmp_path):
    for header in ("p cnf 100000 1", "p cnf 99999999999 1"):
        path = write(tmp_path, "k.cnf", f"{header}\n1 2 0\n")
        start = time.monotonic()
        line = one_line_error(cli("cnf", path, "-q"), 3)
        assert time.monotonic() - start < 10
        assert "over the cap of 10000" in line and "RSCOUNT_MAX_CONCEPTS" in line


def test_a_cap_can_be_raised_by_its_environment_variable(monkeypatch):
    from rscount.limits import CONCEPTS

    CONCEPTS.check(10_000, "here")
    with pytest.raises(CapExceeded, match="10001 concepts, over the cap of 10000"):
        CONCEPTS.check(10_001, "here")
    monkeypatch.setenv("RSCOUNT_MAX_CONCEPTS", "20000")
    CONCEPTS.check(10_001, "here")


def test_numbers_too_long_to_print_are_named_by_their_digits():
    assert number_text(2**100) == str(2**100)
    assert number_text(3**10_000) == "a 4772-digit number"
    assert number_text(10**40, 40) == "a 41-digit number"


@pytest.mark.parametrize(
    "args",
    [
        ("report", "{dir}", "--junit", "/nonexistent/x.xml"),
        ("list", "{dir}", "--markdown", "/nonexistent/x.md"),
    ],
)
def test_an_output_in_a_missing_directory_is_one_line_exit_2(cli, tmp_path, args):
    write(tmp_path, "t.yaml", GOOD)
    line = one_line_error(cli(*(a.format(dir=tmp_path) for a in args)), 2)
    assert "no directory '/nonexistent' to write into" in line


def test_a_nan_timeout_is_refused_and_an_infinite_one_is_no_limit(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD)
    assert "--timeout: must be a positive number of seconds, not nan" in one_line_error(
        cli("count", path, "--timeout", "nan"), 2
    )
    assert cli("count", path, "--timeout", "inf", "--json").json()["count"] == 4  # 2! * 2 (XOR-2)
    assert CountSettings(timeout=float("inf"), memory=float("inf")).limited is False
    with pytest.raises(InvalidSetting, match="memory: must be a positive number of GB"):
        CountSettings(memory=0)


# One bad file does not end a report: it is that task's error row in every format.


def test_report_marks_exactly_the_hostile_files_and_writes_every_format(cli, tmp_path):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    write(tasks, "good.yaml", GOOD + "expect:\n  count: 4\n")
    hostile = {
        "bytes.yaml": GOOD.encode() + b"\xff",
        "inf.yaml": GOOD.replace("exhaustive", "{sample: .inf}"),
        "tilde.yaml": GOOD.replace("a ^ b", "~" * 10_000 + "a"),
        "power.yaml": GOOD.replace("a ^ b", "(a + 2) ** 99999999 == 3"),
        "dup.yaml": GOOD.replace("  b: [0, 1]\n", "  b: [0, 1]\n  a: [0, 1, 2]\n"),
    }
    for name, text in hostile.items():
        write(tasks, name, text)
    out = {kind: tmp_path / f"report.{kind}" for kind in ("md", "json", "xml")}
    run = cli(
        "report",
        tasks,
        "--timeout",
        "20",
        "-q",
        "--markdown",
        out["md"],
        "--json",
        out["json"],
        "--junit",
        out["xml"],
    )
    assert run.code == 2 and "Traceback" not in run.err + run.out
    assert all(path.exists() for path in out.values())
    entries = {e["file"]: e for e in json.loads(out["json"].read_text())["tasks"]}
    assert entries["good.yaml"]["status"] == "passed"
    assert {name for name, e in entries.items() if e["status"] == "invalid"} == set(hostile)
    assert out["xml"].read_text().count("<failure") + out["xml"].read_text().count("<error") == len(hostile)


# The time limit covers reading and compiling, and a memory limit holds.


def test_check_stops_at_the_time_limit_while_reading_a_task(cli, tmp_path):
    path = write(tmp_path, "t.yaml", boolean_task(30, "c0 & c1", "{examples: 1000000, seed: 1}"))
    start = time.monotonic()
    run = cli("check", path, "--timeout", "1", "-q")
    assert run.code == 3 and "reading t.yaml: stopped after the time limit of 1 s" in run.out
    assert time.monotonic() - start < 15  # the limit holds: reading alone takes about 40 s


def test_a_power_with_a_huge_result_is_refused_before_computing_it(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD.replace("a ^ b", "(a + 2) ** 99999999 == 3"))
    for command in ("count", "check"):
        start = time.monotonic()
        run = cli(command, path, "-q", "--timeout", "30")
        assert run.code == 2 and "has over 4096 bits" in run.err + run.out
        assert time.monotonic() - start < 10


def test_a_domain_over_the_cap_is_refused(cli, tmp_path):
    text = f"concepts:\n  a: {list(range(2000))}\n  b: [0, 1]\nlabels:\n  y: a == b\nsupport: exhaustive\n"
    line = one_line_error(cli("count", write(tmp_path, "t.yaml", text), "-q"), 3)
    assert "concepts.a: 2000 values in one concept's domain, over the cap of 1000" in line


def test_the_memory_limit_stops_the_work_and_says_so(cli, tmp_path):
    def hog() -> None:
        grown = []
        while True:
            grown.append(bytearray(10**7))

    with pytest.raises(MemoryLimitExceeded, match="hog: stopped at the memory limit of 0.3 GB"):
        run_stoppable(hog, memory=0.3, timeout=60, what="hog")
    run = cli("xor", "--bits", "12", "--method", "decompose", "--memory", "0.001", "-q")
    assert "stopped at the memory limit of 0.001 GB" in one_line_error(run, 3)


def test_a_memory_error_in_the_work_is_the_memory_limit():
    def huge() -> bytearray:
        return bytearray(10**14)

    with pytest.raises(MemoryLimitExceeded):
        run_stoppable(huge, memory=1, what="huge")


# Bounded echo.


def test_an_alias_bomb_is_refused_with_a_short_message(cli, tmp_path):
    bomb = "".join(
        f"  {name}: &{name} [{', '.join([f'*{prev}' if prev else 'x'] * 9)}]\n"
        for prev, name in zip(["", *"abcdefgh"], "abcdefghi")
    )
    line = one_line_error(cli("count", write(tmp_path, "t.yaml", GOOD + "expect:\n" + bomb), "-q"), 3)
    assert "YAML nodes once aliases are expanded" in line


def test_a_long_syntax_error_is_quoted_short(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD.replace("a ^ b", "a & b " * 10_000 + ")"))
    line = one_line_error(cli("count", path, "-q"), 2)
    assert "syntax error in 'a & b a & b" in line and len(line) < 250


# No output overwrites another.


def test_two_outputs_on_one_path_are_refused_before_any_work(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD)
    same = tmp_path / "o.out"
    line = one_line_error(cli("report", path, "--markdown", same, "--json", same), 2)
    assert "also the markdown output" in line and not same.exists()
    plot = tmp_path / "s.png"
    line = one_line_error(cli("sweep", path, "--csv", plot, "--plot", plot, "--fractions", "1"), 2)
    assert "also the csv output" in line and not plot.exists()


def test_emit_onto_a_directory_says_so(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD)
    assert "is a directory" in one_line_error(cli("count", path, "--emit", tmp_path), 2)


# Accepted before, refused now.


@pytest.mark.parametrize(
    "text, where",
    [
        (GOOD.replace("  b: [0, 1]\n", "  b: [0, 1]\n  a: [0, 1, 2]\n"), "t.yaml:4: duplicate key 'a'"),
        (GOOD.replace("  y: a ^ b\n", "  y: a ^ b\n  y: a & b\n"), "t.yaml:6: duplicate key 'y'"),
        (GOOD + "expect:\n  count: 4\nexpect:\n  count: 5\n", "t.yaml:9: duplicate key 'expect'"),
    ],
)
def test_duplicate_yaml_keys_are_refused_with_their_line(cli, tmp_path, text, where):
    assert where in one_line_error(cli("count", write(tmp_path, "t.yaml", text), "-q"), 2)


def test_a_control_character_in_a_task_file_is_refused_naming_it(cli, tmp_path):
    path = write(tmp_path, "t.yaml", GOOD.replace("exhaustive", "exhaustive\x00"))
    said = one_line_error(cli("count", path, "-q"), 2)
    assert "t.yaml: invalid YAML: unacceptable character #x0000" in said


def test_the_fast_yaml_loader_reads_every_library_task_as_the_python_one():
    for path in sorted((REPO / "tasks").glob("*.yaml")):
        text = path.read_text()
        assert load_yaml(text, path.name) == yaml.load(text, Loader=yaml.SafeLoader), path.name


def test_duplicate_csv_columns_are_refused(cli, tmp_path):
    write(tmp_path, "rows.csv", "a,a,b\n0,1,1\n")
    path = write(tmp_path, "t.yaml", GOOD.replace("exhaustive", "{file: rows.csv}"))
    assert "rows.csv:1: column 'a' appears twice" in one_line_error(cli("count", path, "-q"), 2)


def test_duplicate_json_keys_are_refused(cli, tmp_path):
    write(tmp_path, "rows.jsonl", '{"a": 0, "a": 1, "b": 1}\n')
    path = write(tmp_path, "t.yaml", GOOD.replace("exhaustive", "{file: rows.jsonl}"))
    assert "rows.jsonl:1: invalid JSON: key 'a' appears twice" in one_line_error(cli("count", path, "-q"), 2)


def test_a_csv_with_a_byte_order_mark_reads_its_first_column(cli, tmp_path):
    write(tmp_path, "rows.csv", "\ufeffa,b\n0,1\n".encode())
    path = write(tmp_path, "t.yaml", GOOD.replace("exhaustive", "{file: rows.csv}"))
    assert (
        cli("count", path, "--json").json()["count"] == 16
    )  # one example: k! * b^(k(b-1)) * |E| = 2 * 4 * 2


@pytest.mark.parametrize(
    "domain, row, message",
    [
        ("[0, 1, 2]", "[true]", "support[0]: c is true, but its domain [0, 1, 2] is not Boolean"),
        ("[0, true, 2]", "[2]", "concepts.c: true and false are values of Boolean domains only"),
    ],
)
def test_booleans_are_values_of_boolean_domains_only(cli, tmp_path, domain, row, message):
    text = f"concepts:\n  c: {domain}\nlabels:\n  y: c == 2\nsupport: [{row}]\n"
    assert message in one_line_error(cli("count", write(tmp_path, "t.yaml", text), "-q"), 2)


def test_booleans_stay_values_of_boolean_domains(cli, tmp_path):
    text = (
        "concepts:\n  c: [false, true]\n  d: [0, 1]\nlabels:\n  y: c & d\nsupport: [[true, false], [0, 1]]\n"
    )
    as_ints = text.replace("[false, true]", "[0, 1]").replace("[[true, false]", "[[1, 0]")
    counts = [
        cli("count", write(tmp_path, name, t), "--json").json()["count"]
        for name, t in (("b.yaml", text), ("i.yaml", as_ints))
    ]
    assert counts[0] == counts[1]


# Refused before, accepted now.


@pytest.mark.parametrize("op, fn", [("|", any), ("&", all), ("^", lambda xs: sum(xs) % 2), ("+", sum)])
def test_a_flat_chain_of_a_thousand_operands_parses_as_one_operator(op, fn):
    names = [f"c{i}" for i in range(1000)]
    expr = parse(f" {op} ".join(names), names)
    assert len(expr.args) == 1000
    for ones in ({0, 999}, set(range(1000)), set()):
        values = {n: int(i in ones) for i, n in enumerate(names)}
        assert evaluate(expr, values) == int(fn([values[n] for n in names]))


def test_nesting_past_the_cap_is_refused_by_name():
    with pytest.raises(CapExceeded, match="201 levels of nesting in an expression, over the cap of 200"):
        parse("-" * 250 + "a", ["a"])
    with pytest.raises(TaskError, match="nested too deeply"):
        parse("~" * 10_000 + "a", ["a"])


def _die_on_two(n: int) -> int:
    if n == 2:
        os._exit(1)  # a crash in C code looks like this to the pool
    return n * 10


def test_a_worker_that_dies_costs_only_its_own_item():
    from rscount.counting.processes.parallel import run_jobs

    assert run_jobs(_die_on_two, [1, 2, 3, 4], jobs=2, crashed=lambda n: -n) == [10, -2, 30, 40]


def test_report_survives_a_task_whose_process_dies(monkeypatch, tmp_path):
    from rscount.report import batch

    for name in ("a.yaml", "b.yaml"):
        write(tmp_path, name, GOOD)
    real = batch.judge_file

    def crash_on_b(path, *args):
        if path.name == "b.yaml":
            os._exit(1)
        return real(path, *args)

    monkeypatch.setattr(batch, "judge_file", crash_on_b)
    entries = batch.count_files(sorted(tmp_path.glob("*.yaml")), CountSettings(timeout=30), jobs=2)
    assert [e.status for e in entries] == ["shortcuts", "invalid"]
    assert entries[1].failure is not None
    assert entries[1].failure.message == "internal error: the process counting it died"


def test_user_text_in_messages_stays_on_one_short_line():
    from rscount.errors import short

    assert short("a\nb\x00c") == "a\\nb\\x00c"
    assert short("x" * 80) == "x" * 80
    assert short("x" * 10_000) == "x" * 77 + "..."


# What a reader's library raises, a child's crash and a bug: one line each (issue 56).

PROGRAM_TASK = "program: kb.pl\nquery: q(X)\n"


@pytest.mark.parametrize(
    ("program", "said"),
    [
        ("0.5::a.\nq(X) :- a, X is 2.0**100000.\n", "kb.pl: cannot be read (OverflowError"),
        ("nn(net, [X], Y, 5) :: d(X, Y).\nq(Y) :- d(x, Y).\n", "kb.pl: cannot be read (ValueError"),
    ],
)
def test_an_exception_of_problog_is_the_programs_one_line_error(cli, tmp_path, program, said):
    write(tmp_path, "kb.pl", program)
    line = one_line_error(cli("count", write(tmp_path, "t.yaml", PROGRAM_TASK), "-q"), 2)
    assert f"t.yaml: program: {said}" in line


def _count(cli, path) -> int:
    run = cli("count", path, "--json", "-q")
    assert run.code in (0, 1), run.err
    return int(json.loads(run.out)["count"])


def test_integers_past_int64_count_as_small_ones_do(cli, tmp_path):
    """A program's answer and a concept's value beyond numpy's int64: counted with Python's
    integers, the same as the task with small numbers in their place."""
    answers = "0.5::a.\n0.4::b.\nq(X) :- a, b, X is {big}.\nq(X) :- a, \\+b, X is {big} + 1.\n"
    counts = []
    for big in (10**30, 7):
        write(tmp_path, "kb.pl", answers.format(big=big))
        counts.append(_count(cli, write(tmp_path, "t.yaml", PROGRAM_TASK)))
    assert counts[0] == counts[1] and counts[0] > 1
    domain = "concepts: {{a: [0, 3, {big}], b: [0, 1]}}\nlabels: {{y: (a > 2) & b, z: a + b}}\n"
    assert _count(cli, write(tmp_path, "d.yaml", domain.format(big=10**30))) == _count(
        cli, write(tmp_path, "d.yaml", domain.format(big=9))
    )


def test_clingos_messages_are_one_line_naming_the_programs_line(tmp_path):
    import subprocess
    import sys

    write(tmp_path, "kb.lp", "nn(d(1, T), [0, 1]) :- t(T).\nt(a).\n" + "q(X) :- d(0, a, Y).\n" * 500)
    path = write(tmp_path, "t.yaml", "program: kb.lp\nquery: q(X)\n")
    run = subprocess.run(
        [sys.executable, "-m", "rscount", "count", str(path), "-q"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr[:500]
    assert "program: kb.lp:3: clingo could not ground it (error: unsafe variables in" in run.stderr


def test_clevr_scene_json_refuses_duplicate_keys(cli, tmp_path):
    write(tmp_path, "s.json", '{"scenes": [{"objects": [{"color": "red", "color": "blue"}]}]}')
    task = "objects:\n  count: 1\n  attributes: {color: [red, blue]}\nlabels: {y: color_1 == 'red'}\n"
    path = write(tmp_path, "t.yaml", task + "support: {file: s.json}\n")
    assert "s.json: invalid JSON: key 'color' appears twice" in one_line_error(cli("count", path, "-q"), 2)


def _die_by(signal_number: int) -> None:
    import faulthandler

    faulthandler.disable()  # pytest's handler would print the crashing child's stack on stderr
    os.kill(os.getpid(), signal_number)


def test_a_child_killed_by_a_crash_is_a_crash_not_the_memory_limit():
    import signal

    from rscount.errors import InternalError

    for memory in (None, 3.0):
        with pytest.raises(InternalError, match=r"internal error: checking crashed \(SIGSEGV\)"):
            run_stoppable(_die_by, signal.SIGSEGV, what="checking", memory=memory)
    with pytest.raises(MemoryLimitExceeded):  # the kernel's out-of-memory killer sends SIGKILL
        run_stoppable(_die_by, signal.SIGKILL, what="checking", memory=3.0)


def test_a_bug_is_one_line_exit_4_with_its_traceback_on_request(cli, monkeypatch, tmp_path):
    from rscount.cli import count

    def broken(args):
        raise KeyError("no such thing")

    monkeypatch.setattr(count, "HANDLERS", {name: broken for name in count.HANDLERS})
    path = write(tmp_path, "t.yaml", GOOD)
    line = one_line_error(cli("count", path, "-q"), 4)
    assert (
        line == "rscount: error: internal error: KeyError: 'no such thing' (please report it with the task)"
    )
    monkeypatch.setenv("RSCOUNT_DEBUG", "1")
    run = cli("count", path, "-q")
    assert run.code == 4 and "Traceback" in run.err and "no such thing" in run.err
