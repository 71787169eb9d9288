"""`--method decompose`: the count summed over permutation classes, each class's value maps counted
(backend.py, over the engines class_search and class_counts)."""
