"""Property tests: random small tasks counted by every backend and by the independent brute force.

Tasks have 2-3 concepts with 2-3 values each (or 4 Boolean concepts), one or two labels written as
random expression strings, a random support and random concept supervision (see strategies/randomtasks.py:
the brute force evaluates the knowledge with Python's `eval`, without any rscount code).
"""

from __future__ import annotations

import contextlib
import math
from itertools import product

from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies.randomtasks import SETTINGS, Spec, offset_specs, specs, string_specs
from support import OPTIONS, backend_count, examples

from rscount.counting.budget import Unsuited
from rscount.counting.methods.closed_form.forms import closed_form
from rscount.knowledge.loading import task_from_dict

ENUMERATE_MAX = 3_000


def check_knowledge(spec: Spec, task) -> None:
    """rscount and Python's eval give every concept vector the same labels."""
    for row in product(*spec.domains):
        assert task.label_of(row) == spec.label(row), row


# ---------------------------------------------------------------------------------------------
# Exact agreement: the enumeration takes about a second per 3000 solver models, and 3 x 3 x 3 tasks
# with a near-constant label have up to 6 * 27**3 = 118098 maps (a minute), so it is only asked for
# counts up to ENUMERATE_MAX; SDD and the brute force see every task.


def check_exact(spec: Spec) -> None:
    task = spec.task()
    check_knowledge(spec, task)
    expected = spec.brute_force()
    assert expected >= 1  # the intended map is always optimal
    assert backend_count("sdd", task) == expected
    assert backend_count("decompose", task) == expected
    with contextlib.suppress(Unsuited):  # no closed form applies
        form = closed_form(task, "disentangled")
        event(f"closed form: {form.name}")
        assert form.count == expected
    if expected <= ENUMERATE_MAX:
        assert backend_count("enumerate", task) == expected
    else:
        event("count above ENUMERATE_MAX: enumeration skipped")


@settings(max_examples=examples(40), **SETTINGS)
@given(specs(boolean=True))
def test_exact_backends_and_brute_force_agree_boolean(spec: Spec) -> None:
    check_exact(spec)


@settings(max_examples=examples(60), **SETTINGS)
@given(specs(boolean=False))
def test_exact_backends_and_brute_force_agree_categorical(spec: Spec) -> None:
    check_exact(spec)


@settings(max_examples=examples(20), **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs()), st.randoms(use_true_random=False))
def test_the_count_does_not_depend_on_the_order_the_concepts_are_listed_in(spec: Spec, rnd) -> None:
    # a program lists its concepts in the order grounding reaches them, not the task's
    # (tests/test_program_twins.py relies on this)
    order = list(range(len(spec.sizes)))
    rnd.shuffle(order)
    task = spec.task()
    rows = [[row[j] for j in order] for row in task.support.rows]
    listed = task_from_dict({
        "concepts": {task.concepts[j].name: list(task.concepts[j].values) for j in order},
        "labels": dict(spec.labels),
        "support": "exhaustive" if spec.exhaustive else rows,
        "concept_supervision": [[row[j] for j in order] for row in map(spec.vector, spec.supervised)],
    }, "reordered")  # fmt: skip
    expected = spec.brute_force()
    for method in ("decompose", "search", "source-sets"):
        with contextlib.suppress(Unsuited):
            assert backend_count(method, listed) == expected, method


@settings(max_examples=examples(20), **SETTINGS)
@given(specs())
def test_approxmc_within_epsilon(spec: Spec) -> None:
    exact = spec.brute_force()
    estimate = backend_count("approxmc", spec.task())
    eps = OPTIONS.epsilon
    assert exact / (1 + eps) <= estimate <= exact * (1 + eps), (estimate, exact)


# ---------------------------------------------------------------------------------------------
# Monotonicity: fewer examples or less supervision never lowers the count (at most 12 concept
# vectors when some concept has 3 values, so that the counts stay small enough to enumerate).


@settings(max_examples=examples(20), **SETTINGS)
@given(st.data())
def test_nested_supports(data) -> None:
    spec = data.draw(specs(supervision=False, max_space=12))
    smaller = data.draw(st.lists(st.sampled_from(spec.support), min_size=1, unique=True))
    big, small = spec.with_support(spec.support), spec.with_support(smaller)
    assert backend_count("enumerate", small.task()) >= backend_count("enumerate", big.task())
    assert backend_count("sdd", small.task()) >= backend_count("sdd", big.task())
    assert backend_count("decompose", small.task()) >= backend_count("decompose", big.task())


@settings(max_examples=examples(20), **SETTINGS)
@given(st.data())
def test_supervision_never_increases_count(data) -> None:
    spec = data.draw(specs(supervision=False, max_space=12))
    more = data.draw(st.lists(st.sampled_from(spec.support), min_size=1, max_size=4, unique=True))
    fewer = more[: data.draw(st.integers(0, len(more) - 1))]
    with_fewer, with_more = spec.with_support(spec.support, fewer), spec.with_support(spec.support, more)
    n_fewer, n_more = (
        backend_count("enumerate", with_fewer.task()),
        backend_count("enumerate", with_more.task()),
    )
    assert 1 <= n_more <= n_fewer
    assert backend_count("sdd", with_more.task()) <= backend_count("sdd", with_fewer.task())


# ---------------------------------------------------------------------------------------------
# Closed form (design/counting.md): one example c*, k concepts with b values each:
# count = k! * b**(k * (b - 1)) * |E(c*)|, E(c) = {c' in D : beta(c') = beta(c)}.


@settings(max_examples=examples(20), **SETTINGS)
@given(st.data())
def test_one_example_closed_form(data) -> None:
    k, b = data.draw(st.sampled_from([(2, 2), (3, 2), (4, 2), (2, 3), (3, 3)]))
    spec = data.draw(specs(shape=(b,) * k, max_rows=1, supervision=False))
    (example,) = spec.support
    same_label = sum(spec.label(row) == spec.label(example) for row in product(*spec.domains))
    expected = math.factorial(k) * b ** (k * (b - 1)) * same_label
    assert spec.brute_force() == expected
    assert backend_count("enumerate", spec.task()) == expected
    assert backend_count("sdd", spec.task()) == expected
