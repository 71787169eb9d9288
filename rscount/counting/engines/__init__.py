"""What the counting methods share: the class search, per-permutation class counts with their
marginals, value maps (SDD and SAT enumeration), label-group tables, the ApproxMC call and GANAK's.
An engine is used by two methods or more, or outside the methods (what one method alone uses lives
in that method's package), and never imports a method."""
