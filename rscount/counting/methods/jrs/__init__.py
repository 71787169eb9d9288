"""`--method jrs` (the jrs mode): pairs of a concept map and a learned inference layer (backend.py;
kernels.py). Offered outside: count_jrs (for explain), and fitting_maps, FittingMap and structure
(the concept maps that fit, one by one, for the joint shortcuts)."""

from .kernels import FittingMap, count_jrs, fitting_maps, structure

__all__ = ["FittingMap", "count_jrs", "fitting_maps", "structure"]
