"""One independent part of a value search's constraint graph, counted depth first by each slot order
in turns (value_search.py builds the parts and multiplies their counts): a subtree's count is
memoised on its frontier, and a depth entered often checks its rows by cached masks of allowed
images."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any, Protocol

from ...budget import TooManyNodes
from .search_plans import Part, Picker, Plan
from .slot_orders import ORDERS, SIZED, Constraint, Slot, fail_first

MEMO_ENTRIES = 1 << 20  # memoised subtrees (or cached masks) kept before they are emptied
MEMO_TRIAL = 1024  # look-ups at a depth before a depth that never hit stops memoising
FIRST_TURN = 4096  # search nodes of each order's first turn
LEAD = 4  # the leading order's turns are this many times the others'
FORWARD = 4096  # a probe checks a row before its last slot only if at most this many completions
EXPLORE = 8  # every this many parts, the order that goes first is not the cheapest so far
LabelId = Callable[[tuple[int, ...]], int]  # the label id of a tuple of value numbers
Read = tuple[int, tuple[int, ...]]  # a group, and per target the slot of a constraint it reads
Allowed = dict[tuple[int, ...], int]  # a check's allowed images (bits), by the other slots' images
Masker = Callable[[tuple[int, ...]], int]  # what computes them
MaskCheck = tuple[Picker, Allowed, Masker]


class Owner(Protocol):
    """What a part's search asks of the value search it runs for: node counts, each order's record,
    label readers and the checks' shared mask caches."""

    nodes: int
    max_nodes: int | None
    parts: int
    existence: bool  # a part's search stops at its first valid assignment, counting it 1

    def cost(self, order: str) -> float: ...

    def spend(self, order: str, nodes: int, finished: bool) -> None: ...

    def reader(self, g: int, reading: tuple[int, ...]) -> LabelId: ...

    def check(
        self, g: int, reading: tuple[int, ...], at: tuple[int, ...], due: int, want: int | None, size: int
    ) -> MaskCheck: ...

    def cached(self) -> None: ...

    completable: dict[tuple[Any, ...], int]  # probes' allowed images of a slot, by row and known images


class _OutOfNodes(Exception):
    """A search used up the nodes its turn allows (it keeps its place for its next turn)."""


