"""The concepts whose meaning a task does not identify, and what each may read instead.

A predicted concept j keeps its meaning in a map (pi, f) when it reads its own ground-truth concept
(P[j][j]) through the identity value map. The task identifies j when every optimal map keeps it;
SAT calls on the task's CNF decide that, which concepts j may read instead, and which of its values
may be predicted as others (rscount.insight.decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from ..counting.budget import Declined
from ..counting.methods.search import loose_concepts
from ..counting.problem import CountProblem
from ..errors import NotApplicable
from ..task.model import Mode, Task, Value
from .decisions import Identity, MapSolver, Undecided, identities, witness
from .maps import ConceptMap
from .simplest import Counted, listed_shortcuts

# Identification by search (for supports too large to encode) visits at most this many permutation
# prefixes and search nodes (search answers mnadd-n2's 24 permutations in 3000 nodes).
SEARCH_PERMUTATIONS = 20_000
SEARCH_NODES = 2_000_000


@dataclass(frozen=True)
class Unidentified:
    """How a concept may lose its meaning in some optimal map: the ground-truth concepts it may read
    instead of its own, whether its values may be remapped while it reads its own, and which of its
    values some optimal map predicts as other values (`moved`; None when not decided: identification
    by search answers per concept only). The values not moved are kept by every optimal map."""

    reads: tuple[str, ...]
    remapped: bool
    moved: tuple[Value, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: reads, remapped, and the values moved (None: not decided)."""
        return {
            "reads": list(self.reads),
            "remapped": self.remapped,
            "moved": None if self.moved is None else list(self.moved),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Unidentified:
        """The Unidentified of its JSON form."""
        moved = data.get("moved")
        return cls(tuple(data["reads"]), data["remapped"], None if moved is None else tuple(moved))


def unidentified_concepts(
    task: Task, mode: Mode, solver: MapSolver | None = None, counted: Counted | None = None
) -> dict[str, Unidentified]:
    """Each concept that some optimal map does not keep, with the ground-truth concepts it may read,
    whether its values may be remapped and which values may move: read off every shortcut where
    their number (`counted`, from a count) is small (listed_shortcuts), else decided by SAT on the
    task's CNF (rscount.insight.decisions), or, where that is too hard for the solver (a program's
    sums on ten thousand rows) or the support too large to encode, by the search method's
    identification (per concept only: `moved` is None). `solver`: one already on the task (its rows
    encoded carry over)."""
    listed = listed_shortcuts(task, mode, counted)
    if listed is not None:
        return from_maps(task, listed)
    try:  # what SAT cannot decide at once or per permutation, the search method's identification
        with nullcontext(solver) if solver else MapSolver(task, mode) as asked:
            found = identities(asked)
    except (NotApplicable, Undecided):
        return _by_search(task, mode)
    return from_identities(task, found)


def from_maps(task: Task, shortcuts: Sequence[ConceptMap]) -> dict[str, Unidentified]:
    """The Unidentified concepts of a task whose shortcuts are all of `shortcuts`."""
    seen = [Identity() for _ in task.concepts]
    for m in shortcuts:
        witness(task, m, seen)
    return from_identities(task, seen)


def from_identities(task: Task, found: list[Identity]) -> dict[str, Unidentified]:
    """The Unidentified of each concept whose Identity shows some optimal map not keeping it."""
    names = task.names
    return {
        names[j]: Unidentified(
            tuple(names[i] for i in sorted(who.reads)),
            who.remapped,
            tuple(v for n, v in enumerate(task.ground_truths[j]) if n in who.moved),
        )
        for j, who in enumerate(found)
        if who.reads or who.remapped or who.moved
    }


def _by_search(task: Task, mode: Mode) -> dict[str, Unidentified]:
    """unidentified_concepts by the search method, within its budget (disentangled mode)."""
    try:
        loose = loose_concepts(CountProblem(task, mode), SEARCH_PERMUTATIONS, SEARCH_NODES)
    except Declined as exc:
        raise NotApplicable(f"the concepts involved: {exc}") from None
    names = task.names
    return {
        names[j]: Unidentified(tuple(names[i] for i in sorted(found.readers)), found.remapped)
        for j, found in sorted(loose.items())
    }


def identified_values(task: Task, unidentified: dict[str, Unidentified]) -> dict[str, list[Value]]:
    """Per concept, the values every optimal map predicts as themselves (those no map moves; a
    concept whose moved values were not decided is left out), and for a task with objects, per
    attribute, the values every object's concept keeps (an attribute named like a concept is left
    out: the concept's entry is the one under that name)."""
    kept: dict[str, list[Value]] = {}
    for c, truth in zip(task.concepts, task.ground_truths):
        found = unidentified.get(c.name)
        if found is None or found.moved is not None:
            moved = set(() if found is None else found.moved or ())
            kept[c.name] = [v for v in truth if v not in moved]
    if task.objects is not None:
        count = task.objects.count
        for name, values in task.objects.attributes:
            concepts = [f"{name}_{o}" for o in range(1, count + 1)]
            if name not in kept and all(c in kept for c in concepts):
                kept[name] = [v for v in values if all(v in kept[c] for c in concepts)]
    return kept
