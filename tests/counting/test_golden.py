"""Golden counts of the public rsbench countrss script, and the paper's figures, through the package API.

Every exact backend must reproduce every golden count, the independent brute force
(tests/references/bruteforce.py) must agree, and ApproxMC must stay within its (epsilon) bound.
"""

from __future__ import annotations

import json
from itertools import product

import pytest
from references.bruteforce import brute_force_count
from support import OPTIONS, REPO, backend_result

from rscount.counting.methods import BACKENDS
from rscount.task.families import builtin_task

GOLDEN = REPO / "tests" / "data" / "reference_counts.json"
CASES = json.loads(GOLDEN.read_text())["cases"]
EXACT_BACKENDS = ("sdd", "enumerate", "decompose")


def test_golden_file_is_complete() -> None:
    assert len(CASES) == 77
    assert len({c["id"] for c in CASES}) == len(CASES)


# ---------------------------------------------------------------------------------------------
# Helpers: the case's task through the package API, and an independent label function.


def n_concepts(case: dict) -> int:
    return len(case["domain_sizes"])


def supervised_rows(case: dict) -> list[list[int]]:
    return [row for row, flag in zip(case["support"], case["concept_supervised"]) if flag]


def task_of(case: dict):
    """The case as an rscount Task (built-in XOR, or CNF knowledge for 'cnf' and 'random')."""
    assert set(case["domain_sizes"]) == {2}, "golden cases are Boolean"
    assert case["n_objects"] == 1 and not case["joint_knowledge"]
    kind = case["task"]["kind"]
    clauses = None if kind == "xor" else case["task"]["clauses"]
    if clauses is not None:
        assert case["task"]["n_variables"] == n_concepts(case)
    return builtin_task(
        kind, n_concepts(case), case["support"], supervised_rows(case) or None, clauses=clauses
    )


def label_fn_of(case: dict):
    """The knowledge of a case as a plain Python function of a 0/1 vector (no rscount)."""
    if case["task"]["kind"] == "xor":
        return lambda c: sum(c) % 2
    clauses = case["task"]["clauses"]
    return lambda c: int(all(any(c[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses))


def count(backend: str, task) -> int:
    result = backend_result(backend, task)
    assert result.exact == (backend != "approxmc")
    return result.count


def within_epsilon(estimate: int, exact: int, eps: float = OPTIONS.epsilon) -> bool:
    return exact / (1 + eps) <= estimate <= exact * (1 + eps)


def test_backends_are_discovered() -> None:
    assert {"sdd", "enumerate", "approxmc", "decompose"} <= set(BACKENDS)


# ---------------------------------------------------------------------------------------------
# The 77 golden cases.

by_id = pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])


@by_id
def test_golden_labels(case: dict) -> None:
    task = task_of(case)
    assert [c.name for c in task.concepts] == [f"c{i}" for i in range(1, n_concepts(case) + 1)]
    assert task.support.rows == tuple(tuple(r) for r in case["support"])
    assert task.support.supervised == frozenset(tuple(r) for r in supervised_rows(case))
    computed = [task.label_of(row) for row in case["support"]]
    assert computed == [(y,) for y in case["labels"]]
    # The independent label function used by the brute force agrees with the file too.
    assert [label_fn_of(case)(tuple(r)) for r in case["support"]] == case["labels"]


@by_id
def test_golden_brute_force(case: dict) -> None:
    domains = [list(range(n)) for n in case["domain_sizes"]]
    support = [tuple(r) for r in case["support"]]
    supervised = {tuple(r) for r in supervised_rows(case)}
    assert brute_force_count(domains, label_fn_of(case), support, supervised) == case["count"]


@by_id
@pytest.mark.parametrize("backend", EXACT_BACKENDS)
def test_golden_exact(case: dict, backend: str) -> None:
    assert count(backend, task_of(case)) == case["count"]


@by_id
def test_golden_approxmc_within_epsilon(case: dict) -> None:
    estimate = count("approxmc", task_of(case))
    assert within_epsilon(estimate, case["count"]), (estimate, case["count"])


# ---------------------------------------------------------------------------------------------
# The paper's figures (3 binary concepts), by name.

ROWS3 = [list(r) for r in product((0, 1), repeat=3)]
XOR3 = lambda c: sum(c) % 2  # noqa: E731
AND3 = lambda c: int(all(c))  # noqa: E731


def check_all_ways(task, label_fn, expected: int) -> None:
    """sdd, enumerate and the brute force give `expected`; approxmc is within epsilon."""
    for backend in EXACT_BACKENDS:
        assert count(backend, task) == expected, backend
    domains = [list(c.values) for c in task.concepts]
    assert brute_force_count(domains, label_fn, task.support.rows, set(task.support.supervised)) == expected
    estimate = count("approxmc", task)
    assert within_epsilon(estimate, expected), (estimate, expected)


def test_paper_xor3_exhaustive_24() -> None:
    task = builtin_task("xor", 3, "exhaustive")
    assert task.support.size == 8
    check_all_ways(task, XOR3, 24)


@pytest.mark.parametrize("example", ROWS3, ids=["".join(map(str, r)) for r in ROWS3])
def test_paper_xor3_one_example_192(example: list[int]) -> None:
    check_all_ways(builtin_task("xor", 3, [example]), XOR3, 192)


def test_paper_and3_exhaustive_6() -> None:
    check_all_ways(builtin_task("and", 3, "exhaustive"), AND3, 6)


def test_paper_and3_one_positive_example_48() -> None:
    check_all_ways(builtin_task("and", 3, [[1, 1, 1]]), AND3, 48)


NEGATIVES3 = [r for r in ROWS3 if r != [1, 1, 1]]


@pytest.mark.parametrize("example", NEGATIVES3, ids=["".join(map(str, r)) for r in NEGATIVES3])
def test_paper_and3_one_negative_example_336(example: list[int]) -> None:
    check_all_ways(builtin_task("and", 3, [example]), AND3, 336)
