"""A label group's readings listed by a SAT solver, for groups over many concepts where the
residual programme of residual_tables.py grows too large (random 3-CNF: one group over
every concept).

One variable per (concept, reading it may take), exactly one per concept, each source read at most
once in the group. A label that is a conjunction of small conjuncts (a CNF, as MNLogic's random
3-CNF) states each conjunct, on the rows where the label is true, as a table over its concepts'
readings: for every choice of all but one of them, the readings of the last one that keep the
conjunct true on every such row. Row-by-row clauses leave that intersection to search, and the
solver drowns (random 3-CNF on 14 bits with 8192 rows: over 300 s; with the tables 6 s). Every
other row (a false CNF label, a label of another shape) is stated as the label's circuit on the
readings' columns when a candidate gets it wrong, checked on the label table, so that the search
holds the few rows that matter. The solver starts from the intended readings' phases: the
intended map is always among the models."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from .... import sat
from ....encoding.inputs import example_inputs
from ....knowledge.circuit import FALSE, CNFBuilder, Shared, compile_expr
from ....progress import Progress
from ....task.expressions import Expr, evaluate, free_names, normalise
from ...budget import TooManyModels
from .readings import Readings
from .tables import SourceTable, aggregate

MODEL_LIMIT = 200_000  # readings listed for one group before the search gives up
CONJUNCT_CONCEPTS = 3  # conjuncts over at most this many concepts are stated as tables
FIRST_ROWS = 32  # rows without tables stated before the first candidate, spread over the support
ADDED_ROWS = 4  # rows a wrong candidate gets wrong that are stated next
ROW_CHUNK = 2048  # rows a conjunct's table is checked on at once


def reading_table(readings: Readings, g: int, max_models: int, progress: Progress | None) -> SourceTable:
    """P_g of residual_tables.py by SAT enumeration; TooManyModels past `max_models`."""
    search = _Search(readings, g)
    masks: list[int] = []
    for chosen in search.models(progress):
        if len(masks) >= max_models:
            raise TooManyModels(f"more than {max_models} readings of a label group")
        sources = readings.source[chosen]
        masks.append(int(np.bitwise_or.reduce(np.where(sources >= 0, 1 << np.maximum(sources, 0), 0))))
    primes = readings.primes
    counts = np.ones((len(masks), len(primes)), dtype=np.int64)
    (found,), summed = aggregate([np.array(masks, dtype=np.int64)], counts, primes)
    return SourceTable(found, summed)


def _conjuncts(expr: Expr) -> list[Expr]:
    """The conjuncts of a conjunction (nested ones flattened); the expression itself otherwise."""
    if expr.op == "And":
        return [c for a in expr.args for c in _conjuncts(a)]
    return [expr]


class _Search:
    """The SAT search of one group's readings."""

    def __init__(self, readings: Readings, g: int) -> None:
        self.readings = readings
        self.labels, self.targets = readings.groups[g]
        self.builder = builder = CNFBuilder()
        self.shared = Shared()  # rows reading the same values share their operators' gates
        self.allowed = [readings.allowed(t) for t in self.targets]
        self.x = [[builder.new_var() for _ in allowed] for allowed in self.allowed]
        for lits in self.x:
            builder.add(lits)
            builder.at_most_one(lits)
        by_source: dict[int, list[int]] = {}
        for lits, allowed in zip(self.x, self.allowed):
            for lit, c in zip(lits, allowed.tolist()):
                if readings.source[c] >= 0:
                    by_source.setdefault(int(readings.source[c]), []).append(lit)
        for lits in by_source.values():
            builder.at_most_one(lits)
        task = readings.task
        names = list(task.labels)
        rows = readings.coding.rows()
        self.exprs = [(readings.coding.labels[n], names.index(n)) for n in self.labels]
        self.wanted = [[rows[r][3][i] for _, i in self.exprs] for r in readings.plain.tolist()]
        found = readings.tables.label_table(g) if self.labels else None
        self.table: NDArray[np.int32] | None = None if found is None else found[0]
        self.row_labels: NDArray[np.int64] | None = None if found is None else found[1]
        self.open = self._tables()  # plain rows (positions in readings.plain) not stated by tables

    def _tables(self) -> list[int]:
        """State the tables of small conjuncts on the rows where their label is true; the rows
        whose every label is so stated need nothing more."""
        stated = np.ones(len(self.wanted), dtype=bool)
        for n, (expr, _) in enumerate(self.exprs):
            parts = _conjuncts(expr)
            small = all(len(free_names(c)) <= CONJUNCT_CONCEPTS for c in parts)
            true = np.array([w[n] == 1 for w in self.wanted], dtype=bool)
            stated &= true & small
            if small and true.any():
                for part in parts:
                    self._table(part, self.readings.plain[true])
        return np.flatnonzero(~stated).tolist()

    def _table(self, conjunct: Expr, rows: NDArray[np.int64]) -> None:
        """For every choice of readings of all but one of the conjunct's concepts, the readings of
        the last that keep it true on every row of `rows`."""
        task, d = self.readings.task, self.readings.d
        index = {c.name: j for j, c in enumerate(task.concepts)}
        where = [self.targets.index(index[name]) for name in sorted(free_names(conjunct))]
        if not where:  # a constant conjunct: true, as the label is true on these rows
            return
        names = [task.concepts[self.targets[j]].name for j in where]
        domains = [task.concepts[self.targets[j]].values for j in where]
        combos = itertools.product(*domains)
        truth = np.array([normalise(evaluate(conjunct, dict(zip(names, c)))) == 1 for c in combos])
        q = len(where)
        ok = np.ones([len(self.allowed[j]) for j in where], dtype=bool)
        for lo in range(0, len(rows), ROW_CHUNK):
            columns = [self.readings.column[self.allowed[j]][:, rows[lo : lo + ROW_CHUNK]] for j in where]
            for first in range(len(columns[0])):  # one reading of the first concept at a time
                code = columns[0][first].reshape((1,) * (q - 1) + (-1,)) * d ** (q - 1)
                for i in range(1, q):
                    shape = [1] * (q - 1) + [-1]
                    shape[i - 1] = len(columns[i])
                    code = code + columns[i].reshape(shape) * d ** (q - 1 - i)
                ok[first] &= truth[code].all(axis=-1)
        for last in range(q):  # the readings of `last` allowed by each choice of the others
            others = [i for i in range(q) if i != last]
            moved = np.moveaxis(ok, last, -1)
            for choice in itertools.product(*(range(len(columns[i])) for i in others)):
                keep = moved[choice]
                if not keep.all():
                    lits = [-self.x[where[i]][c] for i, c in zip(others, choice)]
                    self.builder.add(lits + [self.x[where[last]][c] for c in np.flatnonzero(keep).tolist()])

    def _state_row(self, r: int) -> None:
        """The clauses of plain row number r (its labels on the readings' columns)."""
        readings = self.readings
        row = int(readings.plain[r])
        concepts = [readings.task.concepts[t] for t in self.targets]
        builder = self.builder

        def select(j: int, u: int) -> int:
            values = readings.column[self.allowed[j], row]
            return builder.or_(lit for lit, v in zip(self.x[j], values.tolist()) if v == u)

        inputs = example_inputs(builder, concepts, select)
        memo: dict[int, dict[object, int]] = {}
        for (expr, _), value in zip(self.exprs, self.wanted[r]):
            builder.add([compile_expr(builder, expr, inputs, "labels", memo, self.shared).get(value, FALSE)])

    def _wrong(self, chosen: NDArray[np.int64]) -> NDArray[np.int64]:
        """The plain rows (positions) whose labels these readings get wrong."""
        if self.table is None or self.row_labels is None:
            return np.zeros(0, dtype=np.int64)
        predicted = self.readings.column[chosen][:, self.readings.plain]
        code = np.zeros(predicted.shape[1], dtype=np.int64)
        for values in predicted:
            code = code * self.readings.d + values
        return np.flatnonzero(self.table[code] != self.row_labels[self.readings.plain])

    def models(self, progress: Progress | None) -> Iterator[NDArray[np.int64]]:
        """Every choice of readings that fits every row, once (reading numbers per concept)."""
        opened = np.array(self.open, dtype=np.int64)
        spread = np.linspace(0, len(opened) - 1, min(FIRST_ROWS, len(opened))).astype(int)
        stated = set(opened[spread].tolist())
        for r in sorted(stated):
            self._state_row(r)
        intended = [
            lit if c == self.readings.intended(t) else -lit
            for t, lits, allowed in zip(self.targets, self.x, self.allowed)
            for lit, c in zip(lits, allowed.tolist())
        ]
        given = len(self.builder.clauses)
        found = 0
        with sat.solver(sat.ENUMERATE, self.builder.clauses) as solver:
            solver.set_phases(intended)
            for listed in sat.projected_models(solver, [x for lits in self.x for x in lits], one_hot=True):
                model = np.array(listed)
                picks = [int(np.argmax(model[np.array(lits) - 1] > 0)) for lits in self.x]
                chosen = np.array([a[p] for a, p in zip(self.allowed, picks)], dtype=np.int64)
                every = self._wrong(chosen).tolist()
                wrong = [r for r in every if r not in stated]
                if len(wrong) < len(every):
                    raise AssertionError("a model of the stated rows gets one of them wrong")
                if wrong:
                    for r in wrong[:: max(1, len(wrong) // ADDED_ROWS)][:ADDED_ROWS]:
                        stated.add(r)
                        self._state_row(r)
                    for clause in self.builder.clauses[given:]:
                        solver.add_clause(clause)
                    given = len(self.builder.clauses)
                    continue
                found += 1
                if progress:
                    progress.update(f"source sets: {found} readings of {', '.join(self.labels)} listed")
                yield chosen
