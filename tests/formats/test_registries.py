"""The format registries: task-file formats tried in their declared order, program readers by
extension, row formats by name and by what a file holds; and errors that keep the file and line
of the format that refused them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rscount.errors import FormatError, RscountError, TaskError, origin
from rscount.formats.programs import PROGRAM_READERS, read_program
from rscount.formats.rows import DETECTION, ROW_FORMATS, by_suffix, detect
from rscount.formats.task_files import TASK_FORMATS, TaskSource, read_task
from rscount.knowledge.loading import load_task


def test_task_file_formats_are_tried_in_order_and_the_last_claims_every_file(tmp_path):
    assert [f.name for f in TASK_FORMATS] == ["dimacs", "rsbench config", "task file"]
    dimacs = tmp_path / "k.txt"
    dimacs.write_text("c knowledge\np cnf 2 1\n1 2 0\n")
    config = tmp_path / "c.yaml"
    config.write_text("n_digits: 3\nxor_rule: true\n")
    plain = tmp_path / "t.yaml"
    plain.write_text("concepts: {a: [0, 1]}\nlabels: {y: a}\n")
    claimed = {
        path.name: next(f.name for f in TASK_FORMATS if f.claims(TaskSource(path, path.read_text())))
        for path in (dimacs, config, plain)
    }
    assert claimed == {"k.txt": "dimacs", "c.yaml": "rsbench config", "t.yaml": "task file"}
    assert list(read_task(dimacs).names) == ["c1", "c2"] and len(read_task(config).concepts) == 3


def test_program_readers_are_chosen_by_extension_with_problog_for_any_other(tmp_path):
    assert set(PROGRAM_READERS) == {".pl", ".lp", ".scl"}
    text = "0.5::a.\n0.5::b.\nq :- a, b.\nquery(q).\n"
    for suffix in (".pl", ".problog"):
        program = read_program(tmp_path / f"p{suffix}", text, None)
        assert [c.name for c in program.concepts] == ["a", "b"] and list(program.labels) == ["q"]
    with pytest.raises(RscountError, match="no neural rule"):
        read_program(tmp_path / "p.lp", text, "q")  # the same text is no NeurASP program
    with pytest.raises(RscountError, match="Scallop programs are not read"):
        read_program(tmp_path / "p.scl", "rel q = a(), b()\n", "q")  # nor a Scallop one


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("s.json", '{"scenes": []}', "clevr"),
        ("a.csv", "filename,task_id,label,supervised,symbol\n", "kandy"),
        ("r.ndjson", "[1]", "jsonl"),
        ("r.txt", '{"a": 1}\n', "jsonl"),
        ("r.txt", "a,b\n0,1\n", "csv"),
    ],
)
def test_a_row_file_is_read_by_the_first_format_that_claims_it(name, text, expected):
    assert detect(Path(name), text).name == expected


def test_row_formats_are_named_once_and_each_is_detectable():
    assert list(ROW_FORMATS) == ["csv", "jsonl", "kandy", "clevr"]
    assert sorted(f.name for f in DETECTION) == sorted(ROW_FORMATS)
    assert DETECTION[-1].name == "csv"  # the format every file falls back to
    assert by_suffix(Path("x.JSONL")) is ROW_FORMATS["jsonl"] and by_suffix(Path("x.yaml")) is None


def test_an_error_in_a_program_keeps_the_programs_path_and_line(tmp_path):
    (tmp_path / "kb.pl").write_text("0.5::a.\nq :- a, X.\n")
    (tmp_path / "t.yaml").write_text("program: kb.pl\nquery: q\n")
    with pytest.raises(TaskError) as caught:
        load_task(tmp_path / "t.yaml")
    assert str(caught.value).endswith(
        "t.yaml: program: kb.pl:2: a variable as a goal (call/N) is not allowed"
    )
    assert origin(caught.value) == (str(tmp_path / "kb.pl"), 2)


def test_an_error_in_an_annotation_file_keeps_its_path_and_line(tmp_path):
    (tmp_path / "rows.csv").write_text("a,b\n0,1\n0,7\n")
    (tmp_path / "t.yaml").write_text(
        "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a ^ b}\nsupport: {file: rows.csv}\n"
    )
    with pytest.raises(TaskError) as caught:
        load_task(tmp_path / "t.yaml")
    assert "support: " in str(caught.value) and "outside its domain" in str(caught.value)
    assert origin(caught.value) == (str(tmp_path / "rows.csv"), 3)


def test_an_error_of_the_file_read_is_its_own_origin():
    assert origin(FormatError("k.cnf", "bad", 4)) == ("k.cnf", 4)
    assert origin(TaskError("labels.y", "bad")) == (None, None)
