"""Exhaustive supports (given as 'exhaustive') with concept supervision: the joint closed form must
discount each supervised vector, and every exact backend must agree with the brute force. The
task strategy `specs` draws this case about once in a hundred; exhaustive_supervised_specs always."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from references.bruteforce import brute_force_count, brute_force_joint
from strategies.randomtasks import SETTINGS, Spec, exhaustive_supervised_specs
from support import backend_count, examples

import rscount
from rscount.counting.budget import Unsuited
from rscount.counting.methods.closed_form.forms import closed_form, joint, symmetric_boolean
from rscount.task.families import builtin_task

ENUMERATE_MAX = 5000


def xor(c: tuple) -> int:
    return sum(c) % 2


def test_joint_count_of_exhaustive_xor2_with_00_supervised_is_8():
    task = builtin_task("xor", 2, supervision=[[0, 0]])
    assert task.support.exhaustive
    # (0,0) is fixed; each of the 3 other vectors goes to one of the 2 vectors with its label
    expected = brute_force_joint([[0, 1], [0, 1]], xor, [(0, 0), (0, 1), (1, 0), (1, 1)], {(0, 0)})
    assert expected == 2**3 == 8
    assert joint(task).count == expected
    assert rscount.count(task, mode="joint").count == expected
    assert rscount.count(task, "closed-form", mode="joint").count == expected
    assert backend_count("sdd", task, "joint") == expected
    assert backend_count("enumerate", task, "joint") == expected


def test_joint_command_line_with_exhaustive_support_and_supervision(cli, tmp_path):
    path = tmp_path / "xor2.yaml"
    path.write_text(
        "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a ^ b}\nsupport: exhaustive\n"
        "concept_supervision: [[0, 0], [1, 0]]\nmode: joint\n"
    )
    record = cli("count", path, "--json").json()
    expected = brute_force_joint([[0, 1], [0, 1]], xor, [(0, 0), (0, 1), (1, 0), (1, 1)], {(0, 0), (1, 0)})
    assert record["count"] == expected == 4 and record["method"] == "closed-form"


@pytest.mark.parametrize("supervised", [[[0, 0, 0]], [[0, 1, 1], [1, 1, 1]]])
def test_disentangled_exhaustive_xor3_with_supervision_matches_the_brute_force(supervised):
    task = builtin_task("xor", 3, supervision=supervised)
    with pytest.raises(Unsuited, match="supervised"):
        symmetric_boolean(task)
    domains = [[0, 1]] * 3
    rows = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    expected = brute_force_count(domains, xor, rows, {tuple(r) for r in supervised})
    assert rscount.count(task).count == expected
    for backend in ("sdd", "decompose", "enumerate"):
        assert backend_count(backend, task) == expected, backend


@settings(max_examples=examples(30), **SETTINGS)
@given(exhaustive_supervised_specs(shape=(2, 2)) | exhaustive_supervised_specs(shape=(3, 2)))
def test_joint_closed_form_discounts_supervised_vectors_of_an_exhaustive_support(spec: Spec) -> None:
    task = spec.task()
    assert task.support.exhaustive and task.support.supervised
    expected = spec.brute_force_joint()
    assert joint(task).count == expected
    assert backend_count("sdd", task, "joint") == expected


@settings(max_examples=examples(30), **SETTINGS)
@given(exhaustive_supervised_specs(boolean=True) | exhaustive_supervised_specs(shape=(3, 2)))
def test_exact_backends_on_exhaustive_supervised_supports(spec: Spec) -> None:
    task = spec.task()
    expected = spec.brute_force()
    assert backend_count("sdd", task) == expected
    assert backend_count("decompose", task) == expected
    if expected <= ENUMERATE_MAX:
        assert backend_count("enumerate", task) == expected
    with contextlib.suppress(Unsuited):  # no closed form applies
        form = closed_form(task, "disentangled")
        assert form.count == expected, form.name
    assert rscount.count(task).count == expected
