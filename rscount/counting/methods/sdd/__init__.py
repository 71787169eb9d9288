"""`--method sdd`: the whole CNF compiled to an SDD and model-counted with big integers."""
