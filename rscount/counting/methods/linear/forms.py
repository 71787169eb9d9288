"""Labels as affine forms c + sum_j w_j x_j of integer concepts, read off the expression (sums,
differences, products by a constant) or, when the expression is another, off its values on every
concept vector (DeepProbLog's multi-digit number is an ITE over its answers: its values are 10a + b)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ....task.affine import Form, affine_form
from ....task.model import Task


def affine_labels(task: Task) -> list[dict[str, Fraction]] | None:
    """Per label, the coefficients of the affine form it is (None when one is not, or a concept
    takes a value that is no integer)."""
    if any(not isinstance(v, int) for c in task.concepts for v in c.values):
        return None
    forms = []
    for n, expr in enumerate(task.labels.values()):
        found = affine_form(expr) or _tabulated(task, n)
        if found is None:
            return None
        forms.append(found[1])
    return forms


def _tabulated(task: Task, n: int) -> Form | None:
    """The affine form label n takes on every concept vector, when tabulated (None otherwise):
    the coefficients from the first steps along each concept, then checked on every vector."""
    arrays = task.label_arrays()
    if arrays is None:
        return None
    column = arrays[n]
    if column.dtype.kind == "O":  # a program's labels: integers, or `no answer` somewhere
        if not all(type(v) is int and abs(v) < 1 << 62 for v in column.tolist()):
            return None
    elif column.dtype.kind not in "iu":
        return None
    values = column.astype(np.int64)
    domains = [[int(v) for v in d] for d in task.domains]  # integers: affine_labels checked
    sizes = [len(d) for d in domains]
    strides = [math.prod(sizes[i + 1 :]) for i in range(len(sizes))]
    base = int(values[0])
    coefficients = {
        c.name: Fraction(int(values[strides[i]]) - base, d[1] - d[0])
        for i, (c, d) in enumerate(zip(task.concepts, domains))
        if len(d) > 1
    }
    constant = Fraction(base) - sum(
        (coefficients.get(c.name, Fraction(0)) * d[0] for c, d in zip(task.concepts, domains)), Fraction(0)
    )
    scale = math.lcm(*(a.denominator for a in (constant, *coefficients.values())))
    flat = np.arange(values.size, dtype=np.int64)
    expected = np.full(values.size, int(constant * scale), dtype=np.int64)
    for i, (c, d) in enumerate(zip(task.concepts, domains)):
        if c.name in coefficients:
            column = np.asarray(d, dtype=np.int64)[(flat // strides[i]) % sizes[i]]
            expected += int(coefficients[c.name] * scale) * column
    if not np.array_equal(expected, values * scale):
        return None
    return Fraction(constant), {name: a for name, a in coefficients.items() if a}
