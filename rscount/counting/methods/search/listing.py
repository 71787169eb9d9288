"""The optimal maps of a task read off the search method's counts instead of a compiled map space:
per permutation class, how many value maps send a seen value to each image (one count with that
value pinned), and every valid value map, found value by value by keeping the images whose pinned
count is not zero. A count with pins is the search's own (rows checked as they fill), so a task the
search counts in seconds (a program's labels on ten thousand rows, poker hands) is listed and
tallied at that speed, where SAT or an SDD over the map space takes minutes."""

from __future__ import annotations

from collections.abc import Iterator

from ....knowledge.symmetry_groups import Blocks
from ...budget import Budget
from ...engines.value_maps import Tally
from ...problem import CountProblem
from .backend import Counter
from .slot_orders import Slot
from .value_search import Pins

Classes = list[tuple[tuple[int, ...], int]]  # permutation classes: representative, size


class SearchedMaps:
    """The permutation classes of a problem with optimal maps (one representative each, with its
    size; `classes` when a count by search kept them) and, per class, its value maps by pinned
    counts; `budget.max_nodes` (None: no bound) caps the search nodes of all its counts together
    (TooManyNodes past it)."""

    def __init__(self, problem: CountProblem, budget: Budget, classes: Classes | None = None) -> None:
        self.counter = Counter(problem)
        self.counter.search.max_nodes = budget.max_nodes
        self.coding = self.counter.coding
        if classes is None:
            classes = [(pi, size) for pi, size in self.counter.classes() if self.counter.models(pi)]
        self.classes = classes
        self.slots = sorted(self.coding.var)

    @property
    def blocks(self) -> Blocks:
        """The symmetry blocks whose double classes `classes` lists (for symmetry_groups)."""
        return self.counter.blocks

    def _images(self, pi: tuple[int, ...], slot: Slot) -> range:
        """The value numbers a seen value may become: those of the concept its owner feeds."""
        return range(self.coding.sizes[pi[slot[0]]])

    def tally(self, pi: tuple[int, ...]) -> Tally:
        """N(pi) and, per seen (owner, value number), the maps with pi that send it to each value
        number of the concept it feeds (as ClassCounter.tally gives them)."""
        count = self.counter.models
        fixed = {slot: [count(pi, pins=((slot, u),)) for u in self._images(pi, slot)] for slot in self.slots}
        return count(pi), fixed

    def identities(self, pi: tuple[int, ...]) -> list[int]:
        """Per ground-truth concept s, the optimal maps with pi whose f_s keeps every value (as
        ClassCounter.identities gives them): a count with f_s pinned to the identity."""
        coding = self.coding
        fits = {o: coding.sources[o] <= coding.sizes[pi[o]] for o in set(coding.owner)}
        kept = {o: self.counter.models(pi, pinned=o) if fits[o] else 0 for o in fits}
        return [kept[coding.owner[s]] for s in range(len(pi))]

    def value_maps(self, pi: tuple[int, ...]) -> Iterator[dict[Slot, int]]:
        """The images of the seen values in every value map valid with pi, each once: a value's
        image is kept when some valid map has it along with the images chosen before it. Each seen
        value has one image, so the counts of its images add up to the count without it: the value
        itself is tried first, and no image once they do (one map: a count per seen value)."""

        def extend(n: int, pins: Pins, total: int) -> Iterator[dict[Slot, int]]:
            if n == len(self.slots):
                yield dict(pins)
                return
            slot = self.slots[n]
            images = self._images(pi, slot)
            for u in sorted(images, key=lambda u: u != slot[1]):
                held = tuple(sorted((*pins, (slot, u))))
                found = self.counter.models(pi, pins=held)
                if found:
                    yield from extend(n + 1, held, found)
                    total -= found
                    if not total:
                        return

        if found := self.counter.models(pi):
            yield from extend(0, (), found)
