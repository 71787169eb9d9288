"""`--method search`: permutations and value maps by depth-first search, rows checked as they fill
(backend.py, over the engines class_search.permutations and value_search)."""
