"""Write a Task back as a task file (YAML that `load_task` reads): knowledge as expressions in the
task-file syntax (every operator in call form), support and supervision as explicit rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

from ...errors import TaskError
from ...sinks import yaml_comment
from ...task.functions import is_table
from ...task.model import Task


def task_data(task: Task) -> dict[str, Any]:
    """The task-file mapping of `task` (labels given by `knowledge:` constraints come out as the
    label expressions they were completed into). A program task is refused: its labels, queries
    without answers and evidence are the program's, which expressions would not keep."""
    if task.program is not None:
        raise TaskError(
            "program",
            f"{task.name} reads its labels from {task.program}: rscount writes it back only by editing "
            "its own task file, which it cannot do for this change (a label added, or rows in another "
            "order than the file's)",
        )
    tables = [name for name, expr in task.labels.items() if is_table(expr)]
    if tables:
        raise TaskError(
            f"labels.{tables[0]}",
            "a table (a Python function's, tabulated): no task-file expression writes it; "
            "give the label as an expression to write the task",
        )
    data: dict[str, Any] = {"name": task.name}
    if task.description:
        data["description"] = task.description
    if task.objects:  # the first object's ground truths are the attributes'
        named = zip(task.objects.attributes, task.ground_truths)
        attributes = {name: list(truth) for (name, _), truth in named}
        data["objects"] = {"count": task.objects.count, "attributes": attributes}
    else:
        data["concepts"] = {c.name: list(truth) for c, truth in zip(task.concepts, task.ground_truths)}
    if task.predicts_more:
        data["predicts"] = {name: list(classes) for name, classes in task.predicted_classes().items()}
    data["labels"] = {name: str(expr) for name, expr in task.labels.items()}
    data["mode"] = str(task.mode)
    if task.in_place:
        data["extractor"] = str(task.extractor)
    support = task.support
    data["support"] = "exhaustive" if support.exhaustive else [list(r) for r in support.rows]

    def position(row: tuple[Any, ...]) -> tuple[int, ...]:
        return tuple(c.index[v] for c, v in zip(task.concepts, row))

    entries: list[Any] = [list(r) for r in sorted(support.supervised, key=position)]
    for row in sorted(support.partial, key=position):
        names = [task.names[k] for k in sorted(support.partial[row])]
        entries.append({"row": list(row), "concepts": names})
    data["concept_supervision"] = entries
    if task.expect:
        data["expect"] = dict(task.expect)
    return data


def comment_lines(comments: Sequence[str]) -> str:
    """Leading comment lines of a task file, each kept on its line (rscount.sinks.yaml_comment: a
    task name with a line break would otherwise end the comment and start YAML)."""
    return "".join(f"# {yaml_comment(line)}\n" for line in comments)


def task_yaml(task: Task, comments: list[str]) -> str:
    """The task file text: `comments` as leading comment lines, then the YAML mapping."""
    head = comment_lines(comments)
    return head + yaml.safe_dump(task_data(task), sort_keys=False, default_flow_style=None, width=110)
