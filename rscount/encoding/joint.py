"""CNF of the joint count (eq. 7 under C1: any map alpha: D -> D), to cross-check its closed form.

One variable A[c][c'] per pair of concept vectors ("alpha(c) = c'"), exactly one true per c.
A support vector keeps only the images with its label (itself, if concept-supervised). Vectors
outside the support are free: their exactly-one constraints go after the core, and backends count
the core times |D| per such vector, as for unseen values in the disentangled encoding.
"""

from __future__ import annotations

from ..errors import NotApplicable
from ..knowledge.circuit import CNFBuilder, exactly_one
from ..limits import number_text
from ..progress import Progress
from ..task.model import Mode, Task
from ..task.support import all_rows, domain_size
from ..version import __version__
from .model import Encoding
from .pool import MapPool

MAX_JOINT_VECTORS = 64


def encode_joint(task: Task, progress: Progress | None = None) -> Encoding:
    """The joint-count CNF of `task` (|D| <= MAX_JOINT_VECTORS: it has |D|^2 variables)."""
    domains = task.support.domains
    total = domain_size(domains)
    if total > MAX_JOINT_VECTORS:
        raise NotApplicable(
            f"{task.name}: the joint-mode CNF has |D|^2 variables and is built for |D| <= "
            f"{MAX_JOINT_VECTORS} (this task has |D| = {number_text(total)}); "
            "the joint closed form counts any size"
        )
    support = set(task.support.rows)
    vectors = list(all_rows(domains))
    order = [c for c in vectors if c in support] + [c for c in vectors if c not in support]
    pool = MapPool(CNFBuilder())
    shown = [str(list(c)) for c in order]
    a = dict(zip(order, pool.matrix("A", shown, shown)))
    position = {d: n for n, d in enumerate(order)}
    core: list[list[int]] = []
    free: list[list[int]] = []
    labels = {c: task.label_of(c) for c in vectors}
    for n, c in enumerate(order):
        if progress:
            progress.update(f"encoding concept vector {n + 1}/{total}")
        row = [a[c][position[d]] for d in vectors]
        if c not in support:
            free.extend(exactly_one(row))
            continue
        core.extend(exactly_one(row))
        if c in task.support.supervised:
            core.append([a[c][position[c]]])
        else:  # an image with another label, or off c on a concept supervised on c, is excluded
            on = task.support.supervised_on(c)
            core.extend(
                [-a[c][position[d]]]
                for d in vectors
                if labels[d] != labels[c] or any(d[k] != c[k] for k in on)
            )
    comments = [
        f"rscount {__version__}: optimal maps alpha: D -> D of task {task.name!r} (joint count)",
        f"concepts: {', '.join(task.names)}; |D| = {number_text(total)}, |S| = {len(support)}",
        "A c -> d: alpha maps concept vector c to d",
    ]
    cnf = pool.dimacs(core + free, comments)
    core_projection = (cnf.projection or [])[: len(support) * total]
    factor = total ** (total - len(support))
    return Encoding(task, cnf, [], [], [], len(core), core_projection, factor, Mode.JOINT)
