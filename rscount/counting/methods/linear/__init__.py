"""The linear method: labels that are affine forms of integer concepts (sums of digits, numbers
written in digits, weighted sums), whose optimal maps per concept permutation are the integer
points of a linear system in the value maps' images, solved exactly (see backend.py)."""

from __future__ import annotations

from .backend import optimal_maps
from .forms import affine_labels

__all__ = ["affine_labels", "optimal_maps"]
