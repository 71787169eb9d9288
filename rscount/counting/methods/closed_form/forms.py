"""Closed-form counts, each used only where its preconditions are checked to hold.

Every closed form either returns a `ClosedForm` or declines (`Unsuited`) saying which precondition
fails. The formulas and their derivations are in docs/closed-forms.md.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from ....knowledge.invariants import Undetermined, injective_in_sum, symmetric_counts
from ....knowledge.label_classes import class_sizes
from ....limits import number_text
from ....task.model import Concept, Mode, Task
from ....task.support import Support, domain_size
from ...budget import Unsuited

MAX_COUNT_BITS = 1 << 27  # a count needing more bits than this (about 40 million digits) is refused


@dataclass
class ClosedForm:
    """An exact count from a formula: which formula, its instance (e.g. '3! * 2^2') and the name of
    the closed form that gave it (set by `closed_form`)."""

    count: int
    formula: str
    expression: str
    name: str = ""


def _power_product(factors: dict[int, int]) -> tuple[int, str]:
    """prod base^exponent as an int and as text, refusing counts too large to hold."""
    factors = {b: e for b, e in factors.items() if e and b != 1}
    bits = sum(e * math.log2(b) for b, e in factors.items() if b > 0)
    if bits > MAX_COUNT_BITS:
        raise Unsuited(f"the count is about 2^{bits:.4g}, too large to write out")
    count = 1
    for b, e in factors.items():
        count *= 1 << (e * (b.bit_length() - 1)) if b & (b - 1) == 0 else b**e
    text = " * ".join(f"{b}^{e}" if e > 1 else str(b) for b, e in sorted(factors.items())) or "1"
    return count, text


def _require_exhaustive_unsupervised(task: Task) -> None:
    total = domain_size(task.support.domains)
    if task.support.size != total:
        size = number_text(task.support.size)
        raise Unsuited(f"the support has {size} of the {number_text(total)} concept vectors")
    if task.support.supervised or task.support.partial:
        raise Unsuited("some support vectors are concept-supervised")


def _require_whole_rows(task: Task) -> None:
    if task.support.partial:
        raise Unsuited("some support vectors are supervised on some concepts only")


def joint(task: Task) -> ClosedForm:
    """Joint count (any alpha: D -> D): prod over unsupervised support vectors c of |E(c)|, times
    |D|^(|D| - |S|) for the vectors outside the support (supervised vectors contribute 1; a vector
    supervised on some concepts contributes the vectors of its class that keep those concepts)."""
    support = task.support
    total = domain_size(support.domains)
    partial = support.partial
    try:
        if support.exhaustive:
            sizes = class_sizes(task)
            per_class = dict(sizes)
            for row in [*support.supervised, *partial]:
                per_class[task.label_of(row)] -= 1
        else:
            free = [r for r in support.rows if r not in support.supervised and r not in partial]
            per_class = Counter(task.label_of(r) for r in free)
            sizes = class_sizes(task, per_class)
        factors: dict[int, int] = defaultdict(int)
        for y, rows in per_class.items():
            factors[sizes[y]] += rows
        for row, on in partial.items():
            factors[_kept_class(task, row, on)] += 1
    except Undetermined as exc:
        raise Unsuited(str(exc)) from None
    factors[total] += total - support.size
    count, text = _power_product(factors)
    return ClosedForm(count, "prod_{c in S unsupervised} |E(c)| * |D|^(|D|-|S|)", text)


def _kept_class(task: Task, row: tuple[Any, ...], on: Collection[int]) -> int:
    """The vectors with `row`'s labels that keep `row`'s values on the concepts `on`."""
    concepts = tuple(Concept(c.name, (row[j],)) if j in on else c for j, c in enumerate(task.concepts))
    narrowed = dataclasses.replace(
        task, concepts=concepts, support=Support(task.names, [c.values for c in concepts], [row])
    )
    return class_sizes(narrowed, [task.label_of(row)]).get(task.label_of(row), 0)


def _typed_permanent(
    rows: Sequence[tuple[Any, ...]],
    cols: Sequence[tuple[Any, ...]],
    weight: Callable[[tuple[Any, ...], tuple[Any, ...]], dict[int, int]],
) -> dict[int, int]:
    """Permanent of the matrix weight(rows[i], cols[j]), whose entries are polynomials in one
    variable (exponent -> coefficient), computed over the distinct row and column types: a
    dynamic programme on how many columns of each type are still free."""
    types = sorted(set(cols))
    free0 = tuple(cols.count(t) for t in types)
    states: dict[tuple[Any, ...], dict[int, int]] = {free0: {0: 1}}
    for row in rows:
        nxt: dict[tuple[Any, ...], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for free, poly in states.items():
            for n, t in enumerate(types):
                if not free[n]:
                    continue
                w = weight(row, t)
                target = nxt[free[:n] + (free[n] - 1,) + free[n + 1 :]]
                for (e1, c1), (e2, c2) in product(poly.items(), w.items()):
                    target[e1 + e2] += c1 * c2 * free[n]
        states = nxt
    return dict(next(iter(states.values()), {}))


def one_example(task: Task) -> ClosedForm:
    """One support vector c*: |E(c*)| * perm(M), M[i][j] = |D_j|^(|D_i|-1) (for each pi, the images
    of c* make any vector with c*'s label, every other value maps freely); supervised: perm(M)."""
    support = task.support
    if support.size != 1:
        raise Unsuited(f"the support has {number_text(support.size)} concept vectors, not one")
    _require_whole_rows(task)
    (row,) = support.rows
    if row in support.supervised:
        label_class = 1
    else:
        try:
            label_class = class_sizes(task, [task.label_of(row)])[task.label_of(row)]
        except Undetermined as exc:
            raise Unsuited(str(exc)) from None
    sizes = [(len(d),) for d in support.domains]
    perm = _typed_permanent(sizes, sizes, lambda i, j: {0: j[0] ** (i[0] - 1)})[0]
    k, b = len(sizes), sizes[0][0]
    if all(s == (b,) for s in sizes):
        text = f"{k}! * {b}^{k * (b - 1)} * {label_class}"
    else:
        text = f"{label_class} * {perm}"
    return ClosedForm(label_class * perm, "|E(c*)| * perm(|D_j|^(|D_i|-1))", text)


def symmetric_boolean(task: Task) -> ClosedForm:
    """Exhaustive support, knowledge depending only on how many concepts are true: k! times the
    number of value maps whose type (a identities, n negations, z and o constants 0 and 1) keeps
    g(x + (n - y) + o) = g(x + y + w) for all x <= a, y <= n, w <= z + o."""
    _require_exhaustive_unsupervised(task)
    try:
        g = symmetric_counts(task)
    except Undetermined as exc:
        raise Unsuited(str(exc)) from None
    k = len(task.concepts)
    maps = 0
    for a in range(k + 1):
        for n in range(k - a + 1):
            for z in range(k - a - n + 1):
                o = k - a - n - z
                if _keeps_labels(g, a, n, z + o, o):
                    maps += math.factorial(k) // (
                        math.factorial(a) * math.factorial(n) * math.factorial(z) * math.factorial(o)
                    )
    text = f"{k}! * {maps}"
    return ClosedForm(math.factorial(k) * maps, "k! * sum over valid value-map types of multinomials", text)


