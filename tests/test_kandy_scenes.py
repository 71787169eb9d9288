"""The KANDY tasks with composed objects against an independent reading of their Prolog rules: a
scene's objects are cut into children where `link` is none (tasks/kandy-easy-15.yaml), named objects
are recognised on those children as the seed's background predicates define them (house, car,
tower, wagon, traffic light; seed 000, appendix 4.5.2), and each task's `valid/1` is evaluated
here in plain Python, on random scenes and on the task's own support."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from rscount.knowledge.loading import load_task

TASKS = Path(__file__).resolve().parents[1] / "tasks"
Object = dict[str, str]
Child = tuple[str | None, list[Object]]  # (operator, objects); None for a single object


def children(objects: Sequence[Object]) -> list[Child]:
    """The children of a group: runs cut where link is none (the group's last object ends it)."""
    found: list[Child] = []
    run: list[Object] = []
    for n, obj in enumerate(objects):
        run.append(obj)
        if obj["link"] == "none" or n == len(objects) - 1:
            links = {o["link"] for o in run[:-1]}
            operator = None if len(run) == 1 else (links.pop() if len(links) == 1 else "mixed")
            found.append((operator, run))
            run = []
    return found


def kinds(child: Child) -> set[str]:
    """The named objects a child is (seed 000, appendix 4.5.2's cheat predicates)."""
    operator, objs = child
    shapes = [o["shape"] for o in objs]
    one_size = len({o["size"] for o in objs}) == 1
    one_color = len({o["color"] for o in objs}) == 1
    found = set()
    if operator == "stack" and shapes == ["triangle", "square"] and one_size:
        found.add("house")
    if operator == "side_by_side" and shapes == ["circle"] * 2 and one_size and one_color:
        found.add("car")
    if operator == "stack" and len(objs) in (2, 3) and set(shapes) == {"square"} and one_size:
        found.add("tower")
    if operator == "side_by_side" and len(objs) in (2, 3) and set(shapes) == {"square"} and one_size:
        found.add("wagon")
    lights = [o["color"] for o in objs] == ["red", "yellow", "green"]
    if operator == "stack" and shapes == ["circle"] * 3 and one_size and lights:
        found.add("traffic_light")
    return found


def contains(objects: Sequence[Object], kind: str) -> bool:
    return any(kind in kinds(child) for child in children(objects))


def task16(objects: Sequence[Object]) -> bool:
    """Hard 16's valid/1 (Hard 17's valid1/1) on one group."""
    light, house = contains(objects, "traffic_light"), contains(objects, "house")
    return (
        (light and contains(objects, "car"))
        or (house and contains(objects, "tower"))
        or (not light and not house)
    )


def pseudo_palindrome2(items: list[Child]) -> bool:
    if len(items) < 2:
        return True
    (op_a, a), (op_b, b) = items[0], items[-1]
    equal = op_a is None and op_b is None and (a[0]["shape"], a[0]["color"]) == (b[0]["shape"], b[0]["color"])
    return (equal or bool(kinds(items[0]) & kinds(items[-1]))) and pseudo_palindrome2(items[1:-1])


def hard15(objects: Sequence[Object]) -> bool:
    present = [o for o in objects if o["present"] == "shown"]
    attribute = "color" if len(present) % 2 else "shape"
    return bool(present) and len({o[attribute] for o in present}) == 1


NAMED = ("house", "car", "tower", "wagon", "traffic_light")
RULES: dict[str, Callable[[list[Object]], bool]] = {
    **{f"kandy-easy-{k}": (lambda o, x=x: contains(o, x)) for k, x in zip(range(15, 20), NAMED)},
    **{f"kandy-hard-{k:02d}": (lambda o, x=x: contains(o, x)) for k, x in zip(range(4, 9), NAMED)},
    "kandy-hard-11": lambda o: any(contains(o[:3], x) and contains(o[3:], x) for x in NAMED),
    "kandy-hard-14": lambda o: pseudo_palindrome2(children(o)),
    "kandy-hard-15": hard15,
    "kandy-hard-16": task16,
    "kandy-hard-17": lambda o: task16(o[:4]) and task16(o[4:]),
}


def scene(task, row: Sequence[str]) -> list[Object]:
    names = [name for name, _ in task.objects.attributes]
    return [dict(zip(names, row[i : i + len(names)])) for i in range(0, len(row), len(names))]


def random_rows(task, rng: random.Random, n: int) -> list[tuple[str, ...]]:
    """Random scenes, half of them built from named-object pieces so that positives occur."""
    rows = []
    for m in range(n):
        row = []
        for _ in range(task.objects.count):
            for name, values in task.objects.attributes:
                if m % 2 and name == "shape":
                    row.append(rng.choice(["circle", "square", "square", "triangle"]))
                elif m % 2 and name == "size":
                    row.append("small")
                elif m % 2 and name == "color":
                    row.append(rng.choice(["red", "yellow", "green"]))
                else:
                    row.append(rng.choice(values))
        rows.append(tuple(row))
    return rows


@pytest.mark.parametrize("name", sorted(RULES))
def test_task_labels_are_the_prolog_rule_read_on_the_scene(name: str) -> None:
    task = load_task(TASKS / f"{name}.yaml")
    rows = [*task.support.rows, *random_rows(task, random.Random(name), 3000)]
    positives = 0
    for row in rows:
        want = int(RULES[name](scene(task, row)))
        assert task.label_of(row) == (want,), f"{name}: {row}"
        positives += want
    assert 0 < positives < len(rows)
