"""The value maps valid with a fixed concept permutation pi, counted (N(pi)) and, when asked, counted
with one value fixed: for every value v a ground-truth concept (its value-map owner o) shows, the
maps with f_o(v) = u (the marginals forecast needs). One walk gives both (`tally`); a count is the
walk without value indicators.

With value maps per concept (the disentangled mode), N(pi) is a product over label groups, and a
group's factor only depends on which concepts feed its concepts, so factors are cached across
classes (SDD-OIA ambulance rules, 3285 classes: 41 s without, see docs/performance.md); a value map
only enters its group's factor, so a marginal is the group's marginal times the other factors. A
group's tally comes from its table (GroupTables) where it fits, else from the value maps
(ValueMapCounter: SAT enumeration when few, else the SDD). Where every label is an equality test,
the colourings of the images give the marginals and identities (ImageColourings: a bijection that
SDDs and enumeration meet head on); the counts stay the decomposition's own. Values no support
row shows are in N (each maps anywhere, so their marginals are N / |D_pi(o)|, left to the
caller)."""

from __future__ import annotations

import math
from typing import Any, Literal

from ...encoding.value_codes import ValueMapCoding
from ...knowledge.equalities import equality_labels
from ...task.model import Mode, Task
from .colourings import ImageColourings
from .group_tables import GroupTables
from .value_maps import Tally, ValueMapCounter


class ClassCounter:
    """N(pi), and its marginals, for the permutations of one task in `mode`."""

    def __init__(self, task: Task, mode: Mode) -> None:
        self.coding = ValueMapCoding(task, shared=mode == Mode.OBJECTS)
        self.counter = ValueMapCounter(self.coding)
        tests = equality_labels(task)
        self.colourings = None if tests is None else ImageColourings(self.coding, tests)
        self.groups = self.coding.label_groups() if mode == Mode.DISENTANGLED else []
        self.tables = GroupTables(self.coding, self.groups) if self.groups else None
        self.tallies: dict[tuple[int, tuple[int, ...]], Tally] = {}  # per label group and its sources
        self.by_table = 0

    def count(self, pi: tuple[int, ...]) -> int:
        """N(pi): the optimal maps with permutation pi."""
        return self.tally(pi, marginals=False)[0]

    def tally(self, pi: tuple[int, ...], marginals: bool = True) -> Tally:
        """N(pi) and, with `marginals`, per seen (owner, value number) the maps with pi that send it
        to each value number of the concept it feeds."""
        unseen = self.coding.unseen_factor(pi)
        if not self.groups or (marginals and self.colourings is not None):
            owners = set(self.coding.owner) if marginals else set()
            counter = self.colourings if marginals and self.colourings is not None else self.counter
            total, fixed = counter.tally(pi, owners)
            return total * unseen, {key: [n * unseen for n in row] for key, row in fixed.items()}
        parts: list[Tally] = []
        for g in range(len(self.groups)):
            parts.append(self._group(g, pi, marginals))
            if not parts[-1][0]:
                return 0, {}
        total = unseen * math.prod(factor for factor, _ in parts)
        return total, {
            key: [n * (total // factor) for n in row] for factor, fixed in parts for key, row in fixed.items()
        }

    def identities(self, pi: tuple[int, ...]) -> list[int]:
        """Per ground-truth concept s, the optimal maps with pi whose f_s sends every value to the
        same value number (seen values pinned by the engine that counts the factor, unseen ones
        keeping one of their |D_pi(s)| images)."""
        coding = self.coding
        if self.colourings is not None:
            seen = {o: n * coding.unseen_factor(pi) for o, n in self.colourings.identities(pi).items()}
        else:
            seen = self._kept(pi)
        found = []
        for s in range(len(pi)):
            o = coding.owner[s]
            unseen = coding.sizes[pi[o]] ** (coding.sources[o] - len(coding.seen[o]))
            fits = coding.sources[o] <= coding.sizes[pi[o]]
            found.append(seen.get(o, 0) // unseen if fits else 0)
        return found

    def _kept(self, pi: tuple[int, ...]) -> dict[int, int]:
        """Per owner (or, by label group, per source), the optimal maps with pi that keep its seen
        values, from the factor's engine (unseen values free)."""
        coding, total = self.coding, self.count(pi)
        seen: dict[int, int] = {}
        if total and not self.groups:
            models = self.counter.count(pi)
            for o, n in self.counter.identities(pi, set(coding.owner)).items():
                seen[o] = n * (total // models)
        for g in range(len(self.groups)) if total else ():
            factor = self._group(g, pi, False)[0]
            assert self.tables is not None
            kept = self.tables.identities(g, pi)
            if kept is None:
                group = self.groups[g]
                free = coding.num_vars - coding.group_vars(pi, group)
                kept = {
                    s: n >> free for s, n in self.counter.identities(pi, self._key(g, pi)[1], group).items()
                }
            seen.update({s: n * (total // factor) for s, n in kept.items()})
        return seen

    @property
    def tabulated(self) -> bool:
        """Whether every label group is counted by table, whatever pi."""
        return self.tables is not None and all(self.tables.covers(g) for g in range(len(self.groups)))

    def check(self, pi: tuple[int, ...]) -> Literal[True] | list[tuple[Any, ...]]:
        """True when the tables show value maps of every label group working with pi; else a few
        support rows that refute pi by table (none when the tables cannot tell): a check far
        cheaper than SAT on every row."""
        known = bool(self.groups)
        for g in range(len(self.groups)):
            found = self._by_table(g, pi, marginals=False)
            if found is not None and found[0] == 0:
                assert self.tables is not None
                rows = self.coding.rows()
                return [rows[n][0] for n in self.tables.refuting_rows(g, pi) or ()]
            known = known and found is not None
        return True if known else []

    def _group(self, g: int, pi: tuple[int, ...], marginals: bool) -> Tally:
        """Group g's factor with pi (and the marginals of the value maps feeding it): by table where
        it fits, else by the value-map counter."""
        found = self._by_table(g, pi, marginals)
        if found is None:
            key = self._key(g, pi)
            group = self.groups[g]
            free = self.coding.num_vars - self.coding.group_vars(pi, group)
            total, fixed = self.counter.tally(pi, set(key[1]) if marginals else set(), group)
            found = self.tallies[key] = (
                total >> free,
                {k: [n >> free for n in row] for k, row in fixed.items()},
            )
        return found

    def _by_table(self, g: int, pi: tuple[int, ...], marginals: bool) -> Tally | None:
        """Group g's tally with pi if known (with marginals when asked) or counted by table, else None."""
        assert self.tables is not None
        key = self._key(g, pi)
        known = self.tallies.get(key)
        if known is not None and (not marginals or known[1] or not known[0]):
            return known
        found = self.tables.tally(g, pi, marginals)
        if found is None:
            return None
        self.by_table += known is None
        self.tallies[key] = found
        return found

    def _key(self, g: int, pi: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        """Tallies are kept per group and the sources feeding its concepts."""
        where = {j: i for i, j in enumerate(pi)}
        return g, tuple(where[j] for j in self.groups[g][1])

    def details(self) -> dict[str, Any]:
        """What the result's details say about label groups and the factors counted by table."""
        if not self.groups:
            return {}
        found: dict[str, Any] = {"group_factors_by_table": self.by_table}
        if len(self.groups) > 1:
            found.update(label_groups=len(self.groups), group_factors_counted=len(self.tallies))
        return found
