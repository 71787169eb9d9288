"""Label-group factors by table agree with the SDD over the value-map codes for every permutation,
and decomposition counts the brute force's figure with the tables on and off."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from strategies.randomtasks import SETTINGS, Spec, offset_specs, specs, string_specs
from support import backend_result

from rscount.counting.engines import group_tables
from rscount.counting.engines.group_tables import GroupTables
from rscount.counting.engines.value_maps import ValueMapCounter
from rscount.encoding.value_codes import ValueMapCoding


def _same_domain_permutations(task):
    """Every pi that maps each concept to one of the same domain size, as decomposition does."""
    sizes = [len(c.values) for c in task.concepts]
    for pi in permutations(range(len(sizes))):
        if all(sizes[i] == sizes[j] for i, j in enumerate(pi)):
            yield pi


def _check_factors(spec: Spec) -> None:
    task = spec.task()
    coding = ValueMapCoding(task)
    groups = coding.label_groups()
    tables, counter = GroupTables(coding, groups), ValueMapCounter(coding, limit=0)
    for pi in _same_domain_permutations(task):
        for g, group in enumerate(groups):
            free = coding.num_vars - coding.group_vars(pi, group)
            found = tables.tally(g, pi)
            assert found is not None and found[0] == counter.count(pi, group) >> free, (pi, group)


@settings(max_examples=80, **SETTINGS)
@given(specs())
def test_table_factors_equal_sdd_factors_for_every_permutation(spec: Spec):
    _check_factors(spec)


@settings(max_examples=30, **SETTINGS)
@given(offset_specs())
def test_table_factors_on_offset_integer_domains(spec: Spec):
    _check_factors(spec)


@settings(max_examples=30, **SETTINGS)
@given(string_specs())
def test_table_factors_on_word_domains(spec: Spec):
    _check_factors(spec)


@pytest.mark.parametrize("space_limit", [0, group_tables.SPACE_LIMIT])
@settings(max_examples=40, **SETTINGS)
@given(spec=specs())
def test_decompose_agrees_with_the_brute_force_with_and_without_tables(spec: Spec, space_limit: int):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(group_tables, "SPACE_LIMIT", space_limit)
        result = backend_result("decompose", spec.task(), "disentangled", encoded=False)
    assert result.count == spec.brute_force()
    assert (result.details.get("group_factors_by_table", 0) > 0) == (space_limit > 0)


def test_a_group_whose_label_table_is_too_large_is_counted_by_sdd(monkeypatch):
    monkeypatch.setattr(group_tables, "LABEL_TABLE_LIMIT", 4)
    monkeypatch.setattr(group_tables, "SUMMARY_TABLE_LIMIT", 4)  # the limit of tables read off D
    spec = Spec((2, 2, 2), (("y0", "(a ^ b) | c"),), ((0, 0, 1), (1, 0, 0), (1, 1, 0)))
    result = backend_result("decompose", spec.task(), "disentangled", encoded=False)
    assert result.count == spec.brute_force()
    assert result.details["group_factors_by_table"] == 0
