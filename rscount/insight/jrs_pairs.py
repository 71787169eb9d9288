"""Joint reasoning shortcuts (jrs) shown readably (`explain --mode jrs`): a concept map A that some learned
inference layer fits, and the simplest such layer as a formula over the predicted concepts,
minimised by pyeda's Espresso with every vector the support does not reach left free."""

from __future__ import annotations

from typing import Any

from pyeda.inter import espresso_tts, exprvar, truthtable

from ..counting.methods.jrs import FittingMap, fitting_maps, structure
from ..knowledge.labels import label_values
from ..task.model import Task

MINIMISE_INPUTS = 12  # predicted Boolean concepts a truth table may range over


def map_text(task: Task, a: FittingMap) -> str:
    """`c1 <- c2; c3: 0->1` (plain tasks) or `objects 1<->2; colour <- shape, shape: 0->1`."""
    n, names, domains = structure(task)
    parts = []
    if n > 1 and a.sigma != tuple(range(n)):
        parts.append("objects " + ", ".join(f"{o + 1}->{s + 1}" for o, s in enumerate(a.sigma) if o != s))
    for v, w in enumerate(a.perm):
        moved = [f"{x}->{domains[w][u]}" for x, u in zip(domains[v], a.g[v]) if domains[w][u] != x or v != w]
        head = f"{names[w]} <- {names[v]}" if v != w else names[v]
        if v != w or moved:
            parts.append(f"{head}: {' '.join(moved)}" if moved else head)
    return "; ".join(parts) or "the identity"


def layer_text(task: Task, a: FittingMap) -> str:
    """The simplest inference layer fitting A, one formula per label when every predicted concept
    and label is Boolean (Espresso, unreached vectors free), else B on the vectors the support reaches."""
    names = list(task.names)
    labels = label_values(task)
    boolean = all(set(c.values) == {0, 1} for c in task.concepts) and all(
        set(v) <= {0, 1} for v in labels.values()
    )
    if not boolean or len(names) > MINIMISE_INPUTS:
        shown = "; ".join(f"{list(k)} -> {list(v)}" for k, v in list(a.images.items())[:8])
        more = " ..." if len(a.images) > 8 else ""
        return f"B: {shown}{more}; any class elsewhere"
    inputs = [exprvar(name) for name in names]
    formulas = []
    for i, label in enumerate(labels):
        cells = []
        for index in range(2 ** len(names)):
            vector = tuple(index >> b & 1 for b in range(len(names)))
            cells.append(str(a.images[vector][i]) if vector in a.images else "-")
        (formula,) = espresso_tts(truthtable(inputs, "".join(cells)))
        formulas.append(f"{label} = {formula}")
    return "; ".join(formulas)


def jrs_shortcuts(task: Task, show: int) -> list[dict[str, Any]]:
    """Up to `show` concept maps that are not bijective, each with the simplest layer that fits it,
    fewest merged values first (bijective maps pair with their intended layer)."""
    found = [a for a in fitting_maps(task) if not all(a.bijective)]
    found.sort(key=lambda a: (sum(not kept for kept in a.bijective), a.perm, a.sigma, a.g))
    return [
        {"text": f"{map_text(task, a)}  |  {layer_text(task, a)}", "free_vectors": a.free}
        for a in found[:show]
    ]
