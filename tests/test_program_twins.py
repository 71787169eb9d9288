"""Every KANDY and V-LoL task in tasks/ has its rules written as a program next to it (tasks/NAME.pl,
with its own query and a scene encoding as facts over the task's objects): the program's labels agree
with the task's hand-written expressions on every concept vector (a SAT miter over both), and the
program given the task's support counts what the task pins: counted where the twin's structure
differs from the task's (its label groups, or its objects), else implied, as the twin is then the
task with its concepts listed in another order (which no count depends on:
tests/counting/test_cross_validation.py) and `rscount report` checks the task's pin in .ci/run."""

from __future__ import annotations

from pathlib import Path

import pytest
from pysat.solvers import Solver
from support import REPO

from rscount import count
from rscount.formats.programs import read_program
from rscount.formats.programs.objects import program_objects
from rscount.knowledge.circuit import FALSE, CNFBuilder, compile_expr, exactly_one
from rscount.knowledge.labels import label_groups
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.task.model import Mode, Task

TWINNED = sorted(p.name for p in (REPO / "tasks").glob("*.yaml") if p.stem.startswith(("kandy-", "vlol-")))


def twin_of(task: Task, path: Path) -> Task:
    """The task of `path`'s program (same stem, .pl) in the task's mode, on the task's support rows
    (columns matched by concept name: the program lists its concepts in the order grounding reaches
    them)."""
    program = read_program(path.with_suffix(".pl"), path.with_suffix(".pl").read_text(), None)
    concepts = program_objects(program).objects.concepts() if task.mode == Mode.OBJECTS else program.concepts
    where = {name: j for j, name in enumerate(task.names)}
    rows = [[row[where[c.name]] for c in concepts] for row in task.support.rows]
    data = {"program": path.with_suffix(".pl").name, "mode": task.mode.value, "support": rows}
    return task_from_dict(data, f"{task.name}-program", path.parent)


def differing_vector(task: Task, twin: Task) -> dict[str, object] | None:
    """A concept vector on which the two tasks' labels differ (labels matched in order), or None:
    both compiled on one-hot value variables shared by name, and a solver asked for a difference."""
    builder = CNFBuilder()
    inputs = {}
    for concept in task.concepts:
        lits = [builder.new_var() for _ in concept.values]
        for clause in exactly_one(lits):
            builder.add(clause)
        inputs[concept.name] = dict(zip(concept.values, lits))
    differences = []
    for mine, theirs in zip(task.labels.values(), twin.labels.values()):
        a, b = compile_expr(builder, mine, inputs, "task"), compile_expr(builder, theirs, inputs, "twin")
        differences += [builder.xor_([a.get(v, FALSE), b.get(v, FALSE)]) for v in set(a) | set(b)]
    builder.add([builder.or_(differences)])
    with Solver(name="cadical195", bootstrap_with=builder.clauses) as solver:
        if not solver.solve():
            return None
        model = set(solver.get_model() or [])
    return {name: next(v for v, lit in dom.items() if lit in model) for name, dom in inputs.items()}


def structure(task: Task) -> tuple[object, ...]:
    """What a count reads besides the labels' values: the label groups (labels by position, with
    the concepts they read by name) and the objects."""
    names = [c.name for c in task.concepts]
    position = {label: n for n, label in enumerate(task.labels)}
    groups = sorted(
        (sorted(position[label] for label in labels), sorted(names[j] for j in concepts))
        for labels, concepts in label_groups(task)
    )
    return groups, task.objects


@pytest.mark.parametrize("name", TWINNED)
def test_program_twin_labels_every_vector_as_the_task_and_counts_the_same(name):
    path = REPO / "tasks" / name
    task = load_task(path)
    assert path.with_suffix(".pl").exists(), f"{name} has no program twin {path.with_suffix('.pl').name}"
    twin = twin_of(task, path)
    described = sorted((c.name, c.values) for c in task.concepts)
    assert sorted((c.name, c.values) for c in twin.concepts) == described
    assert len(twin.labels) == len(task.labels)
    assert differing_vector(task, twin) is None
    if structure(twin) != structure(task):  # one method: auto is report's to check
        assert count(twin, "exact").count == task.expect["count"]
