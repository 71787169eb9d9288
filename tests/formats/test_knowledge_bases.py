"""Deterministic Prolog knowledge bases whose query names the concepts (`program:` with `concepts:`,
as ABLkit writes its knowledge): the labels are the query's answers on every concept vector, counted
as the same knowledge written as an expression; what such a base cannot give is refused in one line."""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path

import pytest
from references.bruteforce import brute_force_count

from rscount import count
from rscount.knowledge.loading import load_task

ADD = """
label_value(N) :- between(0, 9, N).
forward([A, B], Sum) :- label_value(A), label_value(B), Sum is A + B.
"""
DIGITS = "  a: [0, 1, 2, 3]\n  b: [0, 1, 2, 3]\n"


def kb_task(tmp_path: Path, program: str, query: str, support: str, concepts: str = DIGITS) -> Path:
    (tmp_path / "kb.pl").write_text(program)
    text = f"concepts:\n{concepts}program: kb.pl\nquery: {query}\nsupport: {support}\n"
    (tmp_path / "task.yaml").write_text(text)
    return tmp_path / "task.yaml"


def test_a_knowledge_base_labels_every_vector_by_its_answers_cut_to_the_domains(tmp_path):
    rows = "[[0, 1], [1, 0], [2, 2], [3, 1]]"
    task = load_task(kb_task(tmp_path, ADD, "forward([a, b], Sum)", rows))
    assert task.names == ["a", "b"] and list(task.labels) == ["Sum"]
    for row in product(range(4), repeat=2):
        assert task.label_of(row) == (sum(row),)
    support = [(0, 1), (1, 0), (2, 2), (3, 1)]
    expected = brute_force_count([range(4)] * 2, sum, support, set())
    assert count(task, "exact").count == expected


def test_a_vector_without_an_answer_is_no_training_row_and_several_answers_make_a_set(tmp_path):
    program = "rel(X, Y, Z) :- member(Z, [0, 1]), Z =< X + Y, X < 3.\n"  # no answer when a = 3
    task = load_task(kb_task(tmp_path, program, "rel(a, b, Z)", "exhaustive"))
    assert all(row[0] != 3 for row in task.support.rows) and len(task.support.rows) == 12
    labels = {row: task.label_of(row) for row in task.support.rows}
    assert len(set(labels[(0, 0)])) != len(set(labels[(1, 1)])) or labels[(0, 0)] != labels[(1, 1)]


@pytest.mark.parametrize(
    ("program", "query", "message"),
    [
        (ADD, "forward([a, c], Sum)", r"does not name concept 'b'"),
        (ADD, "forward([a, b], 3)", r"has no variable to be a label"),
        ("0.5 :: coin.\nf(A, B, Y) :- coin, Y is A + B.\n", "f(a, b, Y)", r"probabilistic or neural clauses"),
        ("f(A, B, Y) :- shell(ls), Y = A.\n", "f(a, b, Y)", r"kb.pl:1: 'shell/1' is neither defined"),
        ("f(A, B, Y) :- (A > B -> Y = 1 ; Y = 0).\n", "f(a, b, Y)", r"kb.pl"),
    ],
)
def test_a_knowledge_base_it_cannot_read_is_refused_in_one_line(tmp_path, cli, program, query, message):
    run = cli("count", kb_task(tmp_path, program, query, "[[0, 1]]"))
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert re.search(message, run.err), run.err
