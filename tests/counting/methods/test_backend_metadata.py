"""What backends and closed forms say about themselves: each backend's `exact` and `method` match
the results it returns, and the one-example closed form writes its instance as documented."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import backend_result

from rscount.counting.budget import UNBOUNDED
from rscount.counting.methods import BACKENDS, MODE_COUNTERS
from rscount.counting.methods.closed_form.forms import one_example
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings
from rscount.knowledge.loading import task_from_dict
from rscount.task.families import builtin_task

# The tasks of the methods XOR is not for, and their counts: two digits 0-2 and their sum on every
# pair, the identity and the digits' exchange (linear: XOR is no affine form of its bits); two
# digits tested for equality on every pair, one bijection either way, 2 x 3! (equalities, pairwise).
SUM = {"concepts": {"a": [0, 1, 2], "b": [0, 1, 2]}, "labels": {"y": "a + b"}, "support": "exhaustive"}
SAME = {"concepts": {"a": [0, 1, 2], "b": [0, 1, 2]}, "labels": {"y": "Eq(a, b)"}, "support": "exhaustive"}
OWN_TASKS = {"linear": (SUM, 2), "equalities": (SAME, 12), "pairwise": (SAME, 12)}


@pytest.mark.parametrize("method", sorted(BACKENDS))
def test_each_backend_says_truly_whether_it_is_exact(method):
    backend = BACKENDS[method]
    data, expected = OWN_TASKS.get(method, (None, 24))
    task = builtin_task("xor", 3) if data is None else task_from_dict(data)
    result = backend_result(method, task)
    assert result.exact is backend.exact
    assert result.method == backend.method == method
    assert backend.exact == (method not in ("approxmc", "decompose-approx"))
    assert result.count == expected if backend.exact else expected / 1.8 <= result.count <= expected * 1.8


@pytest.mark.parametrize("mode", sorted(MODE_COUNTERS))
def test_a_modes_own_counter_says_truly_what_its_results_state(mode):
    counter = MODE_COUNTERS[mode]
    result = counter.count(CountProblem(builtin_task("xor", 3), mode), CountSettings(), None, UNBOUNDED)
    assert (result.exact, result.method) == (counter.exact, counter.method)
    assert result.count == 48  # jrs: pairs (concept map, inference layer), all intended


def test_one_example_with_equal_domains_is_written_k_factorial_b_power_label_class():
    # XOR3, one example: 3! * 2^(3 * 1) * |E(c*)| with |E(c*)| = 4 (design/counting.md: 192)
    form = one_example(builtin_task("xor", 3, support=[[0, 1, 1]]))
    assert form.count == 192 and form.expression == "3! * 2^3 * 4"


def test_one_example_with_mixed_domains_is_written_label_class_times_permanent():
    data = {"concepts": {"a": [0, 1], "b": [0, 1, 2]}, "labels": {"y": "a + b"}, "support": [[1, 2]]}
    form = one_example(task_from_dict(data, "t", Path(".")))
    # |E| = 1 (only (1, 2) sums to 3); perm of |D_j|^(|D_i| - 1): 2^1 * 3^2 + 3^1 * 2^2 = 30
    assert form.count == 30 and form.expression == "1 * 30"


def test_decompose_reports_how_many_classes_have_maps():
    every = [[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    only_identity = builtin_task("xor", 3, supervision=every)  # one class, one map: the identity
    details = backend_result("decompose", only_identity).details
    assert (details["classes"], details["nonzero"]) == (1, 1)
    asymmetric = {"concepts": {"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "labels": {"y": "a & ~b | c"}}
    task = task_from_dict({**asymmetric, "support": [[0, 0, 1], [0, 1, 1]]}, "t", Path("."))
    details = backend_result("decompose", task).details
    assert details["classes"] == details["nonzero"] == 6  # classes found by SAT all have maps
