"""`rscount explain` and the map space behind it: the maps shown keep every training label (checked by
evaluating the knowledge in Python, not through rscount), the maps listed are exactly the brute
force's, and samples are uniform."""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_maps
from strategies.mixedtasks import Drawn, object_tasks, plain_tasks
from strategies.randomtasks import SETTINGS, Spec, specs, symmetric_specs
from support import REPO, examples

from rscount import count, explain
from rscount.counting.budget import TooManyNodes
from rscount.insight import simplest
from rscount.insight.maps import ConceptMap, MapSpace
from rscount.knowledge.loading import load_task

XOR3 = REPO / "tasks" / "xor3.yaml"
ROWS3 = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]


def predicted(entries: list[dict], names: list[str], row: tuple) -> dict:
    """The predicted concepts of a ground-truth row under a map as explain's JSON describes it."""
    truth = dict(zip(names, row))
    out = {}
    for e in entries:
        images = {v: w for v, w in e["values"]}
        out[e["concept"]] = images[truth[e["reads"]]]
    return out


def as_pairs(space_map: ConceptMap, domains: list[list]) -> tuple:
    """A map in the brute force's form: pi and, per concept, the images of its values."""
    f = tuple(tuple(domains[space_map.pi[i]][u] for u in space_map.f[i]) for i in range(len(domains)))
    return space_map.pi, f


def test_every_shortcut_explain_shows_on_xor3_keeps_every_label(cli):
    record = cli("explain", XOR3, "--show", "30", "--json").json()
    assert record["count"] == 24 and record["shortcuts"] == 23
    names = ["c1", "c2", "c3"]
    seen = set()
    for shown in record["maps"]:
        images = []
        for row in ROWS3:  # exhaustive support: substitute the map into every example
            pred = predicted(shown["concepts"], names, row)
            assert pred["c1"] ^ pred["c2"] ^ pred["c3"] == row[0] ^ row[1] ^ row[2]
            images.append(tuple(pred[n] for n in names))
        assert images != ROWS3  # not the intended map
        seen.add(tuple(images))
    assert len(seen) == 23  # 23 different maps: with the intended one, all 24


def test_random_maps_on_one_xor_example_keep_its_label(cli):
    record = cli(
        "explain", XOR3, "--examples", "1", "--seed", "3", "--random", "--show", "12", "--json"
    ).json()
    assert record["count"] == 192
    assert len({m["text"] for m in record["maps"]}) == 12
    for shown in record["maps"]:
        for row in _support_of_seed(3):
            pred = predicted(shown["concepts"], ["c1", "c2", "c3"], row)
            assert pred["c1"] ^ pred["c2"] ^ pred["c3"] == row[0] ^ row[1] ^ row[2]


def _support_of_seed(seed: int) -> list[tuple]:
    from rscount.cli.main import make_parser
    from rscount.cli.options import task_from_args

    args = make_parser().parse_args(["explain", str(XOR3), "--examples", "1", "--seed", str(seed)])
    return list(task_from_args(args).support.rows)


def test_text_names_what_each_concept_reads_and_the_values_that_move(cli):
    run = cli("explain", XOR3, "--show", "5")
    assert run.code == 0
    assert run.out.startswith("task xor3 (disentangled count): 24 optimal maps, 23 reasoning shortcuts")
    assert "  1. c2: 0->1, 1->0; c3: 0->1, 1->0" in run.out  # fewest changes first
    assert "  4. c2 <- c3; c3 <- c2" in run.out
    assert re.search(r"c1 +8 \(33\.3%\) +4 \(16\.7%\)", run.out)  # 8 maps fix c1, 4 also keep its values


def test_summary_over_all_maps_matches_the_brute_force(cli):
    record = cli("explain", XOR3, "--examples", "1", "--seed", "2", "--json").json()
    rows = _support_of_seed(2)
    maps = list(brute_force_maps([[0, 1]] * 3, lambda c: c[0] ^ c[1] ^ c[2], rows, set()))
    assert record["summary"]["exact"] and record["summary"]["over"] == len(maps) == 192
    for j, row in enumerate(record["summary"]["concepts"]):
        assert row["reads_itself"] == sum(pi[j] == j for pi, _ in maps)
        assert row["keeps_meaning"] == sum(pi[j] == j and f[j] == (0, 1) for pi, f in maps)


