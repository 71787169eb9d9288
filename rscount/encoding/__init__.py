"""Stage 4, encodings: the CNF whose projected models are a task's optimal concept maps in each
counting mode, and the value-map coding of a fixed permutation."""
