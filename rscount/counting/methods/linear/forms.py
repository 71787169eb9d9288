"""Labels as affine forms c + sum_j w_j x_j of integer concepts, read off the expression (sums,
differences, products by a constant) or, when the expression is another, off its values on every
concept vector (DeepProbLog's multi-digit number is an ITE over its answers: its values are 10a + b)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ....task.expressions import Expr
from ....task.model import Task

Form = tuple[Fraction, dict[str, Fraction]]  # constant, coefficient per concept name


def affine_labels(task: Task) -> list[dict[str, Fraction]] | None:
    """Per label, the coefficients of the affine form it is (None when one is not, or a concept
    takes a value that is no integer)."""
    if any(not isinstance(v, int) for c in task.concepts for v in c.values):
        return None
    forms = []
    for n, expr in enumerate(task.labels.values()):
        found = _form(expr) or _tabulated(task, n)
        if found is None:
            return None
        forms.append(found[1])
    return forms


def _form(expr: Expr) -> Form | None:
    """The affine form an expression is written as, or None."""
    if expr.op == "var":
        return Fraction(0), {expr.args[0]: Fraction(1)}
    if expr.op == "const":
        value = expr.args[0]
        return (Fraction(value), {}) if isinstance(value, int) else None
    parts = [_form(a) for a in expr.args]
    if any(p is None for p in parts):
        return None
    forms = [p for p in parts if p is not None]
    if expr.op == "Add":
        return _sum(forms, [Fraction(1)] * len(forms))
    if expr.op == "Sub" and len(forms) == 2:
        return _sum(forms, [Fraction(1), Fraction(-1)])
    if expr.op == "Neg" and len(forms) == 1:
        return _sum(forms, [Fraction(-1)])
    if expr.op == "Mul":
        variable = [f for f in forms if f[1]]
        if len(variable) > 1:
            return None
        factor = Fraction(1)
        for constant, coefficients in forms:
            if not coefficients:
                factor *= constant
        return _sum(variable or [(Fraction(1), {})], [factor])
    return None


def _sum(forms: list[Form], weights: list[Fraction]) -> Form:
    constant, coefficients = Fraction(0), dict[str, Fraction]()
    for (c, coefs), w in zip(forms, weights):
        constant += w * c
        for name, a in coefs.items():
            coefficients[name] = coefficients.get(name, Fraction(0)) + w * a
    return constant, {name: a for name, a in coefficients.items() if a}


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
