"""Supports read from annotation files (CSV, JSON lines): de-duplicated rows count like the same
rows listed in the task file, label columns are checked against the knowledge, and every problem
names the file and line or column."""

from __future__ import annotations

import json
import random

import pytest

from rscount import count
from rscount.errors import RscountError
from rscount.knowledge.loading import load_task

TASK = """\
name: add4
concepts:
  d1: [0, 1, 2, 3]
  d2: [0, 1, 2, 3]
labels:
  s: d1 + d2
support: {support}
"""


def examples(n: int, seed: int = 3) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(rng.randrange(3), rng.randrange(4)) for _ in range(n)]  # d1 = 3 never seen


def write_csv(path, rows, label=True, extra=True) -> None:
    head = ["image"] * extra + ["d1", "d2"] + ["s"] * label
    lines = [",".join(head)]
    for n, (a, b) in enumerate(rows):
        lines.append(",".join([f"img{n}.png"] * extra + [str(a), str(b)] + [str(a + b)] * label))
    path.write_text("\n".join(lines) + "\n")


def test_csv_support_counts_like_its_distinct_rows_listed_in_the_file(tmp_path):
    rows = examples(60)
    write_csv(tmp_path / "train.csv", rows)
    (tmp_path / "from-csv.yaml").write_text(TASK.format(support="{file: train.csv}"))
    listed = [list(r) for r in dict.fromkeys(rows)]
    (tmp_path / "listed.yaml").write_text(TASK.format(support=json.dumps(listed)))
    from_csv, from_list = load_task(tmp_path / "from-csv.yaml"), load_task(tmp_path / "listed.yaml")
    assert from_csv.support.rows == from_list.support.rows
    assert count(from_csv, method="exact").count == count(from_list, method="enumerate").count
    source = from_csv.support.source
    assert (source["examples"], source["distinct"]) == (60, len(listed))
    assert source["label_columns"] == ["s"] and source["ignored_columns"] == ["image"]


def test_json_lines_support_accepts_numbers_strings_and_booleans(tmp_path):
    (tmp_path / "t.yaml").write_text(
        "concepts: {a: [0, 1], colour: [red, blue]}\nlabels:\n  y: a & Eq(colour, 'red')\n"
        "support: {file: train.jsonl}\n"
    )
    lines = [
        {"a": True, "colour": "red", "y": 1},
        {"a": 0, "colour": "blue", "y": False},
        {"a": 1, "colour": "red", "y": 1},
    ]
    (tmp_path / "train.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    task = load_task(tmp_path / "t.yaml")
    assert task.support.rows == ((1, "red"), (0, "blue"))
    assert task.support.source["examples"] == 3


def test_label_cells_that_contradict_the_knowledge_are_named_by_line(tmp_path):
    rows = examples(10)
    write_csv(tmp_path / "train.csv", rows)
    text = (tmp_path / "train.csv").read_text().splitlines()
    for line in (3, 5, 6, 8, 9):  # 1-based file lines 3, 5, ...: wrong sums
        cells = text[line - 1].split(",")
        cells[-1] = str(int(cells[-1]) + 1)
        text[line - 1] = ",".join(cells)
    (tmp_path / "train.csv").write_text("\n".join(text) + "\n")
    (tmp_path / "t.yaml").write_text(TASK.format(support="{file: train.csv}"))
    with pytest.raises(RscountError) as caught:
        load_task(tmp_path / "t.yaml")
    message = str(caught.value)
    assert "train.csv: 5 label cells contradict the knowledge" in message
    assert "line 3: s = " in message and "line 5: s = " in message and "and 2 more" in message


def test_concept_supervision_can_come_from_a_file(tmp_path):
    rows = examples(20)
    write_csv(tmp_path / "train.csv", rows)
    write_csv(tmp_path / "supervised.csv", rows[:2], label=False, extra=False)
    (tmp_path / "t.yaml").write_text(
        TASK.format(support="{file: train.csv}") + "concept_supervision: {file: supervised.csv}\n"
    )
    task = load_task(tmp_path / "t.yaml")
    assert task.support.supervised == frozenset(rows[:2])


@pytest.mark.parametrize(
    ("content", "suffix", "expected"),
    [
        ("d1,image\n1,x.png\n", "csv", "no column for concept 'd2'"),
        ("d1,d2\n1,7\n", "csv", "train.csv:2: value '7' of d2 is outside its domain"),
        ("d1,d2\n1,2\n1\n", "csv", "train.csv:3: 1 cells, but the header has 2"),
        ("d1,d2\n", "csv", "no examples"),
        ("", "csv", "empty file"),
        ('{"d1": 1, "d2": 2}\n{"d1": 1,\n', "jsonl", "train.jsonl:2: invalid JSON"),
        ("[1, 2]\n", "jsonl", "train.jsonl:1: expected a JSON object per line"),
        ('{"d1": 1}\n', "jsonl", "no column for concept 'd2'"),
    ],
)
def test_malformed_annotation_files_are_refused_naming_file_and_line(tmp_path, content, suffix, expected):
    (tmp_path / f"train.{suffix}").write_text(content)
    (tmp_path / "t.yaml").write_text(TASK.format(support=f"{{file: train.{suffix}}}"))
    with pytest.raises(RscountError, match=expected.replace("(", r"\(").replace("[", r"\[")):
        load_task(tmp_path / "t.yaml")


def test_a_missing_annotation_file_is_a_user_error(cli, tmp_path):
    (tmp_path / "t.yaml").write_text(TASK.format(support="{file: nowhere.csv}"))
    run = cli("count", tmp_path / "t.yaml")
    assert run.code == 2 and "nowhere.csv: cannot read" in run.err and "Traceback" not in run.err


def test_file_support_takes_no_other_keys(tmp_path):
    write_csv(tmp_path / "train.csv", examples(5))
    (tmp_path / "t.yaml").write_text(TASK.format(support="{file: train.csv, seed: 1}"))
    with pytest.raises(RscountError, match=r"support: unknown key 'seed' \(known: file, format, task\)"):
        load_task(tmp_path / "t.yaml")
