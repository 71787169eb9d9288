"""Stage 5, counting: settings, results and budgets; `auto.py` (the tables that choose a method) and
`dispatch.py`; `methods/` (one package per method), `engines/` (what methods share) and
`processes/` (time limits, jobs, workers)."""
