"""`--method source-tuples`: the disentangled count summed over the tuples of sources feeding each
label group (backend.py; tuples.py, refute.py, bound.py). Offered outside: tuple_upper_bound (an
upper bound from the tuples, for auto's upper bounds)."""

from .bound import tuple_upper_bound

__all__ = ["tuple_upper_bound"]
