"""The pairwise method: labels that are conjunctions of two-concept tests (a sudoku's validity,
orderings, colourings), their disentangled maps as a pair CNF (rscount.encoding.pair_images) whose
models a SAT solver lists an orbit of the task's symmetries at a time."""

from __future__ import annotations

from .backend import optimal_maps

__all__ = ["optimal_maps"]
