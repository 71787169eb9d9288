"""Joint reasoning shortcuts (--mode jrs): pairs (concept map A, inference layer B) fitting every training
label, against an independent brute force over (sigma, V, g) and the figures of the design note."""

from __future__ import annotations

import json
import math
from itertools import product

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pyeda.inter import expr, exprvar
from references.jrs import brute_force_jrs
from strategies.randomtasks import SETTINGS, Spec, specs
from support import REPO

from rscount import NotApplicable, count, task_from_dict
from rscount.counting.methods.jrs.kernels import fitting_maps, intended_maps
from rscount.insight.jrs_pairs import layer_text

OR3 = (
    "concepts: {a: [0, 1], b: [0, 1], c: [0, 1]}\nlabels:\n  y: a | b | c\nsupport: [[0, 0, 1], [1, 1, 0]]\n"
)


TABLE = [
    ({"a": [0, 1], "b": [0, 1]}, "a & b", "exhaustive", 8),
    ({"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "a ^ b ^ c", "exhaustive", 48),
    ({"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "a & b & c", "exhaustive", 48),
    ({"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "a | b | c", [[0, 0, 1], [1, 1, 0]], 3840),
    ({"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "a ^ b ^ c", [[0, 1, 1]], 7632),
]


@pytest.mark.parametrize(("concepts", "label", "support", "expected"), TABLE)
def test_design_note_figures_for_plain_tasks(concepts, label, support, expected):
    task = task_from_dict({"concepts": concepts, "labels": {"y": label}, "support": support})
    result = count(task, mode="jrs")
    assert result.count == expected
    assert result.details["intended"] == 48 if len(concepts) == 3 else 8


@pytest.mark.parametrize(
    ("support", "expected"), [([[0, 0], [0, 1], [1, 2], [2, 2]], 408), ([[0, 0], [1, 1], [0, 2]], 840)]
)
def test_design_note_figures_for_two_objects(support, expected):
    data = {"objects": {"count": 2, "attributes": {"a": [0, 1, 2]}}, "labels": {"y": "Eq(a_1, a_2)"}}
    result = count(task_from_dict({**data, "support": support}), mode="jrs")
    assert (result.count, result.details["intended"]) == (expected, 12)
    assert result.shortcuts == result.details["joint_shortcuts"] == expected - 12


@settings(max_examples=60, **SETTINGS)
@given(specs(max_rows=4))
def test_plain_tasks_agree_with_the_brute_force(spec: Spec):
    task = spec.task()
    pairs, intended, loose = brute_force_jrs(task)
    result = count(task, mode="jrs")
    assert result.count == pairs
    assert result.details["intended"] == intended
    assert result.details["not_identified"] == [task.names[v] for v in sorted(loose)]
    if not task.support.supervised:
        assert intended == intended_maps(task)


OBJECT_LABELS = {
    1: ["Eq(a_1, 1)", "a_1 + b_1 >= 2"],
    2: ["Eq(a_1, a_2)", "Ne(a_1, b_2) | Eq(b_1, 0)", "a_1 + a_2 > b_1"],
    3: ["Eq(a_1, a_2) & Ne(a_2, a_3)", "a_1 + a_2 + a_3 >= 2"],
}


@st.composite
def object_tasks(draw):
    """1-3 objects, attribute a (2-3 values) and, with fewer objects, b (2 values); a label from a
    few shapes; a random support with random concept supervision."""
    n = draw(st.integers(1, 3))
    attributes = {"a": list(range(draw(st.integers(2, 3 if n < 3 else 2))))}
    labels = [x for x in OBJECT_LABELS[n] if "b_" not in x or n < 3]
    if any("b_" in x for x in labels) and n < 3:
        attributes["b"] = [0, 1]
    label = draw(st.sampled_from(labels))
    if "b_" in label and "b" not in attributes:
        label = labels[0]
    if "b_" not in label:
        attributes.pop("b", None)
    data = {
        "objects": {"count": n, "attributes": attributes},
        "labels": {"y": label},
        "support": "exhaustive",
    }
    task = task_from_dict(data)
    rows = list(product(*(list(c.values) for c in task.concepts)))
    support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=4, unique=True))
    supervised = draw(st.lists(st.sampled_from(support), max_size=1))
    return task.with_support(support, supervised)


@settings(max_examples=40, **SETTINGS)
@given(object_tasks())
def test_object_tasks_agree_with_the_brute_force(task):
    pairs, intended, loose = brute_force_jrs(task)
    result = count(task, mode="jrs")
    assert (result.count, result.details["intended"]) == (pairs, intended)
    names = [name for name, _ in task.objects.attributes]
    assert result.details["not_identified"] == [names[v] for v in sorted(loose)]


def test_count_json_states_count_intended_and_joint_shortcuts(cli, tmp_path):
    path = tmp_path / "or3.yaml"
    path.write_text(OR3)
    record = cli("count", path, "--mode", "jrs", "--json").json()
    assert (record["count"], record["intended"], record["joint_shortcuts"]) == (3840, 48, 3792)
    assert record["shortcuts"] == 3792 and record["mode"] == "jrs"
    text = cli("count", path, "--mode", "jrs").out
    assert "joint reasoning shortcuts: 3792" in text


def test_jrs_mode_has_no_cnf_and_no_other_method(cli, tmp_path):
    run = cli("xor", "--bits", "3", "--mode", "jrs", "--emit", tmp_path / "x.cnf")
    assert run.code == 2 and "the jrs mode has no CNF" in run.err
    run = cli("xor", "--bits", "3", "--mode", "jrs", "--method", "sdd")
    assert run.code == 2 and "counted by its own sum" in run.err


@pytest.mark.parametrize("method", ["auto", "exact", "closed-form"])
def test_the_jrs_mode_chooses_its_own_sum_stated_as_a_closed_form(method):
    result = count(task_from_dict(yaml.safe_load(OR3)), method, mode="jrs")
    assert (result.count, result.method, result.details["closed_form"]) == (
        3840,
        "closed-form",
        "joint reasoning shortcuts",
    )


def test_a_refused_jrs_sum_says_why(monkeypatch):
    from rscount.counting.methods.jrs import kernels

    monkeypatch.setattr(kernels, "PARTITION_LIMIT", 1)
    with pytest.raises(NotApplicable, match="closed-form: the jrs count sums over .* kernel combinations"):
        count(task_from_dict(yaml.safe_load(OR3)), mode="jrs")


def test_jrs_is_a_mode_not_a_method(cli):
    run = cli("xor", "--bits", "3", "--method", "jrs")
    assert run.code == 2 and run.err.startswith("rscount: error: --method: unknown method 'jrs'")
    assert len(run.err.splitlines()) == 1 and "jrs" not in run.err.split("choose from")[1]


def test_check_says_whether_concepts_and_inference_layer_are_jointly_identifiable(cli, tmp_path):
    xor = cli("check", REPO / "tasks" / "xor3.yaml", "--mode", "jrs").out
    assert "concepts and inference layer: identifiable up to relabelling values" in xor
    path = tmp_path / "eq.yaml"
    path.write_text(
        "objects: {count: 2, attributes: {a: [0, 1, 2]}}\nlabels:\n  y: Eq(a_1, a_2)\n"
        "support: [[0, 0], [0, 1], [1, 2], [2, 2]]\n"
    )
    out = cli("check", path, "--mode", "jrs").out
    assert "not jointly identifiable; concepts some fitting pair merges or resizes: a" in out
    assert out.strip().endswith("verdict: 396 joint reasoning shortcuts")


def test_a_jrs_count_too_long_to_print_is_stated_as_its_exact_expression(cli):
    record = cli("count", REPO / "tasks" / "kand-logic-2.yaml", "--mode", "jrs", "--json").json()
    assert record["count"] is None and record["count_digits"] > 100_000
    expression = record["count_expression"]
    assert expression.startswith("720 * (72 * 2^531241 + ")
    factor, inner = expression.split(" * (", 1)
    terms = [t.split(" * 2^") for t in inner[:-1].split(" + ")]
    value = int(factor) * sum(int(c) * 2 ** int(e) for c, e in terms)
    assert math.floor(math.log10(value)) + 1 == record["count_digits"]
    assert record["joint_shortcuts"] is None  # too long to print: the count's expression minus intended
    assert record["intended"] == 51840


def test_report_counts_joint_reasoning_shortcuts_in_the_jrs_mode(cli, tmp_path):
    out = tmp_path / "report.json"
    assert cli("report", REPO / "tasks" / "xor3.yaml", "--mode", "jrs", "--json", out).code == 0
    entry = json.loads(out.read_text())["tasks"][0]
    assert (entry["mode"], entry["count"], entry["shortcuts"], entry["status"]) == ("jrs", 48, 0, "free")
    # the task's pin (24, in its own mode) is not applied
    assert entry["verdict"] == "free of joint reasoning shortcuts"


@settings(max_examples=30, **SETTINGS)
@given(specs(boolean=True, max_rows=4))
def test_the_inference_layer_shown_fits_every_training_image_of_its_map(spec: Spec):
    task = spec.task()
    for a in list(fitting_maps(task))[:20]:
        text = layer_text(task, a)
        if text.startswith("B: "):  # a label that is not Boolean: B listed on the images
            assert all(f"{list(k)} -> {list(v)}" in text for k, v in list(a.images.items())[:8])
            continue
        for part in text.split("; "):
            label, formula = part.split(" = ")
            n = list(task.labels).index(label)
            for vector, labels in a.images.items():
                point = {exprvar(name): value for name, value in zip(task.names, vector)}
                assert int(expr(formula).restrict(point)) == labels[n], (formula, vector)


def test_explain_shows_maps_that_merge_values_with_their_simplest_layer(cli, tmp_path):
    path = tmp_path / "or3.yaml"
    path.write_text(OR3)
    out = cli("explain", path, "--mode", "jrs", "--show", "2").out
    assert "3840 pairs (concept map, inference layer), 48 intended, 3792 joint reasoning shortcuts" in out
    assert "  1. a: 1->0  |  y = 1" in out and "  3. " not in out
    record = cli("explain", REPO / "tasks" / "xor3.yaml", "--mode", "jrs", "--json").json()
    assert (record["count"], record["shortcuts"], record["maps"]) == (48, 0, [])
