"""`--method enumerate`: SAT enumeration of the projected models (small counts)."""
