"""The `rscount` command: the paper's figures, JSON fields, support flags, emission, and errors."""

from __future__ import annotations

import importlib
import math
import subprocess
import sys
from itertools import product

import pytest
from references.bruteforce import brute_force_count, brute_force_seen
from support import REPO

from rscount.cli.main import COMMANDS, make_parser
from rscount.cli.options import task_from_args
from rscount.formats import dimacs
from rscount.task.families import random_cnf


@pytest.mark.parametrize(
    ("args", "count"),
    [
        (["xor", "--bits", "3"], 24),
        (["and", "--bits", "3"], 6),
        (["or", "--bits", "3"], 6),
        (["xor", "--bits", "4"], 192),
    ],
)
@pytest.mark.parametrize("method", ["--exact", "--enumerate"])
def test_exhaustive_families_print_the_known_counts(cli, args, count, method):
    run = cli(*args, method)
    assert run.code == 0
    assert run.out.splitlines()[0] == f"optimal concept maps: {count}"
    assert f"reasoning shortcuts: {count - 1}" in run.out


def test_json_has_the_documented_fields(cli):
    record = cli("xor", "--bits", "3", "--exact", "--json").json()
    assert record["task"] == "xor3"
    assert record["count"] == 24 and record["exact"] is True and record["shortcuts"] == 23
    assert record["method"] == "decompose"
    for key in ("seconds", "variables", "clauses"):
        assert record[key] > 0
    assert "epsilon" not in record


def test_approximate_json_states_epsilon_delta_seed(cli):
    record = cli(
        "xor", "--bits", "4", "--approx", "--epsilon", "0.5", "--delta", "0.1", "--seed", "7", "--json"
    ).json()
    assert record["exact"] is False and record["shortcuts"] is None
    assert (record["epsilon"], record["delta"], record["seed"]) == (0.5, 0.1, 7)
    assert 192 / 1.5 <= record["count"] <= 192 * 1.5


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_example_xor3_gives_192_whichever_example(cli, seed):
    record = cli("xor", "--bits", "3", "--examples", "1", "--seed", seed, "--json").json()
    assert record["support_size"] == 1 and record["count"] == 192


def test_fraction_and_examples_pick_the_same_support_size(cli):
    by_fraction = cli("xor", "--bits", "4", "--fraction", "0.25", "--seed", "5", "--json").json()
    by_count = cli("xor", "--bits", "4", "--examples", "4", "--seed", "5", "--json").json()
    assert by_fraction["support_size"] == by_count["support_size"] == 4
    assert by_fraction["count"] == by_count["count"]


def test_full_concept_supervision_leaves_only_the_intended_map(cli):
    record = cli("xor", "--bits", "3", "--concept-sup", "1", "--json").json()
    assert record["supervised"] == 8 and record["count"] == 1 and record["shortcuts"] == 0


def test_auto_says_which_method_it_picked(cli):
    run = cli("and", "--bits", "3")
    assert run.code == 0 and "chosen as:" in run.out


