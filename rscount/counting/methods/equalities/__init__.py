"""The equalities method: labels that each test two concepts of one domain for equality (Scallop's
eq_2, same-colour tasks), whose optimal maps per concept permutation are the proper colourings of
a graph over the value maps' images (see backend.py)."""

from __future__ import annotations

from .forms import equality_labels

__all__ = ["equality_labels"]
