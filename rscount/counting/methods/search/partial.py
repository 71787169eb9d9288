"""Prefix checks of a search: each label of a group that reads placed concepts only, searched as a
group of its own with the sources placed so far; a prefix no value map extends on that label has no
optimal map. A label that reads one digit of a grid prunes the prefix placing that digit, not
the whole grid, and on a task's split labels (rscount.knowledge.splitting) a sudoku's placed cells
are checked pair by pair."""

from __future__ import annotations

from ....encoding.value_codes import ValueMapCoding
from ....task.expressions import free_names
from ...budget import TooManyNodes
from ...engines.group_tables import Group, GroupTables
from .value_search import ValueSearch

# A prefix is checked on a label that reads placed concepts only by a value search of at most this
# many nodes; past it the prefix is kept (only a proved refusal prunes).
PARTIAL_NODES = 20_000


class PartialChecks:
    """Checks of prefixes on the labels of `coding`'s task (its value maps shared by all objects or
    not, as the coding says); with `whole`, also on the labels of a group whose concepts are all
    placed (where the caller does not count the group)."""

    def __init__(self, coding: ValueMapCoding, whole: bool) -> None:
        task = coding.task
        self.coding = coding
        self.groups = self.coding.label_groups()
        self.whole = whole
        index = {c.name: j for j, c in enumerate(task.concepts)}
        self.reads = {n: frozenset(index[v] for v in free_names(e)) for n, e in task.labels.items()}
        # each label checked is a group of its own (numbered by its name); whether some value map
        # keeps it with given sources
        self.checked: list[Group] = []
        self.search = ValueSearch(self.coding, self.checked, GroupTables(self.coding, self.checked))
        self.search.existence = True
        self.numbers: dict[str, int] = {}
        self.known: dict[tuple[int, tuple[int, ...]], bool] = {}

    def viable(self, where: dict[int, int], new: frozenset[int]) -> bool:
        """Whether every label that reads placed concepts only (targets of `where`, which gives each
        its source), one of them in `new` (those placed last), is kept by some value map. Labels are
        checked one by one: a label's check is small and shared by every prefix placing its
        concepts alike (checking them together cost more than it pruned, on a sudoku's cells and
        on NeurASP's apply2x2)."""
        for labels, targets in self.groups:
            if new.isdisjoint(targets) or (not self.whole and all(j in where for j in targets)):
                continue
            for n in labels:
                read = self.reads[n]
                if read <= where.keys() and not read.isdisjoint(new) and not self._kept(n, where):
                    return False
        return True

    def _kept(self, label: str, where: dict[int, int]) -> bool:
        """Whether some value map keeps `label` on every row with the targets it reads fed by the
        sources `where` gives them; True also where that search takes more than PARTIAL_NODES nodes."""
        number = self.numbers.setdefault(label, len(self.checked))
        if number == len(self.checked):
            self.checked.append(([label], sorted(self.reads[label])))
        key = (number, tuple(where[j] for j in self.checked[number][1]))
        if key not in self.known:
            self.search.max_nodes = self.search.nodes + PARTIAL_NODES
            try:
                self.known[key] = bool(self.search.count(number, key[1]))
            except TooManyNodes:
                self.known[key] = True
        return self.known[key]


def perfect_matching(fits: list[list[int]]) -> bool:
    """Whether each item can be given one of its `fits`, no two the same (augmenting paths)."""
    owner: dict[int, int] = {}

    def take(item: int, seen: set[int]) -> bool:
        for choice in fits[item]:
            if choice not in seen:
                seen.add(choice)
                if choice not in owner or take(owner[choice], seen):
                    owner[choice] = item
                    return True
        return False

    return all(take(item, set()) for item in range(len(fits)))
