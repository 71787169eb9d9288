"""The permutation classes a count sums over: one permutation per double class of the knowledge's
and the support's symmetries, found by a pruned search tree or listed by SAT with lex-leader
clauses (search.py is the door: ClassSearch, all_classes)."""
