"""`--method ganak`: GANAK's projected count of the whole CNF, a second exact counter that shares
nothing with rscount's own methods beyond the encoding."""
