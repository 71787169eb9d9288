"""Knowledge as a Python function (API only): tabulated on every concept vector, it counts as the
same knowledge written as an expression does, in every mode; what it raises or returns wrongly is
a TaskError naming the label and the vector, and a task whose labels are tables is not written
back as a task file."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies.mixedtasks import Drawn, object_tasks, plain_tasks
from support import REPO

import rscount
from rscount.errors import CapExceeded, TaskError
from rscount.formats.task_files.writing import task_yaml
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.task.expressions import evaluate, free_names
from rscount.task.functions import lookup

XOR = {"concepts": {"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "support": "exhaustive"}


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=30)
@given(drawn=plain_tasks() | object_tasks())
def test_a_function_counts_as_the_expression_it_computes(drawn: Drawn):
    problem = drawn.problem
    names = list(problem.names)

    def label(**values):  # the oracle's own labelling, called by the concepts' names
        return problem.label(tuple(values[n] for n in names))[0]

    expressions = drawn.task()
    first = next(iter(expressions.labels))
    data = {**drawn.data, "labels": {first: label}}
    functions = task_from_dict(data)
    written = task_from_dict({**drawn.data, "labels": {first: drawn.data["labels"][first]}})
    assert rscount.count(functions).count == rscount.count(written).count
    assert rscount.count(functions, mode="joint").count == rscount.count(written, mode="joint").count


def test_rsbench_style_python_knowledge_gives_the_seeds_figures():
    xor = task_from_dict({**XOR, "labels": {"y": lambda a, b, c: a ^ b ^ c}})
    assert rscount.count(xor).count == 24
    assert rscount.count(xor, extractor="in-place").count == 4
    half = load_task(REPO / "tasks/mnadd-half.yaml").with_labels({"sum": lambda d1, d2: d1 + d2})
    assert rscount.count(half).count == 720000000000
    parity = task_from_dict(
        {"concepts": {"a": [0, 1, 2]}, "labels": {"y": lambda a: np.int64(a % 2)}, "support": [[0], [1]]}
    )
    assert rscount.count(parity).count == 6  # f(0) in {0, 2}, f(1) = 1, f(2) free


@pytest.mark.parametrize(
    ("function", "problem"),
    [
        (lambda a, b, c: 1 // (a * b), r"raised ZeroDivisionError.*on \{'a': 0, 'b': 0, 'c': 0\}"),
        (lambda a, b, c: [a], r"returned \[0\].*not an integer, a word or a Boolean"),
        (lambda x: x, "raised TypeError"),
    ],
)
def test_a_function_that_fails_is_refused_naming_the_label_and_the_vector(function, problem):
    with pytest.raises(TaskError, match=problem) as error:
        task_from_dict({**XOR, "labels": {"y": function}})
    assert error.value.field == "labels.y"


def test_a_function_over_too_many_vectors_is_refused_by_the_cap(monkeypatch):
    monkeypatch.setenv("RSCOUNT_MAX_FUNCTION_VECTORS", "7")
    with pytest.raises(CapExceeded, match="8 concept vectors"):
        task_from_dict({**XOR, "labels": {"y": lambda a, b, c: a & b}})


def test_a_task_labelled_by_a_function_is_not_written_as_a_task_file():
    task = task_from_dict({**XOR, "labels": {"y": lambda a, b, c: a | c}})
    with pytest.raises(TaskError, match="no task-file expression writes it") as error:
        task_yaml(task, [])
    assert error.value.field == "labels.y"


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=60)
@given(data=st.data())
def test_a_table_reads_exactly_the_concepts_it_depends_on_and_gives_every_vector_its_value(data):
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="sizes")
    kinds = data.draw(st.sampled_from(["words", "offset"]), label="kinds")
    domains = [
        [f"v{u}" for u in range(size)] if kinds == "words" else [u + 7 for u in range(size)] for size in sizes
    ]
    names = [f"c{j}" for j in range(len(sizes))]
    depends = data.draw(st.sets(st.integers(0, len(sizes) - 1)), label="depends")
    drawn = {}
    table = {}
    for row in product(*domains):
        key = tuple(row[j] for j in sorted(depends))
        drawn.setdefault(key, data.draw(st.sampled_from([0, 1, 5, "no answer", "x"])))
        table[row] = drawn[key]
    expr = lookup(names, domains, table)
    read = free_names(expr)
    assert read <= {names[j] for j in depends}  # never more than it depends on
    assert all(row_value == evaluate(expr, dict(zip(names, row))) for row, row_value in table.items())
    varies = {  # and every concept along which the table changes
        names[j]
        for j in range(len(sizes))
        for row in table
        if any(table[row[:j] + (u,) + row[j + 1 :]] != table[row] for u in domains[j])
    }
    assert read == varies