def test_random_cnf_knowledge_is_reproducible_and_counted(cli):
    first = cli("random", "--bits", "4", "--clauses", "3", "--length", "2", "--seed", "3", "--json").json()
    again = cli(
        "random", "--bits", "4", "--clauses", "3", "--length", "2", "--seed", "3", "--exact", "--json"
    ).json()
    clauses = random_cnf(4, 3, 2, seed=3)  # the knowledge the command draws (seed 3)

    def holds(c: tuple) -> int:
        return int(all(any(c[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses))

    expected = brute_force_count([[0, 1]] * 4, holds, list(product((0, 1), repeat=4)), set())
    assert first["support_size"] == 16 and first["count"] == again["count"] == expected


def test_cnf_command_counts_rsbench_and3(cli):
    record = cli("cnf", REPO / "dimacs" / "and3.cnf", "--exact", "--json").json()
    assert record["count"] == 6


@pytest.mark.parametrize(("name", "count"), [("xor3", 24), ("and3", 6), ("mnadd", 2)])
def test_bundled_task_files_count(cli, name, count):
    record = cli("count", REPO / "tasks" / f"{name}.yaml", "--json").json()
    assert record["count"] == count and record["exact"]


def test_mnadd_half_count_matches_hand_derivation(cli):
    # identity and swap each allow 6 x 6 value maps on the seen digits 0-4; the 10 unseen
    # digit values (5-9 of d1, 5-9 of d2) may go anywhere: 72 * 10**10.
    record = cli("count", REPO / "tasks" / "mnadd-half.yaml", "--json").json()
    assert record["count"] == 72 * 10**10


def test_emit_writes_a_counting_ready_dimacs_and_stops(cli, tmp_path):
    out = tmp_path / "xor3.cnf"
    run = cli("xor", "--bits", "3", "--emit", out)
    assert run.code == 0 and "wrote" in run.out and "optimal" not in run.out
    cnf = dimacs.load(out)
    assert len(cnf.projection) == 15
    assert any(name.startswith("P c1 -> c2") for name in cnf.names.values())


def test_emit_with_a_method_also_counts(cli, tmp_path):
    run = cli("xor", "--bits", "3", "--emit", tmp_path / "x.cnf", "--enumerate", "--json")
    assert run.json()["count"] == 24


def test_emit_never_overwrites_without_force(cli, tmp_path):
    out = tmp_path / "mine.cnf"
    out.write_text("precious")
    run = cli("xor", "--bits", "3", "--emit", out)
    assert run.code == 2 and "exists" in run.err and out.read_text() == "precious"
    assert cli("xor", "--bits", "3", "--emit", out, "--force").code == 0
    assert out.read_text().startswith("c ")


def test_emit_ind_writes_the_older_projection_line(cli, tmp_path):
    out = tmp_path / "x.cnf"
    cli("xor", "--bits", "2", "--emit", out, "--ind")
    assert any(line.startswith("c ind ") for line in out.read_text().splitlines())


def test_timeout_stops_a_long_count(cli):
    run = cli("xor", "--bits", "7", "--method", "sdd", "--timeout", "1")
    assert run.code == 3 and "time limit" in run.err


def test_xor8_emission_projects_on_permutation_and_value_map_variables(cli, tmp_path):
    out = tmp_path / "xor8.cnf"
    assert cli("xor", "--bits", "8", "--emit", out).code == 0
    cnf = dimacs.load(out)
    assert sorted(cnf.projection) == list(range(1, 8 * 8 + 8 * 2 + 1))
    assert sum(name.startswith("P ") for name in cnf.names.values()) == 64


def test_approximate_exhaustive_xor6_is_within_epsilon_of_the_closed_form(cli):
    record = cli("xor", "--bits", "6", "--approx", "--json").json()
    exact = math.factorial(6) * 2**5
    assert exact / 1.8 <= record["count"] <= exact * 1.8


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


TASK = """
concepts:
  a: [0, 1]
  b: [0, 1, 2]
labels:
  y: {label}
support: {support}
concept_supervision: {supervision}
"""


def task_file(tmp_path, label="a & Eq(b, 2)", support="exhaustive", supervision="[]"):
    return write(tmp_path, "t.yaml", TASK.format(label=label, support=support, supervision=supervision))


BAD_INPUTS = {
    "malformed yaml": ("count", "concepts: [a: b\n", "invalid YAML"),
    "unknown concept": ("task", dict(label="a & c"), "unknown concept: 'c'"),
    "value outside domain": ("task", dict(support="[[0, 3]]"), "outside its domain"),
    "empty support": ("task", dict(support="[]"), "support is empty"),
    "supervised row not in support": (
        "task",
        dict(support="[[0, 1]]", supervision="[[1, 1]]"),
        "not in the support",
    ),
    "code in an expression": (
        "task",
        dict(label="\"__import__('os').system('echo hacked')\""),
        "function not allowed",
    ),
    "logic on a non-Boolean": ("task", dict(label="And(a, b)"), "needs Boolean arguments"),
    "unknown field": ("count", "concepts: {a: [0, 1]}\nlabels: {y: a}\nsuport: exhaustive\n", "suport"),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS), ids=list(BAD_INPUTS))
def test_bad_task_files_give_one_line_errors_and_exit_2(cli, tmp_path, case):
    kind, spec, expected = BAD_INPUTS[case]
    path = write(tmp_path, "bad.yaml", spec) if kind == "count" else task_file(tmp_path, **spec)
    run = cli("count", path)
    assert run.code == 2
    assert run.out == ""
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rscount: error: ")
    assert str(path) in lines[0] and expected in lines[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p cnf 2 1\n1 -3 0\n", ":2: literal -3 exceeds"),
        ("1 2 0\n", ":1: clause before the 'p cnf' header"),
        ("p cnf 2 2\n1 2 0\n", "declares 2 clauses"),
        ("p cnf 2 1\n1 x 0\n", ":2: 'x' is not an integer"),
        ("p cnf 2 1\n1 2\n", "not terminated"),
        ("p dnf 2 1\n1 2 0\n", ":1: header must be"),
    ],
)
def test_malformed_dimacs_is_rejected_with_its_line(cli, tmp_path, text, expected):
    path = write(tmp_path, "bad.cnf", text)
    run = cli("cnf", path)
    assert run.code == 2 and expected in run.err and str(path) in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_dimacs_with_more_variables_than_concepts_is_rejected(cli, tmp_path):
    path = task_file(tmp_path, label="{dimacs: k.cnf}")
    write(tmp_path, "k.cnf", "p cnf 3 1\n1 3 0\n")
    run = cli("count", path)
    assert run.code == 2


