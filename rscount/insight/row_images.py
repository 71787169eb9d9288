"""A map's images of many rows at once (numpy): the rows as value numbers, which rows a map relabels
and which concepts it moves there. The decisions' lazy encoding checks every candidate map against
the whole support, and advise reads every shortcut it notes on every row a step may touch: NeurASP's
member over 5 images has 10^5 rows, 3 s a map in Python, milliseconds here where the labels are
tabulated on D."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..task.model import Task
from ..task.support import Row
from ..task.vectorized import strides
from .maps import ConceptMap


class RowImages:
    """Rows of `task` (value numbers per concept) and their labels, to read maps' images off."""

    def __init__(self, task: Task, rows: Sequence[Row]) -> None:
        self.task, self.rows = task, rows
        self.supervised: np.ndarray | None = None  # per row and concept, on first use
        self.codes = np.array([[c.index[v] for c, v in zip(task.concepts, r)] for r in rows], dtype=np.int64)
        self.codes = self.codes.reshape(len(rows), len(task.concepts))
        self.places = np.array(strides([len(c.values) for c in task.concepts]), dtype=np.int64)
        self.arrays = task.label_arrays()
        if self.arrays is None:
            self.labels = task.labels_of(rows)
        else:
            at = self.codes @ self.places
            self.wanted = [array[at] for array in self.arrays]

    def images(self, m: ConceptMap) -> np.ndarray:
        """The value numbers m predicts on each row (rows x concepts)."""
        out = np.empty_like(self.codes)
        for i, j in enumerate(m.pi):
            out[:, j] = np.asarray(m.f[i], dtype=np.int64)[self.codes[:, i]]
        return out

    def relabelled(self, images: np.ndarray) -> np.ndarray:
        """Per row, whether its image (a row of `images`) has other labels than the row."""
        if self.arrays is None:
            concepts = self.task.concepts
            shown = [tuple(c.values[u] for c, u in zip(concepts, image)) for image in images.tolist()]
            return np.array([a != b for a, b in zip(self.task.labels_of(shown), self.labels)], dtype=bool)
        at = images @ self.places
        changed = np.zeros(len(images), dtype=bool)
        for array, wanted in zip(self.arrays, self.wanted):
            changed |= np.asarray(array[at] != wanted, dtype=bool)
        return changed

    def moved(self, images: np.ndarray) -> np.ndarray:
        """Per row and concept, whether the image's value differs from the row's."""
        return np.asarray(images != self.codes)

    def broken(self, m: ConceptMap) -> np.ndarray:
        """Per row, whether m breaks it as a row of the task's support: relabels it, or moves a
        value the support supervises there."""
        if self.supervised is None:
            support, place = self.task.support, {r: n for n, r in enumerate(self.rows)}
            self.supervised = np.zeros(self.codes.shape, dtype=bool)
            for row in [*support.supervised, *support.partial]:
                if row in place:
                    self.supervised[place[row], sorted(support.supervised_on(row))] = True
        images = self.images(m)
        return np.asarray(self.relabelled(images) | (self.moved(images) & self.supervised).any(axis=1))
