"""The jrs mode's own counter, named after the mode (not a method): pairs of a concept map and a
learned inference layer (backend.py; kernels.py). Offered outside: count_jrs (for explain), and
fitting_maps, FittingMap and structure (the concept maps that fit, one by one, for jrs_pairs)."""

from .kernels import FittingMap, count_jrs, fitting_maps, structure

__all__ = ["FittingMap", "count_jrs", "fitting_maps", "structure"]
