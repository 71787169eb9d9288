"""Closed forms: the published figures, agreement with exact backends and brute force on random
tasks, the joint mode cross-checked by its own CNF, and refusal wherever a precondition fails."""

from __future__ import annotations

import math
import pathlib
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_count
from strategies.randomtasks import SETTINGS, Spec, specs, symmetric_specs
from support import backend_count, examples

from rscount import count
from rscount.counting.budget import Unsuited
from rscount.counting.methods.closed_form.forms import (
    closed_form,
    digit_sum,
    joint,
    one_example,
    symmetric_boolean,
)
from rscount.encoding.modes import encode
from rscount.errors import RscountError
from rscount.knowledge.loading import task_from_dict
from rscount.task import vectorized
from rscount.task.families import builtin_task


def make(concepts: dict, labels: dict, support="exhaustive", supervision=None, name="t"):
    data = {"name": name, "concepts": concepts, "labels": labels, "support": support}
    if supervision:
        data["concept_supervision"] = supervision
    return task_from_dict(data, name, pathlib.Path("."))


# ---------------------------------------------------------------------------------------------
# Published and derived figures.


@pytest.mark.parametrize("k", range(1, 21))
def test_exhaustive_xor_is_k_factorial_times_2_to_k_minus_1(k):
    assert symmetric_boolean(builtin_task("xor", k)).count == math.factorial(k) * 2 ** (k - 1)


@pytest.mark.parametrize("kind", ["and", "or"])
@pytest.mark.parametrize("k", [1, 2, 3, 7, 15])
def test_exhaustive_and_or_is_k_factorial(kind, k):
    assert symmetric_boolean(builtin_task(kind, k)).count == math.factorial(k)


@pytest.mark.parametrize("kind", ["xor", "and", "or"])
@pytest.mark.parametrize("k", [2, 3, 4])
def test_symmetric_closed_form_matches_sdd(kind, k):
    task = builtin_task(kind, k)
    assert symmetric_boolean(task).count == backend_count("sdd", task)


@pytest.mark.parametrize(
    ("kind", "row", "expected"), [("xor", [0, 1, 1], 192), ("and", [1, 1, 1], 48), ("and", [0, 1, 0], 336)]
)
def test_one_example_figures_of_the_paper(kind, row, expected):
    assert one_example(builtin_task(kind, 3, support=[row])).count == expected


def test_joint_figures_with_corrected_exponent():
    assert joint(builtin_task("xor", 3)).count == 4**8 == 65536
    assert joint(builtin_task("and", 3)).count == 7**7 == 823543


def test_exhaustive_digit_sums_count_the_digit_permutations():
    for k, values in ((2, range(10)), (3, range(10)), (5, range(4))):
        concepts = {f"d{i}": list(values) for i in range(1, k + 1)}
        task = make(concepts, {"s": " + ".join(concepts)})
        assert digit_sum(task).count == math.factorial(k)


def test_digit_sums_with_mixed_domains_agree_with_brute_force():
    domains = {"a": [0, 1, 2], "b": [1, 2, 3], "c": [0, 1, 2, 3]}
    task = make(domains, {"s": "2 * (a + b + c) + 1"})
    expected = brute_force_count(
        list(domains.values()), lambda r: 2 * sum(r) + 1, list(product(*domains.values())), set()
    )
    assert digit_sum(task).count == expected == backend_count("sdd", task)


# ---------------------------------------------------------------------------------------------
# Preconditions: checked on the knowledge, never read off a name.


def test_symmetry_is_detected_from_the_knowledge_not_the_name():
    disguised = make({"a": [0, 1], "b": [0, 1], "c": [0, 1]}, {"y": "Eq((b + c + a) % 2, 1)"}, name="mystery")
    assert closed_form(disguised, "disentangled").count == 24
    impostor = make({"c1": [0, 1], "c2": [0, 1], "c3": [0, 1]}, {"y": "Xor(c1, c2) | c3"}, name="xor3")
    with pytest.raises(Unsuited, match="not symmetric"):
        symmetric_boolean(impostor)


def test_each_closed_form_says_why_it_does_not_apply():
    half = make({"a": [0, 1], "b": [0, 1]}, {"y": "a ^ b"}, support=[[0, 0], [1, 1]])
    with pytest.raises(Unsuited) as refused:
        closed_form(half, "disentangled")
    reasons = refused.value.facts["reasons"]
    assert len(reasons) == 3
    assert "not one" in reasons[0] and "2 of the 4" in reasons[1] and "2 of the 4" in reasons[2]


def test_supervision_disables_the_exhaustive_closed_forms():
    task = builtin_task("xor", 3, supervision=[[0, 0, 1]])
    with pytest.raises(Unsuited, match="supervised"):
        symmetric_boolean(task)


