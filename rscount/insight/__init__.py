"""Stage 6, insight: the optimal maps themselves (explain), changes of the training data that remove
them (advise), counts over shrinking supports (sweep), and judging a task (check, report and the
pytest plugin: judging.py)."""