@settings(max_examples=40, **SETTINGS)
@given(specs(max_space=18))
def test_map_space_lists_exactly_the_brute_force_maps(spec: Spec):
    _same_maps_as_brute_force(spec)


@settings(max_examples=25, **SETTINGS)
@given(symmetric_specs(exhaustive=False))
def test_map_space_lists_exactly_the_brute_force_maps_of_symmetric_knowledge(spec: Spec):
    _same_maps_as_brute_force(spec)  # permutation classes with several members: orbits are walked


def _same_maps_as_brute_force(spec: Spec) -> None:
    task = spec.task()
    space = MapSpace(task, "disentangled")
    listed = [as_pairs(m, spec.domains) for m in space.maps()]
    expected = set(brute_force_maps(spec.domains, spec.label, list(task.support.rows), set(spec.supervised)))
    assert len(listed) == len(set(listed)) == space.count
    assert set(listed) == expected


FAMILY_ROWS = [[1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 1, 0]]


def test_maps_of_knowledge_whose_blocks_exchange_as_wholes_are_the_brute_force_maps_sampled_uniformly():
    """a + b == c + d: the sides {a, b} and {c, d} exchange as wholes, so classes are orbits under
    swaps within a side and the exchange of the sides (blocks families)."""
    spec = Spec((2, 2, 2, 2), (("y", "Eq(a + b, c + d)"),), tuple(map(tuple, FAMILY_ROWS)))
    task = spec.task()
    space = MapSpace(task, "disentangled")
    assert space.outputs.attributes.families == [[0, 1]]
    listed = [as_pairs(m, spec.domains) for m in space.maps()]
    expected = set(brute_force_maps(spec.domains, spec.label, list(task.support.rows), set()))
    assert len(listed) == len(set(listed)) == space.count == 576
    assert set(listed) == expected
    _assert_uniform(space, spec.domains, expected, draws=40 * len(expected))


