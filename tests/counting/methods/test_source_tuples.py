"""The count summed over the tuples of sources feeding each label group (method source-tuples)
agrees with the brute force on random small tasks (symmetric knowledge, values out of position,
words, supervision) and with decomposition by permutation on wider ones over 3-4 valued concepts
(sums and products between blocks exchanged as wholes); its factors agree whether listed by SAT or
counted by the SDD; one tuple per orbit of the knowledge's symmetry is visited."""

from __future__ import annotations

import itertools
import random
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies.randomtasks import (
    SETTINGS,
    Spec,
    exhaustive_supervised_specs,
    grouped_specs,
    offset_specs,
    specs,
    string_specs,
    symmetric_specs,
    wide_tasks,
)
from support import REPO, backend_count, backend_result, closure, examples

from rscount.counting.budget import UNBOUNDED, Budget, TooManyModels, Unsuited
from rscount.counting.methods.source_tuples import refute
from rscount.counting.methods.source_tuples import tuples as source_tuples
from rscount.counting.methods.source_tuples.tuples import GroupShape, SourceTuples, TupleFactor, completed
from rscount.errors import TaskError
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.progress import Progress


def counted(task, method: str = "source-tuples", budget: Budget = UNBOUNDED) -> int:
    return backend_count(method, task, budget=budget, encoded=False)


def both_ways(task) -> int:
    """The source-tuple count with every factor listed by SAT, and with every factor by the SDD."""
    listed = counted(task)
    with mock.patch.object(source_tuples, "ENUMERATE_LIMIT", 0):
        by_sdd = counted(task)
    assert listed == by_sdd
    return listed


def applicable(spec: Spec):
    """The spec's task, skipped when it is refused (a label undefined on some values) or source
    tuples do not apply (concepts no label reads with domains of different sizes)."""
    try:
        task = spec.task()
        return task, both_ways(task)
    except (TaskError, Unsuited):
        assume(False)
        raise


@settings(max_examples=100, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs(), symmetric_specs(exhaustive=False)))
def test_source_tuples_agree_with_the_brute_force(spec: Spec):
    _, found = applicable(spec)
    assert found == spec.brute_force()


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs(), exhaustive_supervised_specs()))
def test_the_shared_refuter_agrees_with_the_brute_force_when_staged_and_replaced(spec: Spec):
    """Rows stated one at a time on a group's one solver for every tuple, and a fresh solver for
    nearly every tuple: refutations learned under one tuple's selector never zero another."""
    try:
        task = spec.task()
        for stages, budget in (((1,), 10**9), ((1, 2), 0)):
            with (
                mock.patch.object(refute, "STAGES", stages),
                mock.patch.object(refute, "REFUTER_CLAUSES", budget),
            ):
                assert counted(task) == spec.brute_force()
    except (TaskError, Unsuited):
        assume(False)


@settings(max_examples=30, **SETTINGS)
@given(st.one_of(exhaustive_supervised_specs(), symmetric_specs(), grouped_specs()))
def test_source_tuples_keep_supervision_and_exhaustive_supports(spec: Spec):
    _, found = applicable(spec)
    assert found == spec.brute_force()


EQUATIONS = [
    "{0} + {1} == {2} + {3}",
    "{0} * {1} == {2} * {3}",
    "{0} + {1} == {2}",
    "{0} - {1}",
    "{0} + {1} > {2}",
]


@st.composite
def wide_domain_tasks(draw):
    """5-6 concepts over 3 values, two labels from sums, products and comparisons over random
    concepts (often the sides of an equation: blocks exchanged as wholes), a random support of up
    to 20 vectors and a supervised one sometimes."""
    k = draw(st.integers(5, 6))
    d = 3
    names = [f"c{i}" for i in range(k)]
    order = draw(st.permutations(names))
    labels = {}
    used = 0
    for j in range(2):
        form = draw(st.sampled_from(EQUATIONS))
        arity = form.count("{")
        if used + arity > k:
            used = 0  # groups share concepts then: one label group
        labels[f"y{j}"] = form.format(*order[used : used + arity])
        used += arity
    rows = draw(st.lists(st.tuples(*[st.integers(0, d - 1)] * k), min_size=1, max_size=20, unique=True))
    supervised = draw(st.lists(st.sampled_from(rows), max_size=1))
    data = {
        "concepts": {n: list(range(d)) for n in names},
        "labels": labels,
        "support": [list(r) for r in rows],
        "concept_supervision": [list(r) for r in supervised],
    }
    return task_from_dict(data, "wide-domains", REPO)


