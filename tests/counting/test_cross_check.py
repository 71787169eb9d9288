"""`--cross-check` (rscount/counting/cross_check.py): an exact count recounted by an independent
route agrees and says which; a deliberately wrong backend makes it fail with both figures (exit 2);
estimates and modes without a second route say why they were not checked."""

from __future__ import annotations

import os

import pytest
from references.bruteforce import brute_force_count
from support import REPO

import rscount
from rscount import CountsDisagree
from rscount.counting.budget import Unsuited
from rscount.counting.cross_check import routes_for
from rscount.counting.engines import ganak
from rscount.counting.methods import BACKENDS
from rscount.counting.settings import Method
from rscount.task.families import builtin_task
from rscount.task.model import Mode

XOR3 = builtin_task("xor", 3)
XOR3_COUNT = brute_force_count(
    [[0, 1]] * 3, lambda c: c[0] ^ c[1] ^ c[2], [tuple(r) for r in XOR3.support.rows], set()
)


class OffByOne:
    """A backend that answers one map too many (a bug a cross-check must catch)."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.method, self.exact, self.description = backend.method, True, "off by one"

    def count(self, *args, **kwargs):
        result = self.backend.count(*args, **kwargs)
        result.count += 1
        return result


class Declines:
    def __init__(self, method: Method) -> None:
        self.method, self.exact, self.description = method, True, "declines"

    def count(self, *args, **kwargs):
        raise Unsuited("not in this test")


def test_an_exact_count_is_recounted_by_another_route_that_agrees():
    result = rscount.count(XOR3, "decompose", cross_check=True)
    check = result.details["cross_check"]
    assert result.count == check["count"] == XOR3_COUNT and check["agrees"]
    assert check["method"] in ("sdd", "enumerate", "search", "ganak")


@pytest.mark.parametrize("wrong", [Method.SEARCH, Method.SDD, Method.ENUMERATE, Method.GANAK])
def test_a_wrong_second_route_fails_the_cross_check_with_both_figures(monkeypatch, wrong):
    if wrong == Method.GANAK and not ganak.available() and os.environ.get("CI") != "true":
        pytest.skip("GANAK is not installed here (CI installs it, and there this test runs)")
    for method in (Method.SEARCH, Method.SDD, Method.ENUMERATE, Method.GANAK):
        if method != wrong:  # only the wrong one answers
            monkeypatch.setitem(BACKENDS, method, Declines(method))
    monkeypatch.setitem(BACKENDS, wrong, OffByOne(BACKENDS[wrong]))
    with pytest.raises(
        CountsDisagree, match=f"decompose counts {XOR3_COUNT}, {wrong} counts {XOR3_COUNT + 1}"
    ):
        rscount.count(XOR3, "decompose", cross_check=True)


def test_a_failed_cross_check_exits_2_on_the_command_line(cli, monkeypatch):
    monkeypatch.setitem(BACKENDS, Method.DECOMPOSE, OffByOne(BACKENDS[Method.DECOMPOSE]))
    run = cli("xor", "--bits", "3", "--method", "decompose", "--cross-check")
    assert run.code == 2
    assert f"decompose counts {XOR3_COUNT + 1}" in run.err and f"counts {XOR3_COUNT}" in run.err


def test_the_command_line_says_which_route_agreed(cli):
    run = cli("xor", "--bits", "3", "--exact", "--cross-check")
    assert run.code == 0 and "cross-check: " in run.out and "counts the same" in run.out


def test_ganak_checks_every_method_but_itself_where_it_is_installed(monkeypatch):
    monkeypatch.setattr(ganak, "available", lambda: True)
    assert routes_for(Mode.DISENTANGLED, Method.DECOMPOSE)[0] == Method.GANAK
    assert routes_for(Mode.JOINT, Method.SDD) == (Method.GANAK, Method.ENUMERATE)
    assert Method.GANAK not in routes_for(Mode.OBJECTS, Method.GANAK)
    monkeypatch.setattr(ganak, "available", lambda: False)
    assert Method.GANAK not in routes_for(Mode.DISENTANGLED, Method.DECOMPOSE)


def test_an_estimate_is_not_cross_checked():
    result = rscount.count(XOR3, "approxmc", cross_check=True)
    assert result.details["cross_check"]["method"] is None
    assert "estimate" in result.details["cross_check"]["why"]


def test_a_program_counted_by_search_gets_a_second_opinion_without_a_cnf():
    # MNIST addition, 4 digits per number of 2 values: its CNF is out of reach of SDD and GANAK
    task = rscount.load_task(REPO / "tasks" / "mnadd-n4-d2.yaml")
    result = rscount.count(task, "search", cross_check=True, timeout=600)
    check = result.details["cross_check"]
    assert result.count == check["count"] == 16 and check["agrees"]
