"""The forecast (what a uniformly drawn optimal map reads, where values go, expected concept and
label accuracy) against a brute force that lists every optimal map and evaluates it directly."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_maps, brute_force_object_maps
from references.forecast import assert_matches, reference
from strategies.objecttasks import object_tasks, symmetric_object_tasks
from strategies.randomtasks import SETTINGS, specs, symmetric_specs
from support import REPO, examples

from rscount import NotApplicable, load_task
from rscount.counting.budget import TooManyNodes
from rscount.counting.engines import group_tables
from rscount.insight import forecast as forecast_module
from rscount.insight import simplest
from rscount.insight.forecast import forecast
from rscount.knowledge.loading import task_from_dict

TASKS = REPO / "tasks"


ROUTES = pytest.mark.parametrize(
    "route",
    [
        "listed by search",
        "listed by SAT",
        "marginals by search",
        "marginals by decomposition",
        "marginals by decomposition, classes found afresh",
    ],
)


def _declined(*args):
    raise TooManyNodes("the search is not asked here")


@contextlib.contextmanager
def _by(route: str) -> Iterator[None]:
    """Forecast from every map (the default for small counts: listed by the search method's pinned
    counts, or by SAT when the search declines) or from marginals (by pinned counts or by the
    decomposition, over the classes the count kept or found afresh), whichever method counted."""
    tallies = forecast_module.class_tallies
    with contextlib.ExitStack() as stack:
        if route.startswith("marginals"):
            stack.enter_context(mock.patch.object(simplest, "LISTED_MAX", -1))

            def routed(task, mode, progress, _counted_by_search, counted=None):
                kept = None if route.endswith("afresh") else counted
                return tallies(task, mode, progress, route == "marginals by search", counted=kept)

            stack.enter_context(mock.patch.object(forecast_module, "class_tallies", routed))
        elif route == "listed by SAT":
            stack.enter_context(mock.patch.object(simplest, "searched_maps", _declined))
        yield


def _matches_brute_force(spec, data, most: int) -> None:
    """The forecast of a random task, with up to `most` random test vectors, equals the reference."""
    rows = list(product(*(range(n) for n in spec.sizes)))
    drawn = data.draw(st.lists(st.sampled_from(rows), min_size=1, max_size=most, unique=True))
    test = [spec.vector(r) for r in drawn]
    task = spec.task()
    domains, label_fn, support, supervised = spec._reference()
    maps = brute_force_maps(domains, label_fn, support, supervised)
    expected = reference(domains, label_fn, maps, list(task.support.rows), test)
    assert_matches(forecast(task, test=test), expected, task.names)


@ROUTES
@settings(max_examples=examples(12), **SETTINGS)
@given(specs(max_rows=6, max_space=18), st.data())
def test_forecast_equals_the_brute_force_over_every_optimal_map(route, spec, data):
    with _by(route):
        _matches_brute_force(spec, data, 3)


@ROUTES
@settings(max_examples=15, **SETTINGS)
@given(symmetric_specs(exhaustive=False), st.data())
def test_forecast_averages_symmetry_classes_as_the_brute_force_sees_them(route, spec, data):
    """Knowledge symmetric in every concept: a permutation class holds many permutations, which the
    forecast averages in closed form."""
    with _by(route):
        _matches_brute_force(spec, data, 2)


@ROUTES
@settings(max_examples=examples(6), **SETTINGS)
@given(st.one_of(object_tasks(), symmetric_object_tasks()), st.data())
def test_objects_forecast_equals_the_brute_force(route, drawn, data):
    task, n, attributes, label_fn, support, supervised = drawn
    test = [data.draw(st.sampled_from(list(product(*task.domains))))]
    domains = task.domains
    maps = brute_force_object_maps(n, attributes, label_fn, support, supervised)
    expected = reference(domains, label_fn, maps, list(task.support.rows), test)
    with _by(route):
        assert_matches(forecast(task, test=test), expected, task.names)


def test_exhaustive_xor_reads_every_concept_alike_and_is_right_half_the_time():
    found = forecast(load_task(TASKS / "xor3.yaml"))
    assert found.count == 24
    assert all(p == Fraction(1, 3) for row in found.reads.values() for p in row.values())
    assert set(found.accuracy.values()) == {Fraction(1, 2)}


def test_supervision_shows_up_as_concepts_read_correctly():
    data = {
        "concepts": {"a": [0, 1], "b": [0, 1]},
        "labels": {"y": "a & b"},
        "support": [[1, 1], [0, 1]],
        "concept_supervision": [[0, 1]],
    }
    found = forecast(task_from_dict(data))
    # supervising (0, 1) pins a <- a (0 -> 0) and b <- b (1 -> 1), (1, 1) keeping y = 1 pins a's 1;
    # b = 0 is in no training vector, so it goes either way
    assert found.count == 2
    assert found.reads["a"]["a"] == found.reads["b"]["b"] == 1
    assert found.accuracy == {"a": 1, "b": 1}
    assert found.values["b"]["0"] == {"0": Fraction(1, 2), "1": Fraction(1, 2)}


def test_forecast_refuses_the_modes_without_concept_permutations():
    task = load_task(TASKS / "xor3.yaml")
    for mode in ("joint", "jrs"):
        with pytest.raises(NotApplicable):
            forecast(task, mode)


def test_cli_forecast_prints_fractions_and_floats(cli, tmp_path):
    rows = tmp_path / "test.yaml"
    rows.write_text("- [0, 0, 0]\n- [1, 1, 1]\n")
    out = cli("forecast", TASKS / "xor3.yaml", "--examples", "1", "--test", rows, "--json")
    assert out.code == 0, out.err
    record = json.loads(out.out)
    assert record["count"] == 192
    assert record["reads"]["c1"]["c1"] == "1/3"
    assert record["accuracy_float"]["c1"] == float(Fraction(record["accuracy"]["c1"]))
    assert record["test"]["rows"] == 2


def test_cli_forecast_reads_inline_test_rows_and_writes_a_heat_map(cli, tmp_path):
    plot = tmp_path / "reads.png"
    out = cli("forecast", TASKS / "xor3.yaml", "--test", "[[0, 1, 1]]", "--plot", plot)
    assert out.code == 0, out.err
    assert "reads" in out.out and "label accuracy" in out.out
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_cli_forecast_names_a_test_row_outside_the_domains(cli):
    out = cli("forecast", TASKS / "xor3.yaml", "--test", "[[0, 2, 1]]")
    assert out.code == 2
    assert "value 2 of c2" in out.err and "\n" not in out.err.strip()


@settings(max_examples=15, **SETTINGS)
@given(specs(max_rows=6, max_space=18))
def test_label_group_marginals_by_sdd_equal_those_by_table(spec):
    task = spec.task()
    by_table = forecast(task)
    with mock.patch.object(group_tables, "SPACE_LIMIT", 0):
        by_sdd = forecast(task)
    assert (by_sdd.count, by_sdd.reads, by_sdd.values, by_sdd.accuracy) == (
        by_table.count,
        by_table.reads,
        by_table.values,
        by_table.accuracy,
    )


@pytest.mark.parametrize(
    ("path", "examples"), [("xor3.yaml", "1"), ("mnadd-evenodd.yaml", None), ("kand-logic-2.yaml", None)]
)
def test_sampled_forecast_lies_within_its_stated_margin_of_the_exact_one(path, examples, cli):
    """Hoeffding's margin holds for each figure with probability 0.95, so nearly all figures of a
    draw of 400 maps must lie within it (it is conservative: in practice all do)."""
    task = load_task(TASKS / path)
    if examples:
        task = task.with_support([[0, 1, 1]])
    test = [task.support.rows[0]]
    exact = forecast(task, test=test)
    for seed in (1, 2):
        estimate = forecast(task, test=test, samples=400, seed=seed)
        assert estimate.count == exact.count and estimate.margin == pytest.approx(0.0679, abs=1e-3)
        pairs = [(estimate.accuracy[c], exact.accuracy[c]) for c in task.names]
        pairs += [(estimate.reads[j][i], exact.reads[j][i]) for j in task.names for i in task.names]
        pairs += [
            (estimate.values[c][v].get(w, 0), p)
            for c, table in exact.values.items()
            for v, row in table.items()
            for w, p in row.items()
        ]
        pairs.append((estimate.test["label_accuracy"], exact.test["label_accuracy"]))
        inside = sum(abs(a - b) <= estimate.margin for a, b in pairs)
        assert inside >= 0.95 * len(pairs)


def test_cli_forecast_says_when_it_estimates(cli):
    run = cli("forecast", TASKS / "xor3.yaml", "--samples", "100", "--json")
    record = run.json()
    assert not record["exact"] and record["samples"] == 100 and 0 < record["margin"] < 0.2
    text = cli("forecast", TASKS / "xor3.yaml", "--samples", "100").out
    assert "estimated from 100 uniform draws" in text
