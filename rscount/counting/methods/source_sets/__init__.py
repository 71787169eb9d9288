"""`--method source-sets`: the disentangled count summed over the source sets each label group
reads (backend.py; residual_tables.py, reading_search.py, readings.py, residuals.py, tables.py,
modular.py)."""
