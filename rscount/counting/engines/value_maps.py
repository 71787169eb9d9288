"""The value maps valid with a fixed concept permutation, counted: as an SDD over the value-map
codes (rscount.encoding.value_codes) with big integers, which the map sampler (rscount.insight.maps)
also walks, or by SAT enumeration when there are few."""

from __future__ import annotations

from collections.abc import Iterable

from pysdd.sdd import SddManager, SddNode, Vtree

from ... import sat
from ...encoding.value_codes import Reading, ValueMapCoding
from ...errors import InternalError
from ...knowledge.circuit import FALSE, CNFBuilder
from ...knowledge.sdd import Circuit, SddAlgebra

Group = tuple[list[str], list[int]]
Marginals = dict[tuple[int, int], list[int]]  # per (owner o, value number v): models with f_o(v) = each u
Tally = tuple[int, Marginals]  # models, and (when asked) their marginals


class ValueMapSdds:
    """One SDD manager over the value-map codes of a task (variables 1..n of `coding`), and the SDD
    of the value maps that are valid with a given concept permutation."""

    def __init__(self, coding: ValueMapCoding) -> None:
        self.coding = coding
        n = coding.num_vars
        # Measured: automatic minimisation costs far more than it saves on these small managers
        # (MNAdd, 100 examples: 185 s with it, 0.6 s without); callers collect garbage themselves.
        self.manager = SddManager.from_vtree(
            Vtree(var_count=n, var_order=list(range(1, n + 1)), vtree_type="balanced")
        )
        self.alg = SddAlgebra(self.manager)
        self._codes: dict[tuple[int, int, int], SddNode] = {}

    def _code(self, i: int, v: int, u: int) -> SddNode:
        if (i, v, u) not in self._codes:
            gate = self.coding.code(self.alg, self.manager.literal, i, v, u)
            gate.ref()
            self._codes[i, v, u] = gate
        return self._codes[i, v, u]

    def compile(self, pi: tuple[int, ...], group: Group | None = None) -> SddNode:
        """The SDD (referenced: the caller dereferences it) of the value maps valid with `pi`, or
        with a `group` of ValueMapCoding.label_groups only that group's constraints."""
        root = self.manager.true()
        root.ref()
        for gate in self.coding.constraints(self.alg, self._code, pi, group):
            new = root & gate
            new.ref()
            root.deref()
            root = new
            self.alg.release()
            if root.is_false():
                break
        return root

    def tally(self, pi: tuple[int, ...], owners: Iterable[int] = (), group: Group | None = None) -> Tally:
        """Models of `compile(pi, group)` over all code variables, and for each value number v that
        an owner o of `owners` shows, the models with f_o(v) = each value number u of D_pi(o), in
        order: the value maps valid with pi counted with one value fixed. Garbage is collected after.
        One weighted count per (o, v) gives every u: bit b of f_o(v)'s code weighs B^(2^b), so the
        count is the sum over u of B^u times the models with f_o(v) = u, each below B."""
        circuit = self._circuit(pi, group)
        total = circuit.count()
        found: Marginals = {}
        chosen = set(owners)
        width = total.bit_length()
        for o, v in self.coding.var if total else ():
            if o not in chosen:
                continue
            bits = self.coding.var[o, v]
            weighed = circuit.count({x: (1 << (width << b), 1) for b, x in enumerate(bits)})
            digits = [weighed >> (width * u) & ((1 << width) - 1) for u in range(1 << len(bits))]
            size = self.coding.sizes[pi[o]]
            if any(digits[size:]) or sum(digits) != total:
                raise InternalError(f"the value maps' marginals of value {v} of concept {o} do not sum up")
            found[o, v] = digits[:size]
        return total, found

    def count(self, pi: tuple[int, ...], group: Group | None = None) -> int:
        """Models, over all code variables, of `compile(pi, group)`."""
        return self.tally(pi, (), group)[0]

    def identities(
        self, pi: tuple[int, ...], owners: Iterable[int], group: Group | None = None
    ) -> dict[int, int]:
        """Per owner o of `owners`, the models of `compile(pi, group)` (over all code variables)
        whose f_o sends every value the support shows to the same value number."""
        circuit = self._circuit(pi, group)
        found = {}
        for o in owners:
            bits = identity_bits(self.coding, pi, o)
            found[o] = 0 if bits is None else circuit.count({x: (b, 1 - b) for x, b in bits.items()})
        return found

    def _circuit(self, pi: tuple[int, ...], group: Group | None) -> Circuit:
        """`compile(pi, group)` flattened, its SDD let go (garbage collected)."""
        root = self.compile(pi, group)
        circuit = Circuit(self.manager, root)
        root.deref()
        self.manager.garbage_collect()
        return circuit


def identity_bits(coding: ValueMapCoding, pi: tuple[int, ...], o: int) -> dict[int, int] | None:
    """The code bits (variable -> 0 or 1) that make f_o send each value the support shows to the
    same value number, or None when D_pi(o) lacks some of owner o's value numbers."""
    if coding.sources[o] > coding.sizes[pi[o]]:
        return None
    return {
        x: v >> b & 1 for (owner, v), code in coding.var.items() if owner == o for b, x in enumerate(code)
    }


