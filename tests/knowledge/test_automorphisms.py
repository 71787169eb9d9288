"""The knowledge's automorphisms (rscount.knowledge.automorphisms): every permutation found keeps
every label on every concept vector and every supervised vector, and on knowledge that is a graph's
inequalities (a sudoku's kind) they are all of the graph's automorphisms, against a brute force over
every permutation."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from rscount.knowledge.automorphisms import knowledge_automorphisms
from rscount.knowledge.loading import task_from_dict
from rscount.task.model import Mode


def _graph_task(k: int, edges: list[tuple[int, int]], values: list, rows: list, supervised: list) -> dict:
    concepts = {f"c{j}": values for j in range(k)}
    label = " & ".join(f"(c{a} != c{b})" for a, b in edges) if edges else "c0 == c0"
    data = {"concepts": concepts, "labels": {"valid": label}, "support": rows}
    return {**data, "concept_supervision": supervised} if supervised else data


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_automorphisms_of_a_graphs_inequalities_are_the_graphs(data):
    k = data.draw(st.integers(2, 5), label="k")
    pairs = list(itertools.combinations(range(k), 2))
    edges = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)), label="edges")
    values = data.draw(st.sampled_from([[0, 1, 2], [7, 8], ["r", "g"]]), label="values")
    every = list(itertools.product(values, repeat=k))
    rows = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=4, unique=True), label="rows")
    supervised = data.draw(st.lists(st.sampled_from(rows), max_size=1), label="supervised")
    task = task_from_dict(
        _graph_task(k, edges, values, [list(r) for r in rows], [list(r) for r in supervised])
    )
    found = knowledge_automorphisms(task, Mode.DISENTANGLED)
    assert found[0] == tuple(range(k)) and len(set(found)) == len(found)
    undirected = {frozenset(e) for e in edges}
    expected = {
        p
        for p in itertools.permutations(range(k))
        if {frozenset((p[a], p[b])) for a, b in edges} == undirected
        and all(r[j] == r[p[j]] for r in supervised for j in range(k))
    }
    assert set(found) == expected
    for p in found:  # and each keeps every label on every vector
        for x in every:
            moved = tuple(x[p[j]] for j in range(k))
            assert task.label_of(moved) == task.label_of(x)


def test_a_sudokus_cells_have_the_128_automorphisms_of_its_graph_and_objects_move_whole():
    cells = [(r, c) for r in range(4) for c in range(4)]
    edges = [
        (i, j)
        for i, j in itertools.combinations(range(16), 2)
        if cells[i][0] == cells[j][0]
        or cells[i][1] == cells[j][1]
        or (cells[i][0] // 2, cells[i][1] // 2) == (cells[j][0] // 2, cells[j][1] // 2)
    ]
    grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    task = task_from_dict(_graph_task(16, edges, [1, 2, 3, 4], [[v for row in grid for v in row]], []))
    assert len(knowledge_automorphisms(task, Mode.DISENTANGLED)) == 128
    label = " & ".join(f"(cell_{a + 1} != cell_{b + 1})" for a, b in edges)
    objects = {"objects": {"count": 16, "attributes": {"cell": [1, 2, 3, 4]}}, "labels": {"valid": label}}
    as_objects = task_from_dict({**objects, "support": [[v for row in grid for v in row]]})
    assert len(knowledge_automorphisms(as_objects, Mode.OBJECTS)) == 128
