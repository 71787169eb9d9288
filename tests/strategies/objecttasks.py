"""Random small objects tasks (2-4 objects with 1-2 attributes), each drawn with what the brute force
over object maps needs: (task, objects, attribute domains, label by Python's eval, support,
supervised set). The label is evaluated without rscount code (randomtasks.HELPERS)."""

from __future__ import annotations

import pathlib
from itertools import product

from hypothesis import strategies as st

from rscount.knowledge.loading import task_from_dict
from strategies.randomtasks import HELPERS, label_expr

ATTRS = "xyz"


@st.composite
def object_tasks(draw):
    """2-3 objects with 1-2 attributes of 2-3 values (at most 64 concept vectors), a random
    label over the concepts <attribute>_<object>, a random support and supervision."""
    n = draw(st.integers(2, 3))
    m = draw(st.integers(1, 2))
    sizes = draw(st.lists(st.integers(2, 3), min_size=m, max_size=m))
    while n * m > 4 or 3 ** (n * m) > 64 and 3 in sizes:
        sizes = [2] * m
        if n * m > 4:
            n = 2
    attributes = {ATTRS[a]: list(range(s)) for a, s in enumerate(sizes)}
    names = [(f"{a}_{o}", s) for o in range(1, n + 1) for a, s in zip(attributes, sizes)]
    label = draw(label_expr(names))
    rows = list(product(*(range(s) for _, s in names)))
    support = draw(st.lists(st.sampled_from(rows), min_size=1, max_size=12, unique=True))
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    data = {
        "objects": {"count": n, "attributes": attributes},
        "labels": {"y": label},
        "support": [list(r) for r in support],
        "concept_supervision": [list(r) for r in supervised],
    }
    return _drawn(data, [name for name, _ in names], support, supervised)


def _drawn(data: dict, names: list[str], support: list, supervised: list) -> tuple:
    """(task, objects, attribute domains, label by Python's eval, support, supervised set)."""
    task = task_from_dict(data, "objects", pathlib.Path("."))
    code = compile(data["labels"]["y"], "<label>", "eval")

    def label_fn(row):
        return int(eval(code, {"__builtins__": {}, **HELPERS, **dict(zip(names, row))}))

    attributes = data["objects"]["attributes"]
    return task, data["objects"]["count"], list(attributes.values()), label_fn, support, set(supervised)


# Knowledge with object and attribute symmetries (within figures, whole figures, equation sides,
# attributes with one domain), so that the objects count runs on symmetry classes.
SYMMETRIC = [
    (
        4,
        {"x": [0, 1, 2], "z": [0, 1, 2]},
        "Or(Equivalent(Eq(x_1, x_2), Eq(x_3, x_4)), Equivalent(Eq(z_1, z_2), Eq(z_3, z_4)))",
    ),
    (3, {"x": [0, 1, 2]}, "x_1 + x_2 + x_3"),
    (4, {"x": [0, 1, 2]}, "Eq(x_1 + x_2, x_3 + x_4)"),
    (4, {"x": [0, 1], "z": [0, 1]}, "And(Eq(x_1, x_4), Eq(z_1, z_4), Eq(x_2, x_3), Eq(z_2, z_3))"),
]


@st.composite
def symmetric_object_tasks(draw):
    """One of SYMMETRIC with an exhaustive (if at most 100 vectors) or random support and random
    supervision."""
    n, attributes, label = draw(st.sampled_from(SYMMETRIC))
    names = [f"{a}_{o}" for o in range(1, n + 1) for a in attributes]
    rows = list(product(*(attributes[name.split("_")[0]] for name in names)))
    exhaustive = len(rows) <= 100 and draw(st.booleans())
    support = (
        rows if exhaustive else draw(st.lists(st.sampled_from(rows), min_size=1, max_size=12, unique=True))
    )
    supervised = draw(st.lists(st.sampled_from(support), max_size=2, unique=True))
    data = {
        "objects": {"count": n, "attributes": attributes},
        "labels": {"y": label},
        "support": "exhaustive" if exhaustive else [list(r) for r in support],
        "concept_supervision": [list(r) for r in supervised],
    }
    return _drawn(data, names, support, supervised)
