"""Stage 2, the formats: every file a task is read from or written to, one module or package per
format, chosen through registries: `task_files` (the task-file formats, tried in a declared order:
DIMACS, rsbench configs, rscount task files; and the task file written back or edited), `programs`
(knowledge as ProbLog/DeepProbLog or NeurASP programs, by extension), `rows` (supports and test rows
from CSV, JSON lines, KANDY and CLEVR files, by format name), `dimacs` and `rsbench`. Readers raise
FormatError with the file and line. Imports only the task stage."""