@pytest.mark.parametrize("space_max", [vectorized.SPACE_MAX, 0], ids=["tabulated", "by SAT"])
def test_a_label_that_is_not_injective_in_the_sum_is_refused(monkeypatch, space_max):
    monkeypatch.setattr(vectorized, "SPACE_MAX", space_max)
    even_odd = make({"a": list(range(4)), "b": list(range(4))}, {"y": "(a + b) % 2"})
    with pytest.raises(Unsuited, match="do not tell all sums apart"):
        digit_sum(even_odd)
    product_ = make({"a": list(range(4)), "b": list(range(4))}, {"y": "a * b"})
    with pytest.raises(Unsuited, match="not a function of the sum"):
        digit_sum(product_)


def test_closed_form_method_fails_with_reasons_when_none_applies():
    with pytest.raises(RscountError, match="no closed form applies"):
        count(builtin_task("xor", 3, support=[[0, 0, 0], [1, 1, 1]]), "closed-form")


def test_auto_uses_the_closed_form_and_backends_agree():
    task = builtin_task("xor", 4)
    result = count(task)
    assert result.method == "closed-form" and result.cnf_size is None
    assert result.count == count(task, "sdd").count == 192


# ---------------------------------------------------------------------------------------------
# Random tasks: closed forms against the brute force (and SDD).


@settings(max_examples=examples(30), **SETTINGS)
@given(specs(max_rows=1, max_space=18))
def test_one_example_closed_form_on_random_tasks(spec: Spec) -> None:
    task = spec.task()
    expected = spec.brute_force()
    assert one_example(task).count == expected
    assert backend_count("sdd", task) == expected


@settings(max_examples=examples(30), **SETTINGS)
@given(symmetric_specs())
def test_symmetric_closed_form_on_random_symmetric_knowledge(spec: Spec) -> None:
    assert symmetric_boolean(spec.task()).count == spec.brute_force()


def _symmetric(spec: Spec) -> bool:
    k = len(spec.sizes)
    rows = list(product(range(2), repeat=k))
    return all(
        spec.label(r) == spec.label(tuple(r[i] for i in p)) for r in rows for p in permutations(range(k))
    )


@settings(max_examples=examples(30), **SETTINGS)
@given(specs(boolean=True, supervision=False))
def test_symmetric_closed_form_applies_exactly_to_symmetric_knowledge(spec: Spec) -> None:
    spec = Spec(spec.sizes, spec.labels, tuple(product(range(2), repeat=len(spec.sizes))), (), True)
    try:
        count = symmetric_boolean(spec.task()).count
    except Unsuited:
        assert not _symmetric(spec)
        return
    assert _symmetric(spec)
    assert count == spec.brute_force()


@settings(max_examples=40, **SETTINGS)
@given(st.data())
def test_digit_sum_closed_form_on_random_integer_domains(data) -> None:
    k = data.draw(st.integers(1, 3))
    domains = [
        sorted(data.draw(st.sets(st.integers(0, 4), min_size=1, max_size=3 if k == 3 else 4)))
        for _ in range(k)
    ]
    scale, shift = data.draw(st.sampled_from([(1, 0), (2, 1), (-3, 2)]))
    names = "abc"[:k]
    task = make(dict(zip(names, domains)), {"y": f"{scale} * ({' + '.join(names)}) + {shift}"})
    expected = brute_force_count(domains, lambda r: scale * sum(r) + shift, list(product(*domains)), set())
    assert digit_sum(task).count == expected


# ---------------------------------------------------------------------------------------------
# The joint mode: closed form, its CNF counted by the backends, and a brute force over alpha.


@settings(max_examples=50, **SETTINGS)
@given(st.data())
def test_joint_closed_form_encoding_and_brute_force_agree(data) -> None:
    shape = data.draw(st.sampled_from([(2,), (3,), (2, 2), (2, 3), (3, 2), (5,), (6,)]))
    spec = data.draw(specs(shape=shape))
    task = spec.task()
    expected = spec.brute_force_joint()
    assert joint(task).count == expected
    assert backend_count("sdd", task, "joint") == expected
    if expected <= 5000:
        assert backend_count("enumerate", task, "joint") == expected


@settings(max_examples=15, **SETTINGS)
@given(specs(shape=(2, 2)))
def test_joint_approxmc_within_epsilon(spec: Spec) -> None:
    exact = joint(spec.task()).count
    estimate = backend_count("approxmc", spec.task(), "joint")
    assert exact / 1.8 <= estimate <= exact * 1.8


@settings(max_examples=30, **SETTINGS)
@given(st.data())
def test_joint_count_never_decreases_as_the_support_shrinks(data) -> None:
    spec = data.draw(specs(supervision=False))
    smaller = data.draw(st.lists(st.sampled_from(spec.support), min_size=1, unique=True))
    more = data.draw(st.lists(st.sampled_from(smaller), max_size=3, unique=True))
    big, small = joint(spec.with_support(spec.support).task()), joint(spec.with_support(smaller).task())
    supervised = joint(spec.with_support(smaller, more).task())
    assert supervised.count <= small.count and big.count <= small.count


def test_joint_encoding_is_refused_beyond_its_size_with_advice():
    with pytest.raises(RscountError, match="joint closed form"):
        encode(builtin_task("xor", 7), "joint")