def count_part(
    part: Part,
    sizes: dict[Slot, int],
    reading: tuple[int, ...],
    pins: dict[Slot, int],
    reads: list[Read],
    owner: Owner,
) -> int:
    """One part counted by the slot orders in turns, each turn resuming that order's search with
    twice the nodes of its last, until one finishes: no order is best on every task (fail-first
    stalls on rows that a two-valued image barely constrains; rare labels first with concepts in
    turn, the brute force's order, on others). The order with the fewest nodes per part finished so
    far leads; the others join after its first turn (once it has spent a node per constraint, about
    what ordering them costs), with 1/LEAD of its turns, so a part costs at most the leader's nodes
    and 1/LEAD more, or about LEAD + 1 times what a better order needs. Every EXPLORE-th part,
    another order first gets one trial turn as long as the leader's mean part (so measuring it costs
    little); a part the first turn finishes never computes the others. An untried order leads only
    where computing it costs no more than the best order's mean part (MNIST addition, 10^4 rows:
    its three parts take about 1100 nodes each, ordering their rows about as much as 10^4)."""
    shape = tuple(sorted((s, sizes[s]) for s in part.slots))

    def key(order: Callable[..., list[Slot]]) -> tuple[str, Any]:
        return (order.__name__, shape if order in SIZED else None)

    def rank(order: Callable[..., list[Slot]]) -> tuple[float, int]:
        cost = owner.cost(order.__name__)
        if cost < 0 and key(order) not in part.orders and len(part.constraints) > best:
            cost = math.inf  # untried, and dearer to compute than what the best order takes
        return cost, ORDERS.index(order)

    best = min((c for c in map(owner.cost, (o.__name__ for o in ORDERS)) if c >= 0), default=math.inf)
    ranked = sorted(ORDERS, key=rank)
    owner.parts += 1
    searches: list[tuple[_Search, str]] = []

    def join(order: Callable[[list[Constraint], list[Slot], dict[Slot, int]], list[Slot]]) -> None:
        """The order's search joins the turns (unless another order gave the same slot order)."""
        if key(order) not in part.orders:
            part.orders[key(order)] = tuple(order(part.constraints, part.slots, sizes))
        plan = part.plan(part.orders[key(order)])
        if all(search.plan is not plan for search, _ in searches):
            searches.append((_Search(plan, sizes, reading, pins, reads, owner), order.__name__))

    def finish(winner: _Search, total: int) -> int:
        for search, name in searches:
            owner.spend(name, search.used, search is winner)
        return total

    def affordable(order: Callable[..., list[Slot]], nodes: float) -> bool:
        """Whether the order is at hand, or `nodes` would pay for computing it (ordering costs about
        a node per constraint)."""
        return key(order) in part.orders or nodes >= len(part.constraints)

    join(ranked[0])  # the others join if its first turn does not finish the part
    mean = owner.cost(ranked[0].__name__)
    if owner.parts % EXPLORE == 0 and len(ranked) > 1 and 0 < mean < math.inf:
        other = ranked[1 + owner.parts // EXPLORE % (len(ranked) - 1)]
        if affordable(other, mean):
            join(other)
        if len(searches) > 1:
            try:
                return finish(searches[1][0], searches[1][0].count(max(int(mean), 1)))
            except _OutOfNodes:
                pass
    budget = FIRST_TURN
    while True:
        for turn, (search, _) in enumerate(searches):
            if owner.max_nodes is not None and owner.nodes >= owner.max_nodes:
                raise TooManyNodes(f"search: more than {owner.max_nodes} search nodes")
            try:
                return finish(search, search.count(budget if turn == 0 else budget // LEAD))
            except _OutOfNodes:
                continue
        for order in ranked[1:]:
            if affordable(order, searches[0][0].used):
                join(order)
        budget *= 2


class _Search:
    """The depth-first count of one independent part for one permutation, by a plan."""

    def __init__(
        self,
        plan: Plan,
        sizes: dict[Slot, int],
        reading: tuple[int, ...],
        pins: dict[Slot, int],
        reads: list[Read],
        owner: Owner,
    ) -> None:
        self.plan = plan
        self.sizes = [sizes[s] for s in plan.order]
        self.fixed = plan.fixed(reading, pins)
        self.reads = reads
        self.labels = [owner.reader(g, order) for g, order in reads]
        # per depth, its checks by cached masks of allowed images; None while each node there still
        # runs every check on every image: building a depth's masks costs about a look-up per check
        # due there, so they are built once the depth has been entered that many times (it then
        # spends at most about twice what the better of the two ways would)
        self.checks: list[list[MaskCheck] | None] = [None if due else [] for due in plan.labels]
        self.entries = [0] * len(plan.order)
        self.allowed = [0] * len(plan.order)  # per depth, the images its checks allow (bits)
        self.owner = owner
        self.image = [0] * len(plan.order)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.used = 0  # search nodes of all its turns
        # where the search stands between turns: depth and whether that node is yet to be entered;
        # per depth, the last image tried, the subtrees' sum so far and the node's memo key
        self.at = (0, True)
        self.tried = [0] * len(plan.order)
        self.totals = [0] * len(plan.order)
        self.keys: list[tuple[int, tuple[int, ...]] | None] = [None] * len(plan.order)

    def count(self, nodes: int) -> int:
        """The part's count, or _OutOfNodes after `nodes` more search nodes (or at the owner's cap);
        a later call resumes where this one stopped."""
        owner = self.owner
        limit = owner.nodes + nodes if owner.max_nodes is None else min(owner.nodes + nodes, owner.max_nodes)
        before = owner.nodes
        try:
            return self._run(limit)
        finally:
            self.used += owner.nodes - before

    def _masks(self, n: int) -> list[MaskCheck]:
        """The label checks due at depth n as cached masks of allowed images."""
        return [
            self.owner.check(*self.reads[tag], at, n, want, self.sizes[n])
            for at, want, tag in self.plan.labels[n]
        ]

    def _run(self, limit: int) -> int:
        """Depth-first, iteratively: at depth n, `entering` a node (memo look-up, then its first
        image) or trying the next image of slot n; `totals[n]` sums the finished subtrees under it."""
        owner, image, memo, allowed, labels = self.owner, self.image, self.memo, self.allowed, self.labels
        sizes, checks, fixed, tried, totals, keys = (
            self.sizes,
            self.checks,
            self.fixed,
            self.tried,
            self.totals,
            self.keys,
        )
        plan = self.plan
        lookups, hits, frontier, direct = plan.lookups, plan.hits, plan.frontier, plan.direct
        depth = len(plan.order)
        entries = self.entries
        n, entering = self.at
        while True:
            if entering:
                found: int | None = None
                if n == depth:
                    if owner.existence:
                        return 1
                    found = 1
                else:
                    key = None
                    if lookups[n] < MEMO_TRIAL or hits[n] > 0:
                        key = (n, frontier[n](image))
                        lookups[n] += 1
                        found = memo.get(key)
                        if found is not None:
                            hits[n] += 1
                            if found and owner.existence:
                                return 1
                    if found is None:
                        if owner.nodes >= limit:
                            self.at = (n, True)
                            raise _OutOfNodes
                        owner.nodes += 1
                        keys[n], totals[n], tried[n] = key, 0, -1
                        mask = (1 << sizes[n]) - 1
                        for images in fixed[n]:
                            for p, w in images:
                                if p == n:
                                    mask &= 1 << w
                                elif image[p] != w:
                                    mask = 0
                        at_depth = checks[n]
                        if at_depth is None:
                            entries[n] += 1
                            if entries[n] > len(direct[n]):
                                at_depth = checks[n] = self._masks(n)
                        if at_depth is None:
                            bits, size = 0, sizes[n]
                            for u in range(size):
                                if mask >> u & 1:
                                    image[n] = u
                                    for read, want, tag in direct[n]:
                                        if labels[tag](read(image)) != want:
                                            break
                                    else:
                                        bits |= 1 << u
                            mask = bits
                        else:
                            for read, cache, masker in at_depth:
                                if not mask:
                                    break
                                earlier = read(image)
                                got = cache.get(earlier)
                                if got is None:
                                    got = cache[earlier] = masker(earlier)
                                    owner.cached()
                                mask &= got
                        allowed[n] = mask
                        entering = False
                        continue
            else:
                rest = allowed[n] >> (tried[n] + 1)
                if rest:
                    u = tried[n] + (rest & -rest).bit_length()
                    tried[n] = image[n] = u
                    n, entering = n + 1, True
                    continue
                found = totals[n]
                done = keys[n]
                if done is not None:
                    if len(memo) >= MEMO_ENTRIES:
                        memo.clear()
                    memo[done] = found
            if n == 0:
                return found
            n, entering = n - 1, False
            totals[n] += found


def probe_part(
    part: Part,
    sizes: dict[Slot, int],
    reading: tuple[int, ...],
    pins: dict[Slot, int],
    reads: list[Read],
    owner: Owner,
    rng: random.Random,
) -> int:
    """One random probe down the part's search tree (Knuth's estimator): slots in fail-first order,
    each given an image drawn uniformly among those that leave every row reading it completable, and
    the probe worth the product of how many images each depth allowed (0 at a dead end). An image
    left out has no valid map below it, so over the draws the probe's expectation is the count."""
    key = ("fail_first", tuple(sorted((s, sizes[s]) for s in part.slots)))
    if key not in part.orders:
        part.orders[key] = tuple(fail_first(part.constraints, part.slots, sizes))
    plan = part.plan(part.orders[key])
    fixed = plan.fixed(reading, pins)
    size = [sizes[s] for s in plan.order]
    labels = [owner.reader(g, order) for g, order in reads]
    image = [0] * len(plan.order)
    weight = 1
    for n, touching in enumerate(plan.touching()):
        owner.nodes += 1
        mask = (1 << size[n]) - 1
        for images in fixed[n]:
            for p, w in images:
                if p == n:
                    mask &= 1 << w
                elif image[p] != w:
                    mask = 0
        for at, want, tag in touching:
            if not mask:
                return 0
            earlier = tuple(dict.fromkeys(p for p in at if p < n))
            later = tuple(dict.fromkeys(p for p in at if p > n))
            free = tuple(size[p] for p in later)
            if math.prod(free) > FORWARD:
                continue  # too many completions to look through: checked once its last slot is due
            pattern = tuple(earlier.index(p) if p < n else -1 if p == n else -2 - later.index(p) for p in at)
            known = tuple(image[p] for p in earlier)
            found = (reads[tag], want, pattern, free, size[n], known)
            bits = owner.completable.get(found)
            if bits is None:
                bits = owner.completable[found] = _completable(
                    labels[tag], want, pattern, free, size[n], known
                )
                if len(owner.completable) > MEMO_ENTRIES:
                    owner.completable.clear()
            mask &= bits
        if not mask:
            return 0
        allowed = [u for u in range(size[n]) if mask >> u & 1]
        weight *= len(allowed)
        image[n] = allowed[rng.randrange(len(allowed))]
    return weight


def _completable(
    label: LabelId,
    want: int | None,
    pattern: tuple[int, ...],
    free: tuple[int, ...],
    size: int,
    known: tuple[int, ...],
) -> int:
    """The images u (bit u) of a slot with which some images of the `free` slots give a row its
    label: `pattern` says per target which slot it reads (k >= 0: known[k], -1: the slot, -2 - j:
    the j-th free slot)."""
    bits = 0
    for u in range(size):
        for rest in itertools.product(*map(range, free)):
            values = tuple(known[k] if k >= 0 else u if k == -1 else rest[-2 - k] for k in pattern)
            if label(values) == want:
                bits |= 1 << u
                break
    return bits
