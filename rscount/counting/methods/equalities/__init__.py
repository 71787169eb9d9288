"""The equalities method: labels that each test two concepts of one domain for equality (Scallop's
eq_2, same-colour tasks), whose optimal maps per concept permutation are the proper colourings of
a graph over the value maps' images (rscount.counting.engines.colourings; the labels read by
rscount.knowledge.equalities)."""
