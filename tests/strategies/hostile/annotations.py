"""Annotation files: CSV and JSON lines supports and concept supervision (damaged cells, rows, headers
and delimiters; huge files), `forecast --test` vectors (files or inline rows), and the benchmarks' own
files (KANDY annotations.csv with symbol trees, CLEVR scene JSON)."""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

from hypothesis import strategies as st

from strategies.hostile.cases import COUNTING, Case
from strategies.hostile.values import LONG, raw_transform, to_yaml

CSV_CONCEPTS = {"c1": [0, 1], "c2": [0, 1, 2], "col": ["red", "green"]}
CSV_LABEL = "c1 & (c2 == 2)"
CELLS = [
    "0",
    "1",
    "2",
    "red",
    "green",
    " 1 ",
    "1.0",
    "01",
    "-1",
    "3",
    "true",
    "false",
    "True",
    "FALSE",
    "",
    "x",
    "NaN",
    "inf",
    "1e3",
    '"1"',
    "null",
    "None",
    "[1]",
    "{}",
    LONG,
    "\x00",
    "é",
    "²",
    "\u00a0",
]
COLUMNS = ["c1", "c2", "col", "y", "extra", " c1", "C1", "c1 ", "", "\ufeffc1", "y"]


def good_row(i: int) -> list[str]:
    c1, c2, col = i % 2, (i // 2) % 3, ["red", "green"][(i // 6) % 2]
    return [str(c1), str(c2), col, str(int(c1 == 1 and c2 == 2))]


@st.composite
def csv_text(draw: st.DrawFn) -> bytes:
    if draw(st.booleans()):
        header = ["c1", "c2", "col", "y"]
        rows = [good_row(i) for i in range(draw(st.integers(0, 12)))]
        for _ in range(draw(st.integers(0, 3))):  # damage a few cells or rows
            if rows:
                r = draw(st.integers(0, len(rows) - 1))
                kind = draw(st.sampled_from(["cell", "short", "long"]))
                if kind == "cell":
                    cell = draw(st.sampled_from(CELLS) | st.text(max_size=4))
                    if rows[r]:
                        rows[r][draw(st.integers(0, len(rows[r]) - 1))] = cell
                    else:
                        rows[r].append(cell)
                elif kind == "short":
                    rows[r] = rows[r][: draw(st.integers(0, 3))]
                else:
                    rows[r] = rows[r] + ["1"] * draw(st.integers(1, 3))
        if draw(st.integers(0, 3)) == 0:
            header = draw(st.permutations(header + draw(st.lists(st.sampled_from(COLUMNS), max_size=2))))
    else:
        header = draw(st.lists(st.sampled_from(COLUMNS), max_size=6))
        rows = draw(st.lists(st.lists(st.sampled_from(CELLS) | st.text(max_size=4), max_size=7), max_size=6))
    size = draw(st.sampled_from(["small", "small", "small", "many", "wide"]))
    if size == "many":
        rows += [good_row(i) for i in range(draw(st.integers(100, 5000)))]
    elif size == "wide":
        rows.append(["1"] * draw(st.integers(100, 20_000)))
    delimiter = draw(st.sampled_from([",", ",", ",", ";", "\t"]))
    buffer = io.StringIO()
    if draw(st.booleans()):
        writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        text = buffer.getvalue()
    else:  # by hand: quotes and delimiters inside cells stay unbalanced
        text = "".join(delimiter.join(r) + "\n" for r in [header, *rows])
    return draw(raw_transform(text.encode("utf-8", "surrogatepass")))


JSON_VALUES = [
    0,
    1,
    2,
    "0",
    "1",
    "red",
    "green",
    True,
    False,
    None,
    1.0,
    0.5,
    10**30,
    [],
    {},
    [1],
    {"a": 1},
    "x" * 1000,
    "",
    math.nan,
    math.inf,
]


@st.composite
def jsonl_text(draw: st.DrawFn) -> bytes:
    lines = []
    for i in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["good", "good", "good", "object", "raw"]))
        if kind == "good":
            c1, c2, col, y = good_row(i)
            lines.append(json.dumps({"c1": int(c1), "c2": int(c2), "col": col, "y": int(y)}))
        elif kind == "object":
            keys = draw(st.lists(st.sampled_from(["c1", "c2", "col", "y", "extra", ""]), max_size=5))
            lines.append(json.dumps({k: draw(st.sampled_from(JSON_VALUES)) for k in keys}))
        else:
            lines.append(
                draw(
                    st.sampled_from(
                        [
                            "{",
                            "[1, 2, 3]",
                            "3",
                            '"str"',
                            "null",
                            "",
                            "   ",
                            '{"c1": 0, "c1": 1, "c2": 0, "col": "red"}',
                            '{"c1": ' + "1" * 5000 + ', "c2": 0, "col": "red"}',
                            "[" * 100_000 + "]" * 100_000,
                            '{"c1": NaN, "c2": Infinity, "col": "red"}',
                            '{"c1": 1e400, "c2": 0, "col": "red"}',
                            "\ufeff{}",
                            '{"c1": "\\ud800", "c2": 0, "col": "red"}',
                        ]
                    )
                )
            )
    text = "\n".join(lines) + draw(st.sampled_from(["\n", ""]))
    return draw(raw_transform(text.encode("utf-8")))


