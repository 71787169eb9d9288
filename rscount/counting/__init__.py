"""Stage 4, counting: settings, closed forms, the decomposition by permutation, the backends behind
one protocol, and running counts under time limits, side by side."""
