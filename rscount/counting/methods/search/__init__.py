"""`--method search`: permutations and value maps by depth-first search, rows checked as they fill
(backend.py; value_search.py over part_search.py, search_plans.py and slot_orders.py; the engine
class_search.permutations)."""
