"""The permutation decomposition: its classes partition the permutations, the symmetries it uses
are real ones, and it counts what the other exact methods count."""

from __future__ import annotations

import math
from itertools import permutations, product

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies.randomtasks import SETTINGS, Spec, grouped_specs, specs, symmetric_specs
from support import REPO, backend_count, backend_result

from rscount.counting.budget import Budget, TooManyClasses
from rscount.counting.engines.class_search import permutations as permutation_classes
from rscount.counting.engines.class_search.permutations import Walk, classes
from rscount.counting.engines.class_search.pruning import PRUNE_ROWS, pruning_task
from rscount.counting.settings import CountSettings
from rscount.encoding.modes import encode
from rscount.encoding.value_codes import ValueMapCoding, conjoin_order
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.knowledge.symmetry import interchangeable_blocks, interchangeable_families, support_blocks
from rscount.task.families import builtin_task, random_cnf


def partition(k: int, cuts: list[int]) -> list[list[int]]:
    """Blocks of 0..k-1 cut at the given positions."""
    edges = [0, *sorted(set(c for c in cuts if 0 < c < k)), k]
    return [list(range(a, b)) for a, b in zip(edges, edges[1:])]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.lists(st.integers(1, 5), max_size=4), st.lists(st.integers(1, 5), max_size=4))
def test_classes_cover_every_permutation_once(k, in_cuts, out_cuts):
    inputs, outputs = partition(k, in_cuts), partition(k, out_cuts)
    found = list(classes(inputs, outputs, lambda placed: True))
    assert sum(size for _, size in found) == math.factorial(k)
    block_in = {i: a for a, b in enumerate(inputs) for i in b}
    block_out = {j: b for b, m in enumerate(outputs) for j in m}

    def signature(pi):
        return sorted((block_in[i], block_out[j]) for i, j in enumerate(pi))

    seen = {tuple(signature(pi)): size for pi, size in found}
    assert len(seen) == len(found)  # one representative per class
    members = {}
    for pi in permutations(range(k)):
        key = tuple(signature(pi))
        members[key] = members.get(key, 0) + 1
    assert members == seen  # sizes are the true class sizes


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 2), st.integers(2, 3), st.integers(0, 1))
def test_classes_with_block_families_cover_every_permutation_once(size, count, rest):
    """Output blocks 0..count-1 all of `size` form one family (exchangeable as wholes), then `rest`
    singleton blocks; inputs are singletons: each orbit of the full symmetry group once."""
    k = size * count + rest
    outputs = [list(range(b * size, (b + 1) * size)) for b in range(count)]
    outputs += [[size * count + r] for r in range(rest)]
    found = list(classes([[i] for i in range(k)], outputs, lambda placed: True, [list(range(count))]))
    block_out = {j: b for b, m in enumerate(outputs) for j in m}

    def signature(pi):  # which inputs share a family block, and where the singletons go
        groups = {}
        for i, j in enumerate(pi):
            groups.setdefault(block_out[j] if block_out[j] < count else ("single", block_out[j]), []).append(
                i
            )
        return frozenset(tuple(g) if isinstance(b, int) else (b, tuple(g)) for b, g in groups.items())

    assert len({signature(pi) for pi, _ in found}) == len(found)
    assert sum(size_ for _, size_ in found) == math.factorial(k)
    members = {}
    for pi in permutations(range(k)):
        members[signature(pi)] = members.get(signature(pi), 0) + 1
    assert members == {signature(pi): size_ for pi, size_ in found}


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(1, 5),
    in_cuts=st.lists(st.integers(1, 4), max_size=3),
    out_cuts=st.lists(st.integers(1, 4), max_size=3),
    seed=st.integers(0, 2**16),
    families=st.booleans(),
)
@example(k=5, in_cuts=[1], out_cuts=[1, 3], seed=0, families=False)  # nested shares summing to 1 + 2^-52
def test_the_walk_reports_a_rising_share_that_ends_at_the_whole_tree(k, in_cuts, out_cuts, seed, families):
    """Pruned or not, nested under an outer walk or not: no report is smaller than the last, none
    passes 1, and the shares walked add up to the whole tree."""
    outputs = partition(k, out_cuts)
    family = [b for b, block in enumerate(outputs) if len(block) == len(outputs[0])]
    shares: list[float] = []

    def viable(placed):  # a prune decided by the prefix, as a label group would
        return hash((seed, tuple(placed))) % 3 != 0

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(permutation_classes, "REPORT_EVERY", 0.0)
        outer = Walk(shares.append)
        for _ in classes([[0], [1]], [[0], [1]], lambda placed: True, (), outer):
            inner = outer.nested()
            inputs = [[i] for i in range(k)] if families else partition(k, in_cuts)
            for _ in classes(inputs, outputs, viable, [family] if families else (), inner):
                pass
            assert inner.share == pytest.approx(1.0)
    assert all(a <= b for a, b in zip(shares, shares[1:]))
    assert shares[-1] == pytest.approx(1.0) and max(shares) <= 1 + 1e-9


