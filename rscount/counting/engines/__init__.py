"""What the counting methods share: the class search, per-permutation class counts with their
marginals, value maps (SDD and SAT enumeration), label-group tables, modular arithmetic and the
ApproxMC call. An engine never imports a method."""
