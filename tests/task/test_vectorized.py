"""Expressions on many vectors at once (rscount.task.vectorized.tabulate) give what evaluate gives on
each vector, and refuse where evaluate refuses on some vector; shared sub-expressions are evaluated
once (a DAG of depth 60 evaluates at once)."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies.randomtasks import SETTINGS, offset_specs, specs, string_specs
from support import REPO

from rscount.knowledge.loading import load_task
from rscount.task.expressions import LookupTable, call, const, evaluate, normalise, var
from rscount.task.vectorized import TooLarge, evaluate_shared, tabulate


def columns(domains: list[list], names: list[str]) -> tuple[dict, list[tuple]]:
    rows = list(product(*domains))
    found = {}
    for i, (name, domain) in enumerate(zip(names, domains)):
        kind = object if any(isinstance(v, str) for v in domain) else np.int64
        found[name] = np.array([r[i] for r in rows], dtype=kind)
    return found, rows


def per_vector(exprs, names, rows):
    try:
        return [[normalise(evaluate(e, dict(zip(names, r)))) for e in exprs] for r in rows]
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
        return type(exc)


@settings(max_examples=300, **SETTINGS)
@given(st.one_of(specs(), offset_specs(), string_specs()))
def test_tables_equal_the_values_vector_by_vector(spec):
    task = spec.task()
    exprs = list(task.labels.values())
    cols, rows = columns(task.domains, task.names)
    expected = per_vector(exprs, task.names, rows)
    try:
        found = tabulate(exprs, cols, len(rows))
    except TooLarge:
        return
    assert [[normalise(x) for x in row] for row in zip(*(a.tolist() for a in found))] == expected


@pytest.mark.parametrize(
    ("expr", "error"),
    [
        (
            call("ITE", call("Ne", var("b"), const(0)), call("FloorDiv", var("a"), var("b")), const(0)),
            ZeroDivisionError,
        ),
        (call("And", var("a"), var("b")), TypeError),  # b takes 2
        (call("Pow", var("a"), call("Neg", var("b"))), ValueError),
        (call("Mod", var("a"), call("Sub", var("b"), var("b"))), ZeroDivisionError),
    ],
)
def test_tables_refuse_where_some_vector_is_refused(expr, error):
    cols, rows = columns([[0, 1], [0, 1, 2]], ["a", "b"])
    assert per_vector([expr], ["a", "b"], rows) is error
    with pytest.raises(error):
        tabulate([expr], cols, len(rows))


def test_integers_past_int64_are_left_to_python():
    big = call("Pow", var("a"), const(80))
    cols, rows = columns([[2, 3]], ["a"])
    with pytest.raises(TooLarge):
        tabulate([big], cols, len(rows))
    assert evaluate_shared([big], {"a": 3}) == [3**80]


def test_a_shared_dag_is_evaluated_once_per_node():
    node = var("a")
    for _ in range(60):  # a tree of 2^60 leaves, a DAG of 60 nodes
        node = call("Add", node, node)
    cols, rows = columns([[1, 2]], ["a"])
    assert tabulate([node], cols, len(rows))[0].tolist() == [2**60, 2**61]
    assert evaluate_shared([node], {"a": 1}) == [2**60]


@pytest.mark.parametrize("name", ["mnadd-n2", "hwf3", "markov-chain", "alarm", "xor3", "dice", "any-sum"])
def test_labels_of_rows_read_off_d_equal_their_own_evaluation(name):
    task = load_task(REPO / "tasks" / f"{name}.yaml")
    rows = [tuple(row) for row in task.support.rows][:3000]
    arrays = task.label_arrays()
    assert arrays is not None
    read = task.labels_of(rows)
    task.__dict__.pop("_label_arrays")  # as if D had not been tabulated
    assert task.tabulated_labels() is None
    assert read == task.labels_of(rows) == [task.label_of(row) for row in rows[:200]] + read[200:]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_table_over_its_domains_is_read_by_position_as_by_key(data):
    kinds = data.draw(st.sampled_from(["offset", "words", "mixed"]), label="kinds")
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3), label="sizes")
    domains = [
        [f"v{u}" if kinds == "words" or (kinds == "mixed" and j % 2) else 5 + 3 * u for u in range(n)]
        for j, n in enumerate(sizes)
    ]
    keys = list(product(*domains))
    values = data.draw(
        st.lists(st.sampled_from([0, 1, 7, "no answer"]), min_size=len(keys), max_size=len(keys))
    )
    table = dict(zip(keys, values))
    names = [f"c{j}" for j in range(len(domains))]
    rows = data.draw(st.lists(st.tuples(*(st.sampled_from(d) for d in domains)), min_size=1, max_size=12))
    columns = {n: np.array([r[j] for r in rows], dtype=object if isinstance(domains[j][0], str) else np.int64)
               for j, n in enumerate(names)}  # fmt: skip
    by_position = call("Lookup", *map(var, names), const(LookupTable(table, domains)))
    by_key = call("Lookup", *map(var, names), const(LookupTable(table)))
    (positional,) = tabulate([by_position], columns, len(rows))
    (keyed,) = tabulate([by_key], columns, len(rows))
    assert positional.tolist() == keyed.tolist() == [table[r] for r in rows]
