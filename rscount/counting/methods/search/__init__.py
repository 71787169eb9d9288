"""`--method search`: permutations and value maps by depth-first search, rows checked as they fill
(backend.py; value_search.py over part_search.py, search_plans.py and slot_orders.py; the engine
class_search.permutations). Offered outside: Counter (N(pi) per permutation, for the probes),
loose_concepts (the concepts some optimal map does not keep, for check) and SearchedMaps (classes
with their value maps by pinned counts, for listing maps and the forecast's marginals)."""

from .backend import Counter
from .identification import loose_concepts
from .listing import Classes, SearchedMaps

__all__ = ["Classes", "Counter", "SearchedMaps", "loose_concepts"]
