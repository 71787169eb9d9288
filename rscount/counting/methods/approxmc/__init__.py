"""`--method approxmc`: ApproxMC on the whole CNF, projected on the map variables."""
