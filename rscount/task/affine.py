"""Expressions that are affine forms c + sum_j w_j x_j of concepts (sums, differences, products by
a constant), and the values such a form takes over integer domains, found without listing D: the
counting's linear method solves them, the label checks read their values off them."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .expressions import Expr

Form = tuple[Fraction, dict[str, Fraction]]  # constant, coefficient per concept name
VALUES_MAX = 1_000_000  # values of a form listed at most, step by step (else None: ask a solver)


def affine_form(expr: Expr) -> Form | None:
    """The affine form an expression is written as, or None."""
    if expr.op == "var":
        return Fraction(0), {expr.args[0]: Fraction(1)}
    if expr.op == "const":
        value = expr.args[0]
        return (Fraction(value), {}) if isinstance(value, int) else None
    parts = [affine_form(a) for a in expr.args]
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


def affine_values(form: Form, names: Sequence[str], domains: Sequence[Sequence[object]]) -> set[int] | None:
    """The values `form` takes over the domains (integers), one concept at a time, or None when a
    coefficient, a value or the constant is no integer, or a step holds more than VALUES_MAX."""
    constant, coefficients = form
    if constant.denominator != 1 or any(a.denominator != 1 for a in coefficients.values()):
        return None
    taken = {int(constant)}
    for name, domain in zip(names, domains):
        a = int(coefficients.get(name, 0))
        if not a:
            continue
        if not all(isinstance(v, int) for v in domain) or len(taken) * len(domain) > VALUES_MAX:
            return None
        taken = {t + a * v for t in taken for v in domain}  # type: ignore[operator]
    return taken
