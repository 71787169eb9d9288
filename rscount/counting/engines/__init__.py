"""What the counting methods share: the class search, per-permutation class counts with their
marginals, value maps (SDD and SAT enumeration), label-group tables, the ApproxMC call and GANAK's.
An engine never imports a method."""
