"""DIMACS emission and reading: round trips, projection lines, and counting the re-read file."""

from __future__ import annotations

from support import backend_count

from rscount.encoding.modes import encode
from rscount.formats.dimacs import dumps, loads
from rscount.task.families import builtin_task


def test_emitted_encoding_round_trips_exactly():
    enc = encode(builtin_task("xor", 3, [[0, 1, 1], [1, 1, 1]], [[1, 1, 1]]))
    for ind in (False, True):
        back = loads(dumps(enc.cnf, ind=ind))
        assert back.num_vars == enc.cnf.num_vars
        assert back.clauses == enc.cnf.clauses
        assert back.projection == enc.projection
        assert back.names == enc.cnf.names
        assert back.comments == enc.cnf.comments


def test_header_counts_match_the_body():
    enc = encode(builtin_task("and", 3))
    text = dumps(enc.cnf)
    header = next(line for line in text.splitlines() if line.startswith("p "))
    assert header == f"p cnf {enc.cnf.num_vars} {len(enc.cnf.clauses)}"
    body = [line for line in text.splitlines() if not line.startswith(("c", "p"))]
    assert len(body) == len(enc.cnf.clauses) and all(line.endswith(" 0") for line in body)


def test_every_map_variable_is_named_and_projected():
    enc = encode(builtin_task("xor", 4))
    assert set(enc.projection) == set(enc.cnf.names)


def test_reread_dimacs_counts_the_same_with_an_independent_counter():
    """The emitted file alone (clauses + c p show) gives the count: projected enumeration on it."""
    from pysat.solvers import Solver

    enc = encode(builtin_task("xor", 3, [[0, 0, 1], [1, 1, 0]]))
    cnf = loads(dumps(enc.cnf))
    models = 0
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        solver.add_clause([v for v in cnf.projection] + [-v for v in cnf.projection])  # keeps vars known
        while solver.solve():
            model = solver.get_model()
            models += 1
            solver.add_clause([-model[v - 1] for v in cnf.projection])
    assert models == backend_count("sdd", enc) == 96


def test_an_emitted_encoding_is_recognised_not_read_as_knowledge(cli, tmp_path):
    path = tmp_path / "xor3-maps.cnf"
    assert cli("xor", "--bits", "3", "--emit", path).code == 0
    for command in (["count", path], ["cnf", path], ["check", path]):
        run = cli(*command)
        assert run.code == 2, command
        assert "encoding `rscount --emit` wrote of task 'xor3' (disentangled count)" in run.err + run.out
        assert "support rows" not in run.err + run.out  # not read as knowledge over its 55 variables
