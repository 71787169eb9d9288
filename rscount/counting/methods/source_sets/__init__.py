"""`--method source-sets`: the disentangled count summed over the source sets each label group
reads (backend.py; residual_tables.py, reading_search.py, readings.py, residuals.py, tables.py,
modular.py). Offered outside: RESIDUAL_CONCEPTS (wider label groups are listed by SAT, a condition
of auto's table)."""

from .residual_tables import RESIDUAL_CONCEPTS

__all__ = ["RESIDUAL_CONCEPTS"]
