"""`--method source-tuples`: the disentangled count summed over the tuples of sources feeding each
label group (backend.py; tuples.py, refute.py, bound.py, fitting.py). Offered outside: tuple_upper_bound (an
upper bound from the tuples, for auto's upper bounds) and fitting_permutations (the
permutations of the optimal maps up to symmetry and the values they may move) and fitting_maps
(every optimal map of a small count), for insight."""

from .bound import tuple_upper_bound
from .fitting import FittingPermutation, fitting_maps, fitting_permutations

__all__ = ["FittingPermutation", "fitting_maps", "fitting_permutations", "tuple_upper_bound"]
