"""Supports from the benchmarks' own annotation files: KANDY's annotations.csv (symbol trees read as
data, never evaluated) and CLEVR-style scene JSON, checked against explicit rows and the brute force."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_objects
from strategies.randomtasks import SETTINGS

from rscount import count, task_from_dict
from rscount.errors import RscountError
from rscount.formats.rows.kandy import symbol_leaves, symbol_tree
from rscount.knowledge.loading import load_task

KANDY_HEADER = "filename,task_id,label,supervised,symbol\n"
TASK = """objects:
  count: 2
  attributes:
    shape: [square, circle, triangle]
    color: [red, blue]
labels:
  y: Ne(shape_1, shape_2) | Eq(color_1, blue)
"""


def leaf(shape: str, color: str, size: str = "small") -> str:
    return json.dumps({"shape": shape, "color": color, "size": size})


def kandy_line(task_id: int, label: int, supervised: int, symbol: str) -> str:
    return f'img.png,{task_id},{label},{supervised},"{symbol.replace(chr(34), chr(34) * 2)}"\n'


def write(tmp_path, files: dict[str, str]):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_kandy_rows_are_the_tree_leaves_of_one_labelled_task(tmp_path):
    lines = [
        kandy_line(3, 1, 1, f"stack([{leaf('square', 'red')}, {leaf('triangle', 'red')}])"),
        kandy_line(
            3, 0, 1, f"side_by_side([diag_ul_lr([{leaf('circle', 'red')}]), {leaf('circle', 'red')}])"
        ),
        kandy_line(3, 1, 0, f"stack([{leaf('square', 'red')}, {leaf('circle', 'blue')}])"),  # unlabelled
        kandy_line(4, 1, 1, f"stack([{leaf('square', 'blue')}, {leaf('square', 'blue')}])"),  # other task
    ]
    write(
        tmp_path,
        {"a.csv": KANDY_HEADER + "".join(lines), "t.yaml": TASK + "support: {file: a.csv, task: 3}\n"},
    )
    task = load_task(tmp_path / "t.yaml")
    assert task.support.rows == (("square", "red", "triangle", "red"), ("circle", "red", "circle", "red"))
    rows = list(task.support.rows)
    attributes = [list(values) for _, values in task.objects.attributes]
    assert count(task, "exact").count == brute_force_objects(2, attributes, task.label_of, rows, set())


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            kandy_line(1, 0, 1, f"stack([{leaf('square', 'red')}, {leaf('circle', 'red')}])"),
            r"a\.csv: 1 label",
        ),
        (kandy_line(1, 1, 1, f"stack([{leaf('square', 'red')}])"), r"a\.csv:2: the symbol has 1 objects"),
        (kandy_line(1, 1, 1, f"[{leaf('cube', 'red')}, {leaf('circle', 'red')}]"), r"a\.csv:2: value 'cube'"),
        (kandy_line(1, 1, 1, '__import__("os").system("true")'), r"a\.csv:2: symbol: unexpected '\.system"),
        (kandy_line(1, 1, 1, "stack([" * 300 + "]" * 300), r"a\.csv:2: symbol: nested too deeply"),
    ],
)
def test_malformed_kandy_rows_name_file_and_line(tmp_path, line, message):
    write(tmp_path, {"a.csv": KANDY_HEADER + line, "t.yaml": TASK + "support: {file: a.csv}\n"})
    with pytest.raises(RscountError, match=message):
        load_task(tmp_path / "t.yaml")


SHAPES = st.sampled_from(["square", "circle", "triangle"])
COLORS = st.sampled_from(["red", "blue"])


@st.composite
def trees(draw, depth: int = 0):
    """A KANDY-like symbol tree as text, with its leaves (shape, color) left to right, and per leaf
    the operator joining it to the next leaf when both are children of one operator (else None)."""
    if depth >= 3 or draw(st.integers(0, 2)) == 0:
        shape, color = draw(SHAPES), draw(COLORS)
        return leaf(shape, color), [(shape, color)], [None], True
    op = draw(st.sampled_from(["stack", "side_by_side", "diag_ul_lr", "quadrant_ul", "in"]))
    parts = draw(st.lists(trees(depth + 1), min_size=1, max_size=3))
    text = f"{op}([{', '.join(p[0] for p in parts)}])"
    links = []
    for n, (_, _, part_links, is_leaf) in enumerate(parts):
        joined = is_leaf and n + 1 < len(parts) and parts[n + 1][3]
        links += [op] if joined else part_links
    return text, [x for p in parts for x in p[1]], links, False


@settings(max_examples=100, **SETTINGS)
@given(trees())
def test_symbol_leaves_are_read_left_to_right_with_the_operator_joining_siblings(tree):
    text, expected, links, _ = tree
    assert [(x["shape"], x["color"]) for x in symbol_leaves(text)] == expected
    assert symbol_tree(text)[1] == links


def test_kandy_operators_become_the_link_attribute_of_a_task_that_has_one(tmp_path):
    task = TASK.replace("color: [red, blue]", "color: [red, blue]\n    link: [stack, side_by_side, none]")
    task = task.replace("count: 2", "count: 3")
    lines = [  # a stack of two beside a third; then three side by side (bounding boxes reduced)
        kandy_line(
            1,
            1,
            1,
            f"side_by_side([stack([{leaf('square', 'red')}, {leaf('circle', 'red')}]), "
            f"{leaf('circle', 'blue')}])",
        ),
        kandy_line(1, 0, 1, "side_by_side_reduce_bb([" + ", ".join([leaf("circle", "red")] * 3) + "])"),
        kandy_line(1, 1, 1, "diag_ul_lr([" + ", ".join([leaf("square", "blue")] * 3) + "])"),
    ]
    write(tmp_path, {"a.csv": KANDY_HEADER + "".join(lines), "t.yaml": task + "support: {file: a.csv}\n"})
    rows = load_task(tmp_path / "t.yaml").support.rows
    assert [row[2::3] for row in rows] == [
        ("stack", "none", "none"),
        ("side_by_side", "side_by_side", "none"),
        ("none", "none", "none"),
    ]


def test_clevr_scenes_give_one_row_per_scene(tmp_path):
    scenes = {
        "info": {"split": "train"},
        "scenes": [
            {
                "objects": [
                    {"color": "red", "shape": "cube", "material": "rubber"},
                    {"color": "red", "shape": "cube"},
                ]
            },
            {"objects": [{"color": "blue", "shape": "star"}, {"color": "red", "shape": "cube"}]},
        ],
    }
    task = """objects:
  count: 2
  attributes:
    color: [red, blue]
    shape: [cube, star]