@settings(max_examples=examples(15), **SETTINGS)
@given(st.one_of(wide_domain_tasks(), wide_tasks()))
def test_source_tuples_agree_with_decomposition_on_wider_tasks(task):
    assert both_ways(task) == counted(task, "decompose")


def symmetry_group(shape: GroupShape) -> set[tuple[int, ...]]:
    """Every permutation of the group's positions its blocks and families generate (perm[n]: where
    position n goes), by closure under the generators."""
    m = len(shape.targets)
    generators = []
    for block in shape.blocks:
        for a, b in itertools.combinations(block, 2):
            perm = list(range(m))
            perm[a], perm[b] = b, a
            generators.append(tuple(perm))
    for family in shape.families:
        for x, y in itertools.combinations(family, 2):
            perm = list(range(m))
            for a, b in zip(shape.blocks[x], shape.blocks[y]):
                perm[a], perm[b] = b, a
            generators.append(tuple(perm))
    return closure(generators, m)


@st.composite
def group_shapes(draw):
    """Blocks of sizes 1-3 over up to 6 positions in a random arrangement; families of equal-sized
    blocks, in block order."""
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=4).filter(lambda s: sum(s) <= 6))
    positions = draw(st.permutations(range(sum(sizes))))
    blocks, at = [], 0
    for size in sizes:
        blocks.append(tuple(sorted(positions[at : at + size])))
        at += size
    blocks.sort(key=min)
    families = []
    for size in set(sizes):
        same = [n for n, b in enumerate(blocks) if len(b) == size]
        if len(same) > 1 and draw(st.booleans()):
            families.append(tuple(same))
    return GroupShape(("y",), tuple(range(sum(sizes))), tuple(blocks), tuple(families))


@settings(max_examples=60, deadline=None)
@given(group_shapes(), st.integers(0, 2))
def test_one_tuple_per_orbit_of_the_knowledge_symmetry_is_visited(shape: GroupShape, spare: int):
    m = len(shape.targets)
    sources = list(range(m + spare))
    group = symmetry_group(shape)
    assert len(group) == shape.orbit
    visited = list(shape.tuples(sources))
    orbit_of = {}
    for beta in itertools.permutations(sources, m):
        orbit = frozenset(tuple(beta[g.index(n)] for n in range(m)) for g in group)
        assert len(orbit) == shape.orbit  # the symmetry acts freely on tuples of distinct sources
        orbit_of[beta] = orbit
    assert len({orbit_of[beta] for beta in visited}) == len(visited)
    assert {orbit_of[beta] for beta in visited} == set(orbit_of.values())


def test_a_factor_past_the_model_budget_stops_instead_of_compiling_it():
    task = task_from_dict(
        {
            "concepts": {n: list(range(5)) for n in "abcd"},
            "labels": {"y": "a + b == c + d"},
            "support": [[0, 1, 1, 0]],
        },
        "loose",
        REPO,
    )
    with pytest.raises(TooManyModels):
        counted(task, budget=Budget(max_models=10))
    assert counted(task) == counted(task, "decompose")


def test_other_modes_and_too_many_tuples_are_not_applicable():
    with pytest.raises(Unsuited, match="disentangled"):
        counted(load_task(REPO / "tasks" / "mnmath.yaml"))
    wide = load_task(REPO / "tasks" / "sdd-oia.yaml")
    with pytest.raises(Unsuited, match="source tuples"):
        counted(wide, budget=Budget(max_classes=2000))


def mnmath_digits(values: int, shown: int):
    """MNMath's two equations (B.1) on digits 0..values-1 and random rows over digits 0..shown-1,
    10 per label pair."""
    rng = random.Random(7)
    rows: dict[tuple[bool, bool], list[list[int]]] = {
        (a, b): [] for a in (False, True) for b in (False, True)
    }
    while any(len(v) < 10 for v in rows.values()):
        r = [rng.randrange(shown) for _ in range(8)]
        key = (r[0] + r[1] == r[2] + r[3], r[4] * r[5] == r[6] * r[7])
        if len(rows[key]) < 10:
            rows[key].append(r)
    data = {
        "objects": {"count": 8, "attributes": {"digit": list(range(values))}},
        "labels": {
            "y1": "digit_1 + digit_2 == digit_3 + digit_4",
            "y2": "digit_5 * digit_6 == digit_7 * digit_8",
        },
        "support": [r for v in rows.values() for r in v],
        "mode": "disentangled",
    }
    return task_from_dict(data, f"mnmath-digits-{values}", REPO)


