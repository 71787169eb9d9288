"""Hypothesis strategies of malformed and hostile inputs for the fuzz tests (tests/test_fuzz.py), one
module per input kind: task files (tasks), expressions, DIMACS files (dimacs), annotation files, test
vectors and benchmark annotation files (annotations), ProbLog programs (programs). Each draws a Case
(cases): the files of a fresh working directory and the command line to run there; values.py holds
the hostile values, raw YAML and whole-file damage they share."""