labels:
  y: Eq(color_1, color_2) & Eq(shape_1, shape_2)
support: {file: scenes.json}
"""
    write(tmp_path, {"scenes.json": json.dumps(scenes), "t.yaml": task})
    loaded = load_task(tmp_path / "t.yaml")
    assert loaded.support.rows == (("red", "cube", "red", "cube"), ("blue", "star", "red", "cube"))
    rows = list(loaded.support.rows)
    attributes = [list(values) for _, values in loaded.objects.attributes]
    assert count(loaded, "exact").count == brute_force_objects(2, attributes, loaded.label_of, rows, set())
    scenes["scenes"][1]["objects"].pop()
    write(tmp_path, {"scenes.json": json.dumps(scenes)})
    with pytest.raises(RscountError, match=r"scenes\.json: scene 2 has 1 objects, but the task has 2"):
        load_task(tmp_path / "t.yaml")


def test_format_is_detected_or_given_and_task_only_selects_kandy_rows(tmp_path):
    line = kandy_line(1, 1, 1, f"stack([{leaf('square', 'red')}, {leaf('circle', 'red')}])")
    write(tmp_path, {"a.txt": KANDY_HEADER + line, "t.yaml": TASK + "support: {file: a.txt}\n"})
    assert load_task(tmp_path / "t.yaml").support.size == 1
    write(tmp_path, {"t.yaml": TASK + "support: {file: a.txt, format: csv, task: 1}\n"})
    with pytest.raises(RscountError, match="task: selects the rows of one task_id"):
        load_task(tmp_path / "t.yaml")
    write(tmp_path, {"t.yaml": TASK + "support: {file: a.txt, format: xml}\n"})
    with pytest.raises(RscountError, match="support.format: 'xml' is not one of csv, jsonl, kandy, clevr"):
        load_task(tmp_path / "t.yaml")


PLAIN = {"concepts": {"a": [0, 1], "b": [0, 1], "c": ["x", "y", "z"]}, "labels": {"y": "(a ^ b) | Eq(c, z)"}}


def test_numpy_annotations_of_values_or_positions_give_the_same_support():
    task = task_from_dict({**PLAIN, "support": "exhaustive"})
    values = task.with_annotations(np.array([[0, 1, "x"], [1, 1, "z"], [0, 1, "x"]], dtype=object))
    positions = task.with_annotations(np.array([[0, 1, 0], [1, 1, 2], [0, 1, 0]]), indices=True)
    assert values.support.rows == positions.support.rows == ((0, 1, "x"), (1, 1, "z"))
    assert count(values, "exact").count == count(task.with_support([[0, 1, "x"], [1, 1, "z"]]), "exact").count


def test_pandas_annotations_take_the_concept_columns_and_name_bad_rows():
    task = task_from_dict({**PLAIN, "support": "exhaustive"})
    frame = pd.DataFrame({"image": ["i0", "i1"], "c": ["y", "x"], "b": [0, 1], "a": [1, 1]})
    assert task.with_annotations(frame).support.rows == ((1, 0, "y"), (1, 1, "x"))
    with pytest.raises(RscountError, match=r"support\[1\]: value 'w' of c is outside its domain"):
        task.with_annotations(frame.assign(c=["y", "w"]))
    with pytest.raises(RscountError, match=r"support\[0\]: no value for concept 'a'"):
        task.with_annotations(frame.assign(a=[None, 1.0]))
    with pytest.raises(RscountError, match=r"support: no column for concept 'a'"):
        task.with_annotations(frame.drop(columns="a"))
    with pytest.raises(RscountError, match=r"support\[0\]: index 3 of c is not in 0\.\.2"):
        task.with_annotations(frame.assign(c=[3, 0]), indices=True)
