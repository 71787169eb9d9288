"""`--method decompose-approx`: ApproxMC per permutation class, within one (epsilon, delta)."""