def test_installed_command_prints_no_traceback_on_user_errors(tmp_path):
    missing = tmp_path / "nope.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "rscount.cli", "count", str(missing)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_yaml_python_tags_are_refused_not_executed(cli, tmp_path):
    marker = tmp_path / "ran"
    path = write(tmp_path, "evil.yaml", f"!!python/object/apply:os.system ['touch {marker}']\n")
    run = cli("count", path)
    assert run.code == 2 and "invalid YAML" in run.err and not marker.exists()


def test_unknown_method_is_a_user_error(cli):
    run = cli("xor", "--bits", "2", "--method", "magic")
    assert run.code == 2 and "unknown method 'magic'" in run.err


def sampled_rows(*args: object) -> tuple[list[tuple], set[tuple]]:
    """The support rows and supervised rows the command line draws for these arguments."""
    task = task_from_args(make_parser().parse_args([str(a) for a in args]))
    return list(task.support.rows), set(task.support.supervised)


def test_sampling_a_task_file_draws_from_its_own_support(cli):
    path = REPO / "tasks" / "mnadd-half.yaml"
    record = cli("count", path, "--examples", "3", "--json").json()
    rows, _ = sampled_rows("count", path, "--examples", "3")
    full = [(0, 0), (0, 1), (1, 0), (2, 3), (3, 2), (2, 4), (4, 2)]  # the file's support
    assert record["support_size"] == len(rows) == 3 and set(rows) <= set(full)
    assert record["count"] == brute_force_seen([range(10)] * 2, sum, rows, set())


def test_sampling_a_supervised_task_keeps_supervision_on_the_rows_it_keeps(cli, tmp_path):
    path = task_file(tmp_path, label="a & Eq(b, 2)", supervision="[[0, 0], [1, 2]]")
    domains = [[0, 1], [0, 1, 2]]

    def label(c: tuple) -> int:
        return int(c[0] == 1 and c[1] == 2)

    for seed in range(1, 6):
        record = cli("count", path, "--examples", "2", "--seed", seed, "--enumerate", "--json").json()
        rows, supervised = sampled_rows("count", path, "--examples", "2", "--seed", seed)
        assert supervised == {(0, 0), (1, 2)} & set(rows)  # the file's supervision, on the rows kept
        assert record["support_size"] == 2 and record["supervised"] == len(supervised)
        assert record["count"] == brute_force_count(domains, label, rows, supervised)
        full = cli("count", path, "--examples", "2", "--seed", seed, "--concept-sup", "1", "--json").json()
        assert full["count"] == brute_force_count(domains, label, rows, set(rows)) <= record["count"]


def test_time_limit_covers_encoding_too(cli):
    run = cli("xor", "--bits", "12", "--approx", "--timeout", "0.5")
    assert run.code == 3 and "time limit" in run.err


def test_supports_too_large_to_encode_are_refused_with_advice(cli):
    run = cli("xor", "--bits", "20", "--method", "sdd")
    assert run.code == 2 and "--fraction" in run.err and "1048576" in run.err