def test_classes_refuse_families_with_input_blocks():
    with pytest.raises(ValueError):
        list(classes([[0, 1]], [[0], [1]], lambda placed: True, [[0, 1]]))


def test_families_found_exchange_the_sides_of_an_equation():
    data = {
        "concepts": {n: [0, 1, 2] for n in ("a", "b", "c", "d")},
        "labels": {"y": "a + b == c + d"},
        "support": [[0, 1, 1, 0], [2, 0, 1, 1]],
    }
    task = task_from_dict(data, "eq", REPO)
    blocks = interchangeable_blocks(task)
    assert sorted(map(sorted, blocks)) == [[0, 1], [2, 3]]
    assert interchangeable_families(task, blocks) == [[0, 1]]
    again = task_from_dict({**data, "labels": {"y": "a + b == c * d"}}, "eq", REPO)
    assert interchangeable_families(again, interchangeable_blocks(again)) == []


def test_decompose_with_families_agrees_with_enumeration():
    data = {
        "concepts": {n: [0, 1, 2] for n in ("a", "b", "c", "d")},
        "labels": {"y": "a + b == c + d"},
        "support": {"examples": 12, "seed": 2},
    }
    encoding = encode(task_from_dict(data, "eq", REPO))
    result = backend_result("decompose", encoding)
    assert result.details["blocks"]["knowledge families"] == [[0, 1]]
    assert result.count == backend_count("enumerate", encoding)


def test_pruning_task_keeps_supervised_rows_then_spreads_the_rest():
    rows = [list(r) for r in product((0, 1), repeat=7)]
    task = builtin_task("xor", 7, rows, supervision=[rows[5], rows[100]])
    small = pruning_task(task, 10)
    assert small.support.size == 10 and set(small.support.supervised) == {tuple(rows[5]), tuple(rows[100])}
    assert small.support.rows[:2] == (tuple(rows[5]), tuple(rows[100]))
    assert set(small.support.rows) <= set(task.support.rows)
    assert small.support.rows[2] == tuple(rows[0]) and small.support.rows[-1][0] == 1  # spread over
    assert pruning_task(small, 10) is small


def test_supports_larger_than_the_pruning_sample_count_exactly():
    """More than PRUNE_ROWS rows: prefixes are pruned on a sub-support, complete maps on all rows."""
    clauses = random_cnf(8, 5, 3, 4)
    task = builtin_task("random", 8, {"examples": PRUNE_ROWS + 40, "seed": 5}, clauses=clauses)
    encoding = encode(task)
    result = backend_result("decompose", encoding)
    assert result.count == backend_count("enumerate", encoding)
    assert result.details["nonzero"] == result.details["classes"]  # complete maps checked on all rows


def test_swaps_found_are_symmetries_of_the_knowledge():
    task = builtin_task("random", 6, clauses=[[1, 2, 3], [-4, 5, 6], [1, -2, -3]])
    blocks = interchangeable_blocks(task)
    assert sorted(map(sorted, blocks)) == [[0], [1, 2], [3], [4, 5]]
    for block in blocks:
        for i, j in zip(block, block[1:]):
            for row in product((0, 1), repeat=6):
                swapped = list(row)
                swapped[i], swapped[j] = row[j], row[i]
                assert task.label_of(row) == task.label_of(tuple(swapped))


def test_support_swaps_keep_the_support_and_its_labels():
    task = builtin_task("xor", 4, support=[[0, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]])
    blocks = support_blocks(task, interchangeable_blocks(task))
    assert sorted(map(sorted, blocks)) == [[0, 1], [2, 3]]
    rows = set(task.support.rows)
    for block in blocks:
        for i, j in zip(block, block[1:]):
            for row in rows:
                swapped = list(row)
                swapped[i], swapped[j] = row[j], row[i]
                assert tuple(swapped) in rows