def class_cnf(
    coding: ValueMapCoding, pi: tuple[int, ...], group: tuple[list[str], list[int]] | None = None
) -> CNFBuilder | None:
    """The CNF of the value maps valid with `pi` (or with `group`'s constraints), over the code
    variables 1..coding.num_vars and Tseitin gates beyond, each row's labels stamped from its
    group's template; None when a constraint is false."""
    b = CNFBuilder()
    for _ in range(coding.num_vars):
        b.new_var()
    codes: dict[tuple[int, int, int], int] = {}

    def code(i: int, v: int, u: int) -> int:
        if (i, v, u) not in codes:
            codes[i, v, u] = coding.code(b, lambda x: x, i, v, u)
        return codes[i, v, u]

    group = group if group is not None else (list(coding.task.labels), list(range(len(pi))))
    for gate in coding.ranges(b, code, pi, group[1]):
        b.add([gate])
    for fact in coding.row_facts(pi, group):
        if isinstance(fact, Reading):
            template = coding.template(group, fact.values)
            if template is None:
                return None
            template.stamp(b, [code(i, v, u) for i, v in fact.pairs for u in range(coding.sizes[pi[i]])])
        else:
            gate = b.and_(code(i, v, u) for i, v, u in fact)
            if gate == FALSE:
                return None
            b.add([gate])
    return b


ENUMERATE_LIMIT = 200  # value maps a class may have for SAT enumeration to count them
ENUMERATE_MAX_ROWS = 20_000  # beyond, the class CNF costs more to build than the SDD


ENUMERATE_GIVE_UP = 3  # enumeration is no longer tried for a group after this many overflows in a row


class ValueMapCounter:
    """N(pi), or one label group's factor, for the permutations of one task: first by SAT
    enumeration of the value maps (a class with few of them counts in milliseconds: MNMath with
    10-valued digits, identity class, 1 map: 0.5 s against 28 s by SDD and 27 s by GANAK), else by
    an SDD over the value-map codes. Both count models over all code variables. A group whose
    counts kept overflowing the enumeration goes to the SDD directly (SDD-OIA: 686 factors in
    16 s so, 23 s trying enumeration every time)."""

    def __init__(self, coding: ValueMapCoding, limit: int = ENUMERATE_LIMIT) -> None:
        self.coding = coding
        self.sdds = ValueMapSdds(coding)
        self.limit = limit if len(coding.task.support.rows) <= ENUMERATE_MAX_ROWS else 0
        self.overflows: dict[tuple[str, ...], int] = {}

    def count(self, pi: tuple[int, ...], group: Group | None = None) -> int:
        """Models, over all code variables, of the value maps valid with `pi` (or with `group`'s
        constraints)."""
        return self.tally(pi, (), group)[0]

    def tally(self, pi: tuple[int, ...], owners: Iterable[int] = (), group: Group | None = None) -> Tally:
        """ValueMapSdds.tally, by SAT enumeration where it counts the models (each stands for every
        setting of the code variables the constraints leave free), else by the SDD."""
        found = self._enumerate(pi, group)
        if found is None:
            return self.sdds.tally(pi, owners, group)
        used, models = found
        coding, mentioned = self.coding, set(used)
        free = coding.num_vars - len(used)
        fixed: Marginals = {}
        chosen = set(owners)
        for (o, v), bits in coding.var.items():
            if o not in chosen or not models:
                continue
            row = fixed[o, v] = [0] * coding.sizes[pi[o]]
            open_bits = [b for b, x in enumerate(bits) if x not in mentioned]
            weight = 1 << (free - len(open_bits))
            for model in models:
                base = sum(model[x] << b for b, x in enumerate(bits) if x in mentioned)
                for combo in range(1 << len(open_bits)):
                    u = base | sum((combo >> n & 1) << b for n, b in enumerate(open_bits))
                    if u < len(row):  # always: a code is left free only when every code is a value
                        row[u] += weight
        return len(models) << free, fixed

    def identities(
        self, pi: tuple[int, ...], owners: Iterable[int], group: Group | None = None
    ) -> dict[int, int]:
        """ValueMapSdds.identities, by SAT enumeration where it counts the models, else by the SDD:
        a model stands for every setting of the free code variables, of which a fixed f_o keeps one."""
        found = self._enumerate(pi, group)
        if found is None:
            return self.sdds.identities(pi, owners, group)
        used, models = found
        mentioned, free = set(used), self.coding.num_vars - len(used)
        kept = {}
        for o in owners:
            bits = identity_bits(self.coding, pi, o)
            if bits is None:
                kept[o] = 0
                continue
            unmentioned = sum(x not in mentioned for x in bits)
            matching = sum(all(m[x] == b for x, b in bits.items() if x in mentioned) for m in models)
            kept[o] = matching << (free - unmentioned)
        return kept

    def _enumerate(
        self, pi: tuple[int, ...], group: Group | None
    ) -> tuple[list[int], list[dict[int, int]]] | None:
        """The code variables the constraints mention and every model over them (variable -> 0/1),
        by SAT enumeration; None when there are more than `limit` of them, or enumeration is not
        tried (too many rows, or the group kept overflowing)."""
        labels = tuple(group[0]) if group is not None else ()
        if not self.limit or self.overflows.get(labels, 0) >= ENUMERATE_GIVE_UP:
            return None
        coding = self.coding
        b = class_cnf(coding, pi, group)
        if b is None:
            return [], []
        used = sorted({abs(lit) for clause in b.clauses for lit in clause if abs(lit) <= coding.num_vars})
        models: list[dict[int, int]] = []
        with sat.solver(sat.ENUMERATE, b.clauses) as solver:
            for model in sat.projected_models(solver, used):
                if len(models) == self.limit:
                    self.overflows[labels] = self.overflows.get(labels, 0) + 1
                    return None
                models.append({v: int(model[v - 1] > 0) for v in used})
        self.overflows[labels] = 0
        return used, models
