"""CNF of the joint count (eq. 7 under C1: any map alpha: D -> D), to cross-check its closed form.

One variable A[c][c'] per pair of concept vectors ("alpha(c) = c'"), exactly one true per c.
A support vector keeps only the images with its label (itself, if concept-supervised). Vectors
outside the support are free: their exactly-one constraints go after the core, and backends count
the core times |D| per such vector, as for unseen values in the disentangled encoding.
"""

from __future__ import annotations

from . import __version__
from .dimacs import Dimacs
from .encoding import Encoding, exactly_one_into
from .errors import RscountError
from .progress import Progress
from .support import all_rows, domain_size
from .task import Task

MAX_JOINT_VECTORS = 64


def encode_joint(task: Task, progress: Progress | None = None) -> Encoding:
    """The joint-count CNF of `task` (|D| <= MAX_JOINT_VECTORS: it has |D|^2 variables)."""
    domains = task.support.domains
    total = domain_size(domains)
    if total > MAX_JOINT_VECTORS:
        raise RscountError(
            f"{task.name}: the joint-mode CNF has |D|^2 variables and is built for |D| <= "
            f"{MAX_JOINT_VECTORS} (this task has |D| = {total}); the joint closed form counts any size"
        )
    vectors = list(all_rows(domains))
    support = set(task.support.rows)
    order = [c for c in vectors if c in support] + [c for c in vectors if c not in support]
    number = {c: n for n, c in enumerate(order)}
    var = {(c, d): number[c] * total + number[d] + 1 for c in vectors for d in vectors}
    names = {v: f"A {list(c)} -> {list(d)}" for (c, d), v in var.items()}
    core: list[list[int]] = []
    free: list[list[int]] = []
    labels = {c: task.label_of(c) for c in vectors}
    for n, c in enumerate(order):
        if progress:
            progress.update(f"encoding concept vector {n + 1}/{total}")
        row = [var[c, d] for d in vectors]
        if c not in support:
            exactly_one_into(free, row)
            continue
        exactly_one_into(core, row)
        if c in task.support.supervised:
            core.append([var[c, c]])
        else:
            core.extend([-var[c, d]] for d in vectors if labels[d] != labels[c])
    comments = [
        f"rscount {__version__}: optimal maps alpha: D -> D of task {task.name!r} (joint count)",
        f"concepts: {', '.join(task.names)}; |D| = {total}, |S| = {len(support)}",
        "A c -> d: alpha maps concept vector c to d",
    ]
    projection = sorted(names)
    cnf = Dimacs(total * total, core + free, projection, names, comments)
    core_projection = projection[: len(support) * total]
    factor = total ** (total - len(support))
    return Encoding(task, cnf, [], [], [], len(core), core_projection, factor, "joint")