def test_mnmath_equations_over_four_valued_digits_count_as_decomposition_counts_them():
    """MNMath on digits 0-3 and 40 random rows, 10 per label pair: several source tuples per group,
    blocks exchanged as wholes, factors listed by SAT."""
    task = mnmath_digits(4, 4)
    result = backend_result("source-tuples", task, encoded=False)
    assert result.details["label_groups"] == 2 and result.details["nonzero_factors"] >= 2
    assert result.count == counted(task, "decompose")


@pytest.mark.parametrize(("values", "floor"), [(4, 64), (5, 64 * 5**8)])
def test_the_first_lower_bound_is_the_identitys_orbit(values: int, floor: int):
    """Before any tuple is counted, MNMath is known to have at least the maps its symmetries make
    of the identity (swaps within each side and of the sides: 8 per equation), each with any
    image of a digit no row shows (digit 4 of 0-4: 5 images for each of the 8 digits)."""
    task = mnmath_digits(values, 4)
    progress = Progress(enabled=False)
    reported: list[int] = []
    progress.sink = lambda known: reported.append(known["lower_bound"])
    found, _ = SourceTuples(task, progress).count()
    assert reported[0] == floor <= found


def test_rows_reading_the_same_source_values_with_other_labels_contradict():
    reading = refute.Reading
    same = ((0, 1), (1, 2))
    assert refute.contradictory([reading(same, (True,)), reading(same, (False,))])
    assert not refute.contradictory([reading(same, (True,)), reading(((0, 1), (1, 3)), (False,))])
    assert refute.contradictory([((0, 1, 2),), ((0, 1, 3), (1, 0, 0))])
    assert not refute.contradictory([((0, 1, 2),), ((0, 1, 2), (1, 0, 0))])


def test_values_shown_to_share_an_image_contradict_rows_that_need_them_apart():
    """y = (a == b) over 0-2, c unread: with b and c feeding a and b, rows (b, c) = (0, 0) and
    (0, 1) both true give c's values 0 and 1 one image, which rows (1, 0) false and (1, 1) true need
    apart; the first check alone (same values, other labels) does not see it."""
    task = task_from_dict(
        {
            "concepts": {n: [0, 1, 2] for n in "abc"},
            "labels": {"y": "a == b"},
            "support": [[0, 0, 0], [0, 0, 1], [2, 1, 0], [1, 1, 1]],
        },
        "equal",
        REPO,
    )
    counter = SourceTuples(task)
    (shape,) = counter.shapes
    assert (1, 2) in shape.tuples(range(3))
    group = (list(shape.labels), list(shape.targets))
    facts = list(counter.coding.row_facts(completed(3, shape.targets, (1, 2)), group))
    found = refute.determined(counter.coding, group)
    assert found == {(0, (True,)), (1, (True,))}
    assert refute.contradictory(facts, found) and not refute.contradictory(facts)
    with mock.patch.object(refute, "contradictory", return_value=False):
        assert TupleFactor(counter.coding)(shape, (1, 2)) == 0


@settings(max_examples=100, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs(), exhaustive_supervised_specs()))
def test_a_tuple_pairs_of_rows_refute_has_no_value_map(spec: Spec):
    """Every tuple refuted by what pairs of rows imply has a factor of 0 when listed by SAT alone."""
    try:
        counter = SourceTuples(spec.task())
    except (TaskError, Unsuited):
        assume(False)
        raise
    k = len(counter.task.concepts)
    listed = TupleFactor(counter.coding)
    for shape in counter.shapes:
        group = (list(shape.labels), list(shape.targets))
        found = refute.determined(counter.coding, group)
        for beta in shape.tuples(range(k)):
            facts = list(counter.coding.row_facts(completed(k, shape.targets, beta), group))
            if refute.contradictory(facts, found):
                with mock.patch.object(refute, "contradictory", return_value=False):
                    assert listed(shape, beta) == 0


@settings(max_examples=60, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs()))
def test_lower_bounds_reported_on_the_way_hold_and_are_never_zero(spec: Spec):
    """What a time limit would report: at least 1 (the identity fits every row), at most the count
    (the identity's orbit included)."""
    try:
        task = spec.task()
        progress = Progress(enabled=False)
        reported: list[int] = []
        progress.sink = lambda known: reported.append(known["lower_bound"])
        found, _ = SourceTuples(task, progress).count()
    except (TaskError, Unsuited):
        assume(False)
        raise
    assert reported and all(1 <= bound <= found for bound in reported)
    assert reported[-1] == found == spec.brute_force()