def test_exhaustive_xor_20_is_answered_exactly_by_the_closed_form(cli):
    record = cli("xor", "--bits", "20", "--json").json()
    assert record["count"] == math.factorial(20) * 2**19 and record["exact"]
    assert record["method"] == "closed-form" and record["count_expression"] == "20! * 524288"


@pytest.mark.parametrize(("kind", "expected"), [("xor", 65536), ("and", 823543)])
def test_joint_mode_prints_the_corrected_eq_7_count(cli, kind, expected):
    run = cli(kind, "--bits", "3", "--mode", "joint")
    assert run.code == 0 and run.out.splitlines()[0] == f"optimal concept maps: {expected}"


def test_joint_mode_cnf_counts_like_the_closed_form(cli, tmp_path):
    for method in ("--enumerate", "--exact", "--closed-form"):
        assert cli("xor", "--bits", "2", "--mode", "joint", method, "--json").json()["count"] == 16
    out = tmp_path / "joint.cnf"
    assert cli("xor", "--bits", "2", "--mode", "joint", "--emit", out).code == 0
    assert "c p show" in out.read_text() and "A [0, 1] -> [1, 0]" in out.read_text()


def test_counts_too_long_to_print_are_given_by_their_exact_expression(cli):
    record = cli("xor", "--bits", "20", "--mode", "joint", "--json").json()
    assert record["count"] is None and record["count_expression"] == "524288^1048576"
    assert record["count_digits"] == math.floor(19 * 2**20 * math.log10(2)) + 1
    text = cli("xor", "--bits", "20", "--mode", "joint").out
    assert text.startswith("optimal concept maps: 524288^1048576 (5997404 digits)")


def test_counts_beyond_python_default_digit_limit_print_in_full(cli):
    run = cli("xor", "--bits", "11", "--mode", "joint", "--json")
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # Python's own JSON reader needs it for ints of > 4300 digits
    try:
        record = run.json()
    finally:
        sys.set_int_max_str_digits(limit)
    assert record["count"] == 1024**2048 and record["count_digits"] == 6166


def test_closed_form_flag_fails_with_the_reason_when_none_applies(cli):
    run = cli("xor", "--bits", "4", "--examples", "3", "--closed-form")
    assert run.code == 2 and "no closed form applies" in run.err and "not one" in run.err


def test_each_command_is_listed_with_the_module_that_handles_it():
    for name, commands in COMMANDS.items():
        module = importlib.import_module(f"rscount.cli.{name}")
        assert set(commands) == set(module.HANDLERS), name


def test_a_command_loads_only_its_own_module_and_an_unknown_one_gets_the_usual_error():
    script = (
        "import sys; from rscount.cli import main; code = main(['xor', '--bits', '3', '--exact']); "
        "print(code, sorted(m for m in sys.modules if m.startswith(('rscount.cli.', 'rscount.insight.'))))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    code, modules = run.stdout.splitlines()[-1].split(" ", 1)
    assert code == "0" and "rscount.cli.count" in modules
    assert "rscount.cli.advise" not in modules and "rscount.insight.advise" not in modules
    unknown = subprocess.run(
        [sys.executable, "-m", "rscount", "frobnicate"], capture_output=True, text=True, check=False
    )
    assert unknown.returncode == 2 and "invalid choice: 'frobnicate'" in unknown.stderr
    assert "advise" in unknown.stderr  # the choices of every module


def test_advise_verifies_a_program_task_without_reading_its_program_again(cli, monkeypatch):
    """The task is read in a child process under --timeout; the programs it read come back with it,
    so the verifying recount (which reads the modified task file) does not run clingo again here."""
    from rscount.formats import programs

    read_here: list[str] = []
    reader = programs._read

    def recorded(path, text, query):
        read_here.append(str(path))
        return reader(path, text, query)

    monkeypatch.setattr(programs, "_read", recorded)
    monkeypatch.setattr(programs, "_kept", {})
    run = cli("advise", REPO / "tasks" / "neurasp-member3.yaml", "--timeout", "120")
    assert run.code == 0, run.err
    assert "verified: the modified task, written as a task file and read back, counts 1" in run.out
    assert read_here == []