UNIFORM_TASKS = [
    ({"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "Or(a, b) & ~c", [[0, 1, 0], [1, 1, 0], [0, 0, 1]]),
    ({"a": [0, 1], "b": [0, 1], "c": [0, 1, 2]}, "ITE(a, b, c)", [[0, 1, 2], [1, 0, 1]]),
]


@pytest.mark.parametrize(("concepts", "label", "rows"), UNIFORM_TASKS)
def test_samples_are_uniform_over_the_optimal_maps(concepts, label, rows):
    """Chi-square goodness of fit against the uniform distribution on the brute force's maps (fixed
    seed; the bound is the 99.9% quantile, Wilson-Hilferty). Both tasks have permutation classes
    with different numbers of maps, one has classes of two permutations."""
    spec = Spec(tuple(len(v) for v in concepts.values()), (("y", label),), tuple(map(tuple, rows)))
    task = spec.task()
    space = MapSpace(task, "disentangled")
    expected = set(brute_force_maps(spec.domains, spec.label, list(task.support.rows), set()))
    assert space.count == len(expected)
    _assert_uniform(space, spec.domains, expected, draws=80 * len(expected))


def _assert_uniform(space: MapSpace, domains: list[list], expected: set, draws: int) -> None:
    """Chi-square of `draws` samples against the uniform distribution on `expected` (fixed seed)."""
    rng = random.Random(12345)
    seen = Counter(as_pairs(space.sample(rng), domains) for _ in range(draws))
    assert set(seen) == expected
    mean = draws / len(expected)
    chi2 = sum((seen[m] - mean) ** 2 / mean for m in expected)
    df = len(expected) - 1
    bound = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < bound


def test_random_draws_of_large_counts_are_distinct_keep_every_label_and_summary_is_exact(cli):
    path = REPO / "tasks" / "mnadd-half.yaml"
    record = cli("explain", path, "--show", "6", "--random", "--json").json()
    assert record["count"] == 720000000000
    assert "uniformly at random" in record["order"]
    # the summary is exact from the count's classes: d1 and d2 swap in half the maps (the sum is
    # symmetric), and d1 keeps its meaning on every value only where d2 is the identity on the seen
    # digits 0-4, its five unseen ones free: 10^5 maps
    summary = record["summary"]
    assert summary["exact"] and summary["over"] == record["count"]
    for row in summary["concepts"]:
        assert row["reads_itself"] == record["count"] // 2 and row["keeps_meaning"] == 10**5
    assert len({m["text"] for m in record["maps"]}) == 6
    for shown in record["maps"]:
        for row in load_task(path).support.rows:
            pred = predicted(shown["concepts"], ["d1", "d2"], row)
            assert pred["d1"] + pred["d2"] == sum(row)
    assert record["unseen_values"] == {"d1": [5, 6, 7, 8, 9], "d2": [5, 6, 7, 8, 9]}


OBJECTS_TASK = """
objects: {count: 2, attributes: {colour: [red, blue], shape: [square, circle]}}
labels:
  same: And(Eq(colour_1, colour_2), Eq(shape_1, shape_2))
mode: objects
"""


def test_objects_mode_maps_read_attributes_of_other_objects_and_keep_every_label(cli, tmp_path):
    path = tmp_path / "pairs.yaml"
    path.write_text(OBJECTS_TASK)
    record = cli("explain", path, "--show", "100", "--json").json()
    task = load_task(path)
    assert record["mode"] == "objects"
    assert record["count"] == count(task, "exact", "objects").count > 1
    names = task.names
    for shown in record["maps"]:
        for row in task.support.rows:
            pred = predicted(shown["concepts"], names, row)
            same = pred["colour_1"] == pred["colour_2"] and pred["shape_1"] == pred["shape_2"]
            assert same == (row[0] == row[2] and row[1] == row[3])
    texts = " | ".join(m["text"] for m in record["maps"])
    assert re.search(r"colour_1 <- shape_\d: square->(red|blue), circle->(red|blue)", texts)


def test_a_task_without_shortcuts_says_so(cli):
    run = cli("explain", XOR3, "--concept-sup", "1")
    assert run.code == 0
    assert "1 optimal map, 0 reasoning shortcuts" in run.out and "no reasoning shortcuts" in run.out


def test_joint_mode_is_refused_with_one_line(cli):
    run = cli("explain", XOR3, "--mode", "joint")
    assert run.code == 2
    assert run.err.startswith("rscount: error: ") and "joint" in run.err and len(run.err.splitlines()) == 1


def test_unidentified_concepts_are_those_some_optimal_map_changes(cli):
    """explain's `unidentified` against every optimal map listed: a concept is unidentified exactly
    when some map makes predicted c read another concept or move one of its values."""
    # exhaustive AND: the concepts may swap (AND is symmetric) but never flip a value
    found = cli("explain", REPO / "tasks" / "and3.yaml", "--json").json()
    names = ("c1", "c2", "c3")
    assert found["unidentified"] == {
        c: {"reads": [o for o in names if o != c], "remapped": False, "moved": []} for c in names
    }
    for args in (["--examples", "2"], ["--examples", "3", "--seed", "4"]):
        every = cli("explain", REPO / "tasks" / "xor3.yaml", *args, "--show", "1000", "--json").json()
        assert len(every["maps"]) == every["count"] - 1  # all shortcuts listed
        moved = {name for m in every["maps"] for name in m["involves"]}
        assert set(every["unidentified"]) == moved


def test_text_groups_the_shortcuts_shown_by_the_concepts_they_involve(cli):
    run = cli("explain", REPO / "tasks" / "xor3.yaml", "--examples", "1", "--show", "5")
    assert run.code == 0
    lines = run.out.splitlines()
    heads = [line.strip() for line in lines if line.strip().startswith("involving ")]
    assert heads and len(heads) == len(set(heads))  # one heading per group
    assert "concepts whose meaning the training data does not pin: c1 (may read c2, c3" in run.out


def _declined(*args):
    raise TooManyNodes("the search is not asked here")


@settings(max_examples=examples(20), **SETTINGS)
@given(st.one_of(plain_tasks(), object_tasks()))
def test_every_map_listed_by_search_or_by_sat_explains_alike(drawn: Drawn):
    """Small counts list every map: by the search method's pinned counts, or by SAT when the search
    declines; the maps shown, their order, the summary and the unidentified concepts are the same."""
    mode = "disentangled" if drawn.problem.objects is None else "objects"
    by_search = explain(drawn.task(), mode, show=50).to_dict()
    with mock.patch.object(simplest, "searched_maps", _declined):
        by_sat = explain(drawn.task(), mode, show=50).to_dict()
    for key in ("count", "maps", "summary", "unidentified", "stopped"):
        assert by_search[key] == by_sat[key], key
