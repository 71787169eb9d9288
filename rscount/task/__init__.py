"""Stage 1, the task: concepts, labels given by knowledge, and a training support, as a model and as
files (task files, rsbench configs, DIMACS, annotation files). Imports no other stage."""
