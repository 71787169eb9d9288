"""Stage 1, the task: concepts, labels given by knowledge, a training support and expectations, as a
model (the files it is read from are rscount.formats). Imports no other stage."""