@st.composite
def annotation_cases(draw: st.DrawFn) -> Case:
    if draw(st.booleans()):
        name, data = draw(st.sampled_from(["data.csv", "data.csv", "data.txt"])), draw(csv_text())
    else:
        name, data = draw(st.sampled_from(["data.jsonl", "data.ndjson"])), draw(jsonl_text())
    task: dict[str, Any] = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}}
    where = draw(st.sampled_from(["support", "support", "supervision", "both"]))
    if where in ("support", "both"):
        task["support"] = {"file": name}
    if where in ("supervision", "both"):
        task["concept_supervision"] = {"file": name}
    command = draw(st.sampled_from(["count", "check"]))
    return Case({"task.yaml": to_yaml(task), name: data}, [command, "task.yaml", *COUNTING])


INLINE_ROWS = [
    "[[0, 2, red]]",
    "[[1, 0, green], [0, 1, red]]",
    "[[0, 3, red]]",
    "[[0, 2]]",
    "[0, 2, red]",
    "{c1: 0, c2: 2, col: red}",
    "[{c1: 0, c2: 2, col: blue}]",
    "[[" * 3000,
    "!!python/object/apply:os.system ['echo hacked']",
    "&a [*a]",
    "[]",
    "",
    "no/such/file.csv",
]


@st.composite
def hostile_test_vector_cases(draw: st.DrawFn) -> Case:
    """`forecast --test`: test vectors as a CSV or JSON lines file (damaged or not), a YAML file of
    hostile values, or rows written inline."""
    task = {"concepts": CSV_CONCEPTS, "labels": {"y": CSV_LABEL}, "support": [[1, 2, "red"], [0, 1, "green"]]}
    files = {"task.yaml": to_yaml(task)}
    kind = draw(st.sampled_from(["csv", "jsonl", "yaml", "inline"]))
    if kind == "csv":
        files["test.csv"], where = draw(csv_text()), "test.csv"
    elif kind == "jsonl":
        files["test.jsonl"], where = draw(jsonl_text()), "test.jsonl"
    elif kind == "yaml":
        files["test.yaml"], where = (
            draw(raw_transform(to_yaml([[0, 2, "red"], [1, 1, "green"]]))),
            "test.yaml",
        )
    else:
        where = draw(st.sampled_from(INLINE_ROWS))
    return Case(files, ["forecast", "task.yaml", "--test", where, *COUNTING])


OBJECT_TASK = {
    "objects": {"count": 2, "attributes": {"shape": ["square", "circle"], "color": ["red", "blue"]}},
    "labels": {"y": "Ne(shape_1, shape_2)"},
}
LEAVES = ['{"shape": "square", "color": "red"}', '{"shape": "circle", "color": "blue"}']
SYMBOL_PIECES = [
    *LEAVES,
    "stack(",
    "side_by_side([",
    "[",
    "]",
    ")",
    "{",
    "}",
    ",",
    ":",
    '"shape"',
    "'red'",
    "__import__('os')",
    ".system",
    "lambda x: x",
    "1" * 5000,
    "[" * 5000,
    "\\",
    '"',
    "\x00",
]


@st.composite
def symbol_text(draw: st.DrawFn) -> str:
    """A KANDY symbol cell: a well-formed tree, or pieces of trees and hostile tokens run together."""
    if draw(st.booleans()):
        return f"stack([{draw(st.sampled_from(LEAVES))}, {draw(st.sampled_from(LEAVES))}])"
    return "".join(draw(st.lists(st.sampled_from(SYMBOL_PIECES), max_size=8)))


@st.composite
def benchmark_file_cases(draw: st.DrawFn) -> Case:
    """KANDY annotations.csv and CLEVR scene JSON files, well-formed or damaged, as supports."""
    if draw(st.booleans()):
        rows = [
            f"i.png,{draw(st.sampled_from(['1', '2', 'x', '']))},{draw(st.sampled_from(['0', '1', '2']))},"
            f'{draw(st.sampled_from(["0", "1"]))},"{draw(symbol_text()).replace(chr(34), chr(34) * 2)}"'
            for _ in range(draw(st.integers(0, 4)))
        ]
        text = "filename,task_id,label,supervised,symbol\n" + "\n".join(rows)
        name, extra = (
            "annotations.csv",
            draw(st.sampled_from([{}, {"task": 1}, {"task": "x"}, {"format": "kandy"}])),
        )
    else:
        scene = draw(
            st.sampled_from(
                [
                    '{"objects": [' + LEAVES[0] + ", " + LEAVES[1] + "]}",
                    '{"objects": [' + LEAVES[0] + "]}",
                    '{"objects": [{"shape": "cube", "color": "red"}, ' + LEAVES[1] + "]}",
                    '{"objects": {}}',
                    "[]",
                    '{"objects": [' + "[" * 3000 + "]" * 3000 + "]}",
                ]
            )
        )
        text = '{"scenes": [' + ", ".join([scene] * draw(st.integers(0, 3))) + "]}"
        name, extra = "scenes.json", draw(st.sampled_from([{}, {"format": "clevr"}, {"task": 1}]))
    task = {**OBJECT_TASK, "support": {"file": name, **extra}}
    data = draw(raw_transform(text.encode("utf-8")))
    return Case(
        {"task.yaml": to_yaml(task), name: data},
        [draw(st.sampled_from(["count", "check"])), "task.yaml", *COUNTING],
    )
