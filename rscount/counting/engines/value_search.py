"""Value maps valid with a fixed concept permutation, counted by depth-first search over the images of
the values the support shows: each support row becomes a constraint on the slots (owner, value) it
reads, checked as soon as its last slot is assigned, slots in two orders taking turns (fail-first,
and the brute force's: rare labels first, concepts in turn); independent parts of the constraint
graph are counted apart and multiplied, and a subtree's count is memoised on the assignment of the
slots later constraints still read (its frontier), so a chain of rows costs its width, not its
length. No solver, no compilation: what a 40-line brute force does, per label group and per class.
Where a depth is entered often, the images each check allows there are kept as bit masks, by the
images of the check's other slots (shared by every permutation and row that asks the same of the
labels), so a node costs a look-up per check instead of a label per check and image: MNMath in the
objects mode, 40 uniform rows, 630 classes: 111 s before, 20 s after (profiled); markov-chain 26 s
to 12 s.

Counts are over the seen values of the owners feeding the group (as GroupTables counts them): slots
no row reads multiply by their domain size."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ...encoding.value_codes import ValueMapCoding
from ...errors import TaskError
from ...task.expressions import evaluate, normalise
from ..budget import TooManyNodes
from .group_tables import MISSING, Group, GroupTables
from .search_plans import Part, Picker, Plan, Skeleton, picker
from .slot_orders import ORDERS, SIZED, Constraint, Slot

MEMO_ENTRIES = 1 << 20  # memoised subtrees kept before the memo is emptied
MEMO_TRIAL = 1024  # look-ups at a depth before a depth that never hit stops memoising
LabelId = Callable[[tuple[int, ...]], int]  # the label id of a tuple of value numbers
SKELETONS = 4096  # group skeletons (per set of sources) kept before they are dropped
Read = tuple[int, tuple[int, ...]]  # a group, and per target the slot of a constraint it reads
Allowed = dict[tuple[int, ...], int]  # a check's allowed images (bits), by the other slots' images
Masker = Callable[[tuple[int, ...]], int]  # what computes them
MaskCheck = tuple[Picker, Allowed, Masker]
Feeds = tuple[tuple[int, tuple[int, ...]], ...]  # label groups, each with the sources of its targets
Watched = tuple[tuple[int, ...], tuple[int, ...]]  # sources, and the concepts they feed


class ValueSearch:
    """Counts, for a permutation pi and a label group, the images of the seen values of the owners
    feeding the group that keep every row's labels (and supervised values)."""

    def __init__(self, coding: ValueMapCoding, groups: Sequence[Group], tables: GroupTables) -> None:
        self.coding = coding
        self.groups = list(groups)
        self.tables = tables
        self.labels: dict[int, tuple[dict[tuple[int, ...], int], LabelId]] = {}
        self.ids: dict[int, dict[tuple[Any, ...], int]] = {}  # per group: evaluated label tuples numbered
        self.nodes = 0  # search nodes visited (for the details)
        self.max_nodes: int | None = None  # past this many nodes, TooManyNodes
        self.skeletons: dict[tuple[Feeds, Watched], Skeleton] = {}  # by what they were built from
        self.spent: dict[str, tuple[int, int]] = {}  # per slot order: parts it finished, nodes it took
        self.parts = 0  # parts counted
        # per group, wanted label, check pattern (targets' order) and slot size: the images a check
        # allows, by the images of the other slots it reads
        self.allowed: dict[tuple[int, int | None, tuple[int, ...], int], tuple[Allowed, Masker]] = {}
        self.tabled: dict[int, list[int]] = {}  # per group with a label table, its label ids
        self.patterns: dict[tuple[int, int], tuple[int, ...]] = {}  # by hole and length
        self.entries = 0  # entries of those caches

    def reader(self, g: int, reading: tuple[int, ...]) -> LabelId:
        """Group g's label id of images listed in a constraint's slot order, where target t reads
        the slot at position reading[t]."""
        known, label = self._labels(g)
        if reading == tuple(range(len(reading))):
            return label
        targets = picker(reading)

        def permuted(values: tuple[int, ...]) -> int:
            read = targets(values)  # type: ignore[arg-type]
            found = known.get(read)
            return label(read) if found is None else found

        return permuted

    def check(
        self, g: int, reading: tuple[int, ...], at: tuple[int, ...], due: int, want: int | None, size: int
    ) -> MaskCheck:
        """A check of group g's labels due at depth `due`, as the search runs it: the positions `at`
        of the slots it reads are put in the targets' order (target t reads slot reading[t]), so
        that every permutation and row asking the same of the labels shares one cache of allowed
        images."""
        positions = tuple([at[r] for r in reading])
        if positions.count(due) == 1 and len(set(positions)) == len(positions):
            hole = positions.index(due)
            earlier = positions[:hole] + positions[hole + 1 :]
            pattern = self.patterns.get((hole, len(positions)))
            if pattern is None:
                pattern = tuple(range(hole)) + (-1,) + tuple(range(hole, len(earlier)))
                self.patterns[hole, len(positions)] = pattern
        else:  # a slot read twice (shared value maps)
            earlier = tuple(dict.fromkeys(p for p in positions if p != due))
            pattern = tuple(-1 if p == due else earlier.index(p) for p in positions)
        key = (g, want, pattern, size)
        if key not in self.allowed:
            self.allowed[key] = {}, self._masker(g, want, pattern, size)
        return (picker(earlier), *self.allowed[key])

    def _masker(self, g: int, want: int | None, pattern: tuple[int, ...], size: int) -> Masker:
        """The function that gives a check's allowed images (bit u: image u) from the images of the
        other slots it reads: read off the group's label table (codes in mixed radix, first target
        most significant) where it has one, else by its label function."""
        table = self.tables.label_table(g)
        if table is None:
            label = self._labels(g)[1]
            holes = [t for t, k in enumerate(pattern) if k < 0]

            def evaluated(earlier: tuple[int, ...]) -> int:
                values = [earlier[k] if k >= 0 else 0 for k in pattern]
                bits = 0
                for u in range(size):
                    for t in holes:
                        values[t] = u
                    if label(tuple(values)) == want:
                        bits |= 1 << u
                return bits

            return evaluated
        if g not in self.tabled:
            self.tabled[g] = table[0].tolist()
        ids = self.tabled[g]
        radices = [self.coding.sizes[j] for j in self.groups[g][1]]
        strides = [math.prod(radices[t + 1 :]) for t in range(len(radices))]
        step = sum(stride for stride, k in zip(strides, pattern) if k < 0)
        digits = [(k, stride) for stride, k in zip(strides, pattern) if k >= 0]

        def by_table(earlier: tuple[int, ...]) -> int:
            code = 0
            for k, stride in digits:
                code += earlier[k] * stride
            bits = 0
            for u in range(size):
                if ids[code] == want:
                    bits |= 1 << u
                code += step
            return bits

        return by_table

    def cached(self) -> None:
        """Count an entry added to an allowed-images cache; past MEMO_ENTRIES, all are emptied."""
        self.entries += 1
        if self.entries > MEMO_ENTRIES:
            for cache, _ in self.allowed.values():
                cache.clear()
            self.entries = 0

    def cost(self, order: str) -> float:
        """An order's search nodes (in every part it took turns in) per part it finished, for the
        turn order: untried orders first, an order that never finished a part last."""
        parts, nodes = self.spent.get(order, (0, 0))
        return nodes / parts if parts else math.inf if nodes else -1.0

    def spend(self, order: str, nodes: int, finished: bool) -> None:
        """Record that `order` took `nodes` search nodes in a part (and whether it finished it)."""
        parts, spent = self.spent.get(order, (0, 0))
        self.spent[order] = (parts + finished, spent + nodes)

    def count(self, g: int, sources: tuple[int, ...], pinned: int | None = None) -> int:
        """Group g's factor when its t-th target concept reads ground-truth concept sources[t]; with
        `pinned` (a source feeding its own concept), only the maps that keep its seen values."""
        ordered = tuple(sorted(sources))
        skeleton = self._skeleton(((g, ordered),), (ordered, tuple(self.groups[g][1])))
        reading = tuple(ordered.index(s) for s in sources)
        return self._count(skeleton, [(g, reading)], reading, [(g, sources)], pinned)

    def count_shared(self, pi: tuple[int, ...], pinned: int | None = None) -> int:
        """The value maps valid with permutation pi when they are shared by all objects (one map
        binds every group, but each row's labels are checked group by group, as soon as that group's
        slots are assigned); `pinned` as in count."""
        where = {j: i for i, j in enumerate(pi)}
        feeds = tuple((g, tuple(where[j] for j in targets)) for g, (_, targets) in enumerate(self.groups))
        concepts = tuple(range(len(pi)))
        skeleton = self._skeleton(feeds, (tuple(where[j] for j in concepts), concepts))
        reads = [(g, tuple(range(len(targets)))) for g, (_, targets) in enumerate(self.groups)]
        return self._count(skeleton, reads, concepts, list(feeds), pinned)

    def _count(
        self,
        skeleton: Skeleton,
        reads: list[Read],
        reading: tuple[int, ...],
        feeds: list[tuple[int, tuple[int, ...]]],
        pinned: int | None,
    ) -> int:
        """The product of the skeleton's parts' counts: `reads[t]` says how the constraints tagged t
        read their group's labels, `feeds` are (group, sources of its targets) for the image counts."""
        if skeleton.impossible:
            return 0
        coding = self.coding
        into = {
            coding.owner[s]: coding.sizes[j]
            for g, sources in feeds
            for s, j in zip(sources, self.groups[g][1])
        }
        held = coding.owner[pinned] if pinned is not None else None
        pins = {} if held is None else {(held, v): v for v in coding.seen[held]}
        total = 1
        for part in skeleton.parts:
            sizes = {slot: into[slot[0]] for slot in part.slots}
            if part.constraints:
                total *= _count_part(part, sizes, reading, pins, reads, self)
            else:
                total *= math.prod(1 if slot in pins else sizes[slot] for slot in part.slots)
            if not total:
                return 0
        return total

    def _skeleton(self, feeds: Feeds, watched: Watched) -> Skeleton:
        """The constraints the rows state: the labels of each (group, sources in slot order) of
        `feeds`, tagged with its position there, and the supervised values of `watched` (sources in
        slot order, the concepts they feed), split into parts; built once per key."""
        key = (feeds, watched)
        if key not in self.skeletons:
            if len(self.skeletons) >= SKELETONS:
                self.skeletons.clear()
            self.skeletons[key] = self._new_skeleton(feeds, watched)
        return self.skeletons[key]

    def _new_skeleton(self, feeds: Feeds, watched: Watched) -> Skeleton:
        coding = self.coding
        owner = coding.owner
        rows = coding.rows()
        owners = {owner[s] for _, sources in feeds for s in sources}
        slots = sorted({(o, v) for o in owners for v in coding.seen[o]})
        found: dict[tuple[Any, ...], Constraint] = {}
        names = list(coding.task.labels)
        missed = False
        for tag, (g, sources) in enumerate(feeds):
            labels = self.groups[g][0]
            if not labels:
                continue
            table = self.tables.label_table(g)
            chosen = [names.index(n) for n in labels]
            unread: set[int] = set()
            for n, (_, idx, supervised, values) in enumerate(rows):
                if len(supervised) == len(idx):
                    continue
                read = tuple((owner[s], idx[s]) for s in sources)
                label = (
                    int(table[1][n])
                    if table is not None
                    else self._label_id(g, tuple(values[k] for k in chosen))
                )
                if read:
                    found.setdefault((tag, read, label), Constraint(read, label, None, tag))
                else:
                    unread.add(label)
            # labels that read no concept must be what the knowledge gives
            missed = missed or any(self._labels(g)[1](()) != want for want in unread)
        sources, targets = watched
        for _, idx, supervised, _ in rows:
            on = tuple(idx[j] if j in supervised else None for j in targets)
            if any(x is not None for x in on):
                read = tuple((owner[s], idx[s]) for s in sources)
                found.setdefault((None, read, on), Constraint(read, None, on))
        return Skeleton(list(found.values()), slots, missed)

    def _labels(self, g: int) -> tuple[dict[tuple[int, ...], int], LabelId]:
        """Group g's label ids found so far, by tuple of target value numbers, and the function that
        finds one (by the group's table, else evaluated; it records it there)."""
        if g not in self.labels:
            table = self.tables.label_table(g)
            known: dict[tuple[int, ...], int] = {}
            self.labels[g] = (
                known,
                self._by_table(g, table[0], known) if table is not None else self._evaluated(g, known),
            )
        return self.labels[g]

    def _by_table(self, g: int, ids: Any, known: dict[tuple[int, ...], int]) -> LabelId:
        """Label ids read off the group's label table (the tuples looked up kept in `known`)."""
        radices = [self.coding.sizes[j] for j in self.groups[g][1]]

        def by_table(values: tuple[int, ...]) -> int:
            found = known.get(values)
            if found is None:
                code = 0
                for value, radix in zip(values, radices):
                    code = code * radix + value
                found = known[values] = int(ids[code])
            return found

        return by_table

    def _evaluated(self, g: int, known: dict[tuple[int, ...], int]) -> LabelId:
        """Label ids by evaluating the group's labels on each predicted vector (kept in `known`)."""
        labels, targets = self.groups[g]
        task = self.coding.task
        concepts = task.concepts
        base = {c.name: c.values[0] for c in concepts}

        def evaluated(values: tuple[int, ...]) -> int:
            if values not in known:
                assignment = dict(base)
                for j, u in zip(targets, values):
                    assignment[concepts[j].name] = concepts[j].values[u]
                try:
                    found = tuple(normalise(evaluate(task.labels[n], assignment)) for n in labels)
                except (TypeError, ValueError, ZeroDivisionError, OverflowError, TaskError):
                    known[values] = MISSING
                else:
                    known[values] = self._label_id(g, found)
            return known[values]

        return evaluated

    def _label_id(self, g: int, values: tuple[Any, ...]) -> int:
        """A number for each distinct tuple of group g's label values (evaluated labels)."""
        ids = self.ids.setdefault(g, {})
        return ids.setdefault(values, len(ids))


class _OutOfNodes(Exception):
    """A search used up the nodes its turn allows (it keeps its place for its next turn)."""


def _count_part(
    part: Part,
    sizes: dict[Slot, int],
    reading: tuple[int, ...],
    pins: dict[Slot, int],
    reads: list[Read],
    owner: ValueSearch,
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
        owner: ValueSearch,
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
                    found = 1
                else:
                    key = None
                    if lookups[n] < MEMO_TRIAL or hits[n] > 0:
                        key = (n, frontier[n](image))
                        lookups[n] += 1
                        found = memo.get(key)
                        if found is not None:
                            hits[n] += 1
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


FIRST_TURN = 4096  # search nodes of each order's first turn
LEAD = 4  # the leading order's turns are this many times the others'
EXPLORE = 8  # every this many parts, the order that goes first is not the cheapest so far
