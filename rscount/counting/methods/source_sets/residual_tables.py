"""The disentangled count summed over source sets instead of permutation classes (method
source-sets), for tasks whose permutation classes are too many to walk (SDD-OIA with 32 rows: over
a million).

An optimal map gives each predicted concept a reading (readings.py). The labels of
a group see only its concepts' columns, so a map is optimal iff every group's readings fit its
rows, and the maps with the same readings number (k - n)! times the unseen-value factor, n the
concepts that read a source: the other sources feed the constant concepts in any order, each by
its one constant map. So, with P_g(N) the readings of group g whose sources are exactly the set N,

    count = unseen * sum over disjoint (N_g) of prod_g P_g(N_g) * (k - sum |N_g|)!

(tables.py joins them). P_g comes from a dynamic programme over g's concepts
whose state is the tuple of the rows' residuals (residuals.py), each state holding
its source sets, or, for groups over many concepts (random 3-CNF: one group over all of them),
from SAT enumeration of the group's readings (reading_search.py)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....progress import Progress
from ....task.model import Task
from ...budget import TooManyStates
from .reading_search import MODEL_LIMIT, reading_table
from .readings import Readings
from .residuals import Residuals, reading_order, residuals
from .tables import SourceTable, aggregate, joined_count

STATE_LIMIT = 1 << 20  # states of one step of a group's residual table before it gives up
CELL_LIMIT = 1 << 26  # states times rows still tracked, held at once (256 MB of residual ids)
ENTRY_LIMIT = 1 << 23  # (state, source set) entries of one step (about 64 bytes each)
ROW_BLOCK = 64  # rows checked at once for readings that no longer fit
# Groups over more concepts than this are tabulated by SAT enumeration first: the programme's
# states grow with every concept read before the rows' residuals close (random 3-CNF on 12 bits:
# 920000 states after 6 of its 12 concepts, where SAT lists its 4 readings in a second).
RESIDUAL_CONCEPTS = 10

Move = tuple[int, NDArray[np.int64]]  # a reading and, per old state, its new state (-1: none)


@functools.cache
def _hash_weights(n: int) -> NDArray[np.uint64]:
    """Odd random 64-bit weights hashing a state (a row of n residual ids) to one number."""
    rng = np.random.default_rng(n)
    return rng.integers(0, 1 << 63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)


class SourceSets:
    """The source-set count of a disentangled task (Unsuited: see Readings)."""

    def __init__(
        self,
        task: Task,
        progress: Progress | None = None,
        max_states: int = STATE_LIMIT,
        max_models: int = MODEL_LIMIT,
    ) -> None:
        self.readings = Readings(task)
        self.progress, self.max_states, self.max_models = progress, max_states, max_models
        self.states = 0

    def count(self) -> tuple[int, dict[str, Any]]:
        """The exact count and what the result's details say about it."""
        readings = self.readings
        tables: list[SourceTable] = []
        how: list[str] = []
        free = [g for g in range(len(readings.groups)) if readings.free(g)]
        for g in range(len(readings.groups)):
            if g in free:
                continue
            table, way = self._table(g)
            tables.append(table)
            how.append(way)
            if not len(table.masks):
                break
        details = {
            "label_groups": len(tables),
            "source_sets": [len(t.masks) for t in tables],
            "tabulated_by": how,
            "states": self.states,
            "free_concepts": len(free),
        }
        if any(not len(t.masks) for t in tables):
            return 0, details
        return joined_count(readings, tables, len(free), self.progress), details

    def _table(self, g: int) -> tuple[SourceTable, str]:
        """P_g by the programme, or by SAT enumeration for wide groups and where the programme
        exceeds its budget."""
        if len(self.readings.groups[g][1]) <= RESIDUAL_CONCEPTS:
            try:
                return self._residual_table(g), "residuals"
            except TooManyStates:
                pass
        return reading_table(self.readings, g, self.max_models, self.progress), "sat"

    def _residual_table(self, g: int) -> SourceTable:
        """P_g: the readings of the group's concepts that fit its rows, per source set."""
        readings = self.readings
        labels, targets = readings.groups[g]
        d, m, primes = readings.d, len(targets), readings.primes
        if labels and len(readings.plain):
            table, row_labels = readings.tables.label_table(g) or (None, None)
            assert table is not None and row_labels is not None
            wanted = row_labels[readings.plain]
            present = sorted(set(wanted.tolist()))
            order = reading_order(table, d, m, present)
            res = residuals(table, d, present, order)
            states = np.array([[res.start[y] for y in wanted.tolist()]], dtype=np.int32)
            columns = readings.plain
        else:  # no row to fit: every reading the supervision allows
            order = list(range(m))
            res = residuals(np.zeros(d**m, dtype=np.int32), d, [0], order)
            states = np.zeros((1, 0), dtype=np.int32)
            columns = readings.plain[:0]
        where = np.zeros(1, dtype=np.int64)  # the state of each entry
        masks = np.zeros(1, dtype=np.int64)
        counts = np.ones((1, len(primes)), dtype=np.int64)
        for step, j in enumerate(order):
            t = targets[j]
            if self.progress:
                self.progress.update(
                    f"source sets: labels {', '.join(labels) or readings.task.concepts[t].name}, "
                    f"concept {step + 1}/{m}: {len(states)} states, {len(masks)} entries"
                )
            states, columns, moves = self._step(res, states, columns, readings.allowed(t))
            parts = []
            for c, remap in moves:
                ok = remap[where] >= 0
                s = int(readings.source[c])
                if s >= 0:
                    ok &= (masks >> s) & 1 == 0
                parts.append((remap[where[ok]], masks[ok] | ((1 << s) if s >= 0 else 0), counts[ok]))
            if not parts:
                return SourceTable(masks[:0], counts[:0])
            if sum(len(p[1]) for p in parts) > ENTRY_LIMIT:
                raise TooManyStates(f"more than {ENTRY_LIMIT} source sets in a label group's residual table")
            (masks, where), counts = aggregate(
                [np.concatenate([p[1] for p in parts]), np.concatenate([p[0] for p in parts])],
                np.concatenate([p[2] for p in parts]),
                primes,
            )
        (masks,), counts = aggregate([masks], counts, primes)
        return SourceTable(masks, counts)

    def _step(
        self,
        res: Residuals,
        states: NDArray[np.int32],
        columns: NDArray[np.int64],
        allowed: NDArray[np.int64],
    ) -> tuple[NDArray[np.int32], NDArray[np.int64], list[Move]]:
        """One concept more: the new states (rows every state leaves free dropped), the rows still
        tracked, and per reading that some state survives, the new state of each old one."""
        column = self.readings.column
        found: list[tuple[int, NDArray[np.int64], NDArray[np.uint64]]] = []
        weights = _hash_weights(len(columns))
        for c in allowed.tolist():
            alive = np.arange(len(states))
            for lo in range(0, len(columns), ROW_BLOCK):  # most pairs die on a first block of rows
                part = res.trans[states[alive, lo : lo + ROW_BLOCK], column[c, columns[lo : lo + ROW_BLOCK]]]
                alive = alive[~res.dead[part].any(axis=1)]
                if not len(alive):
                    break
            if len(alive):
                after = res.trans[states[alive], column[c, columns]]
                found.append((c, alive, (after.astype(np.uint64) * weights).sum(axis=1)))
        if not found:
            return states[:0], columns, []
        hashes = np.concatenate([h for _, _, h in found])
        _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
        which = np.concatenate([np.full(len(a), c) for c, a, _ in found])
        olds = np.concatenate([a for _, a, _ in found])
        new = res.trans[states[olds[first]], column[which[first]][:, columns]]
        if len(new) > self.max_states or len(new) * len(columns) > CELL_LIMIT:
            limit = min(self.max_states, CELL_LIMIT // max(1, len(columns)))
            raise TooManyStates(f"more than {limit} states in a label group's residual table")
        offsets = np.cumsum([0] + [len(a) for _, a, _ in found])
        moves = []
        for n, (c, alive, _) in enumerate(found):
            ids = inverse[offsets[n] : offsets[n + 1]]
            if not np.array_equal(res.trans[states[alive], column[c, columns]], new[ids]):
                return self._step_exactly(res, states, columns, found)
            remap = np.full(len(states), -1, dtype=np.int64)
            remap[alive] = ids
            moves.append((c, remap))
        self.states = max(self.states, len(new))
        keep = ~res.free[new].all(axis=0)
        return new[:, keep], columns[keep], moves

    def _step_exactly(
        self,
        res: Residuals,
        states: NDArray[np.int32],
        columns: NDArray[np.int64],
        found: list[tuple[int, NDArray[np.int64], NDArray[np.uint64]]],
    ) -> tuple[NDArray[np.int32], NDArray[np.int64], list[Move]]:
        """_step without hashing, for a hash collision between states (checked, never assumed)."""
        column = self.readings.column
        rows = [res.trans[states[alive], column[c, columns]] for c, alive, _ in found]
        new, inverse = np.unique(np.concatenate(rows), axis=0, return_inverse=True)
        offsets = np.cumsum([0] + [len(r) for r in rows])
        moves = []
        for n, (c, alive, _) in enumerate(found):
            remap = np.full(len(states), -1, dtype=np.int64)
            remap[alive] = inverse.reshape(-1)[offsets[n] : offsets[n + 1]]
            moves.append((c, remap))
        self.states = max(self.states, len(new))
        keep = ~res.free[new].all(axis=0)
        return new[:, keep].astype(np.int32), columns[keep], moves