def test_conjoin_order_is_a_permutation_of_the_rows():
    rows = tuple(product(range(3), repeat=3))
    order = conjoin_order(rows)
    assert sorted(order) == sorted(rows) and order[0] == rows[0]


@pytest.mark.parametrize("k", [4, 6, 8])
def test_exhaustive_xor_without_closed_form(k):
    result = backend_result("decompose", builtin_task("xor", k))
    assert result.count == math.factorial(k) * 2 ** (k - 1) and result.details["classes"] == 1


def test_random_cnf_with_half_the_support_agrees_with_sdd():
    task = builtin_task("random", 6, {"sample": 0.5, "seed": 3}, clauses=random_cnf(6, 4, 3, 3))
    encoding = encode(task)
    assert backend_count("decompose", encoding) == backend_count("sdd", encoding)


def test_class_limit_stops_before_counting():
    task = builtin_task("random", 7, {"examples": 2, "seed": 1}, clauses=random_cnf(7, 6, 3, 1))
    with pytest.raises(TooManyClasses):
        backend_count("decompose", task, budget=Budget(max_classes=3))


def test_bundled_categorical_tasks():
    assert backend_count("decompose", load_task(REPO / "tasks/mnadd.yaml")) == 2
    half = backend_count("decompose", load_task(REPO / "tasks/mnadd-half.yaml"))
    assert half == 72 * 10**10


@settings(max_examples=80, **SETTINGS)
@given(symmetric_specs(exhaustive=False))
def test_symmetric_knowledge_with_random_support_and_supervision(spec: Spec):
    assert backend_count("decompose", spec.task()) == spec.brute_force()


@settings(max_examples=60, **SETTINGS)
@given(grouped_specs())
def test_label_groups_multiply_to_the_brute_force_count(spec: Spec):
    result = backend_result("decompose", spec.task())
    assert result.details.get("label_groups", 1) >= 2
    assert result.count == spec.brute_force()


def test_label_groups_join_labels_that_share_a_concept():
    data = {
        "concepts": {n: [0, 1] for n in "abcdef"},
        "labels": {"p": "a & b", "q": "c | d", "r": "b ^ c"},
        "support": [[0, 1, 0, 1, 1, 0]],
    }
    coding = ValueMapCoding(task_from_dict(data, "groups", REPO))
    assert coding.label_groups() == [(["p", "q", "r"], [0, 1, 2, 3]), ([], [4]), ([], [5])]


@settings(max_examples=25, **SETTINGS)
@given(specs(max_space=12))
def test_per_class_approxmc_is_within_epsilon(spec: Spec):
    exact = spec.brute_force()
    result = backend_result("decompose-approx", spec.task(), settings=CountSettings(epsilon=0.8, delta=0.2))
    assert not result.exact and result.delta == 0.2
    assert exact / 1.8 <= result.count <= exact * 1.8


def test_approx_uses_per_class_approxmc_on_exhaustive_xor(cli):
    record = cli("xor", "--bits", "10", "--approx", "--json").json()
    assert record["method"] == "decompose-approx" and not record["exact"]
    exact = math.factorial(10) * 2**9
    assert exact / 1.8 <= record["count"] <= exact * 1.8 and record["epsilon"] == 0.8


@settings(max_examples=12, **SETTINGS)
@given(st.one_of(symmetric_specs(exhaustive=False), grouped_specs()))
def test_classes_counted_by_worker_processes_agree_with_the_brute_force(spec: Spec):
    result = backend_result("decompose", spec.task(), settings=CountSettings(jobs=2))
    assert result.count == spec.brute_force()
    assert result.details["jobs"] == 2 and result.details["nonzero"] <= result.details["classes"]


def test_an_error_in_a_class_worker_reaches_the_caller(monkeypatch):
    from rscount.counting.methods.decompose import backend as decompose
    from rscount.errors import TaskError

    def refuse(self, pi):
        raise TaskError("labels.y", "refused in the worker")

    monkeypatch.setattr(decompose.ClassCounter, "count", refuse)
    task = builtin_task("xor", 4, {"examples": 3, "seed": 1})
    with pytest.raises(TaskError, match="refused in the worker"):
        backend_count("decompose", task, settings=CountSettings(jobs=2), encoded=False)