def _keeps_labels(g: list[tuple[Any, ...]], a: int, n: int, constants: int, ones: int) -> bool:
    for x in range(a + 1):
        for y in range(n + 1):
            image = g[x + n - y + ones]
            if any(g[x + y + w] != image for w in range(constants + 1)):
                return False
    return True


def digit_sum(task: Task) -> ClosedForm:
    """Exhaustive support, integer concepts, labels an injective function of their sum: every map is
    f_i(v) = v + s_i with sum(s) = 0 and D_i + s_i inside D_pi(i); counted over pi by a permanent
    of shift polynomials (equal domains: k!)."""
    _require_exhaustive_unsupervised(task)
    try:
        injective_in_sum(task)
    except Undetermined as exc:
        raise Unsuited(str(exc)) from None
    domains = [tuple(sorted(d)) for d in task.support.domains]

    def shifts(di: tuple[Any, ...], dj: tuple[Any, ...]) -> dict[int, int]:
        members = set(dj)
        return {s: 1 for s in (v - di[0] for v in dj) if all(u + s in members for u in di)}

    count = _typed_permanent(domains, domains, shifts).get(0, 0)
    k = len(domains)
    text = f"{k}!" if len(set(domains)) == 1 else str(count)
    return ClosedForm(count, "sum over pi of shift vectors s with sum 0, D_i + s_i in D_pi(i)", text)


CLOSED_FORMS: dict[Mode, dict[str, Callable[[Task], ClosedForm]]] = {
    Mode.DISENTANGLED: {
        "one example": one_example,
        "symmetric Boolean knowledge, exhaustive support": symmetric_boolean,
        "sum of integer concepts, exhaustive support": digit_sum,
    },
    Mode.JOINT: {"joint count": joint},
}


def closed_form(task: Task, mode: Mode) -> ClosedForm:
    """The first closed form that applies to `task` in `mode`; Unsuited saying why each one does not
    (its `facts["reasons"]`: one line per closed form)."""
    reasons = []
    for name, form in CLOSED_FORMS.get(mode, {}).items():
        try:
            return dataclasses.replace(form(task), name=name)
        except Unsuited as exc:
            reasons.append(f"{name}: {exc}")
    raise Unsuited("no closed form applies to this task: " + "; ".join(reasons), {"reasons": reasons})
