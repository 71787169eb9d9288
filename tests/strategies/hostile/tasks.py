"""Task files (YAML): mostly valid mappings, or rsbench generator configs, with a few values replaced,
removed, wrapped or keys added, then damaged as whole files; run by `count` or `check`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import yaml
from hypothesis import strategies as st
from support import REPO

from strategies.hostile.cases import COUNTING, Case
from strategies.hostile.values import LONG, hostile_values, raw_transform, to_yaml

DOMAINS = st.sampled_from(
    [[0, 1], [0, 1, 2], [0, 1, 2, 3], ["red", "green", "blue"], [1, 3, 5], [-1, 0, 1], ["a", 0]]
)
VALID_LABELS = ["c1", "c1 & c2", "Xor(c1, c2)", "Or(c1, Not(c2))", "c1 + c2", "Eq(c1, c2)", "Max(c1, c2)"]


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, prefix + (i,))


def _parent(obj: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        obj = obj[step]
    return obj


@st.composite
def mutated(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with a few of its values replaced, removed, wrapped, or keys added."""
    data = json.loads(json.dumps(data))  # a deep copy (the base is JSON-like)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(list(paths(data))))
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "wrap"]))
        if op == "add" or not where:
            target = data if not where else _parent(data, where)
            if isinstance(target, dict):
                key = draw(
                    st.sampled_from(
                        [
                            "support",
                            "mode",
                            "expect",
                            "objects",
                            "knowledge",
                            "completion",
                            "concept_supervision",
                            "unknown",
                            "seed",
                            "sample",
                            "c9",
                            "y",
                        ]
                    )
                )
                target[key] = draw(hostile_values)
            continue
        parent = _parent(data, where)
        if op == "delete":
            del parent[where[-1]]
        elif op == "wrap":
            parent[where[-1]] = [parent[where[-1]]]
        else:
            parent[where[-1]] = draw(hostile_values)
    return data


SUPPORTS = st.one_of(
    st.just("exhaustive"),
    st.builds(
        lambda f, s: {"sample": f, "seed": s}, st.sampled_from([0.5, 0.25, 1, 2, 3]), st.integers(0, 5)
    ),
    st.builds(lambda n, s: {"examples": n, "seed": s}, st.integers(1, 4), st.integers(0, 5)),
    st.just([[0, 0], [1, 1]]),
    st.just([{"c1": 0, "c2": 1}]),
    st.just({"file": "data.csv"}),
)


@st.composite
def task_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """A task file's mapping, most often valid, over concepts c1, c2 (and maybe c3)."""
    names = ["c1", "c2"] + (["c3"] if draw(st.booleans()) else [])
    if draw(st.integers(0, 5)) == 0:
        data: dict[str, Any] = {"objects": {"count": draw(st.integers(1, 3)), "attributes": {"d": [0, 1]}}}
        data["labels"] = {"y": "d_1"}
    else:
        data = {"concepts": {n: (draw(DOMAINS) if draw(st.booleans()) else [0, 1]) for n in names}}
        label = draw(st.sampled_from(VALID_LABELS + [{"dimacs": "k.cnf"}]))
        data["labels"] = {"y": label}
    if draw(st.booleans()):
        data["support"] = draw(SUPPORTS)
    if draw(st.integers(0, 3)) == 0:
        data["concept_supervision"] = draw(st.sampled_from([[], [[0, 0]], {"sample": 0.5, "seed": 1}]))
    if draw(st.integers(0, 3)) == 0:
        data["mode"] = draw(st.sampled_from(["disentangled", "joint", "objects"]))
    if draw(st.integers(0, 3)) == 0:
        data["expect"] = draw(
            st.sampled_from([{"count": 2}, {"shortcuts": 0}, {"max_count": 10}, {"min_count": 1}])
        )
    if draw(st.booleans()):
        data["name"] = draw(st.sampled_from(["t", "with space", "../up", LONG[:300]]))
    return data


GOOD_CNF = b"c y <-> c1 & c2\np cnf 2 2\n1 0\n2 0\n"
GOOD_CSV = b"c1,c2,y\n0,0,0\n1,1,1\n0,1,0\n"


RSBENCH_CONFIGS = [
    yaml.safe_load(path.read_text()) for path in sorted((REPO / "tests" / "configs").glob("*.yaml"))
]


@st.composite
def task_cases(draw: st.DrawFn) -> Case:
    configs = st.sampled_from(RSBENCH_CONFIGS)  # rsbench generator configs (seed 004, appendix C)
    base = draw(configs) if draw(st.integers(0, 4)) == 0 else draw(task_dicts())
    text = to_yaml(draw(mutated(base)))
    text = draw(raw_transform(text))
    name = draw(st.sampled_from(["task.yaml", "task.yml", "task.yaml", "task"]))
    files = {name: text, "k.cnf": GOOD_CNF, "data.csv": GOOD_CSV}
    command = draw(st.sampled_from(["count", "count", "check"]))
    argv = [command, name, *COUNTING]
    outputs: frozenset[str] = frozenset()
    if command == "count" and draw(st.integers(0, 4)) == 0:
        argv += ["--json"]
    if command == "count" and draw(st.integers(0, 5)) == 0:
        target = draw(st.sampled_from(["out.cnf", "k.cnf", "data.csv"]))  # existing files: never overwritten
        argv += ["--emit", target]
        outputs = frozenset({target}) if target == "out.cnf" else frozenset()
    return Case(files, argv, outputs)
