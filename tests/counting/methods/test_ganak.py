"""`--method ganak` (engines/ganak.py, methods/ganak/): GANAK's projected count of the whole CNF
equals the brute force on random tasks in the disentangled and joint modes, keeps big integers,
leaves ApproxMC's pinned pyapproxmc working in the same process, stops at a time limit, and says
how to install it where it is missing. CI installs it (README's first command), so there the
tests run; elsewhere they are skipped only when GANAK is not installed."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from strategies.randomtasks import SETTINGS, Spec, specs
from support import backend_count

from rscount.counting.engines import approxmc, ganak

needs_ganak = pytest.mark.skipif(
    not ganak.available() and os.environ.get("CI") != "true",
    reason="GANAK is not installed here (`rscount install-ganak`); CI installs it",
)


@needs_ganak
@settings(max_examples=40, **SETTINGS)
@given(specs())
def test_ganak_counts_random_tasks_as_the_brute_force(spec: Spec) -> None:
    assert backend_count("ganak", spec.task()) == spec.brute_force()


@needs_ganak
@settings(max_examples=15, **SETTINGS)
@given(specs(max_space=12))
def test_ganak_agrees_with_sdd_on_the_joint_count(spec: Spec) -> None:
    task = spec.task()
    assert backend_count("ganak", task, "joint") == backend_count("sdd", task, "joint")


@needs_ganak
def test_ganak_counts_past_two_to_the_64_and_leaves_approxmc_pinned() -> None:
    assert ganak.count([[1, 2]], range(1, 131)) == 3 * 2**128
    assert ganak.count([], [1, 2, 3]) == 8  # projected variables in no clause are free
    assert ganak.count([[1], [-1]], [1]) == 0
    approxmc.self_check()  # pyganak's own pyapproxmc did not replace the pinned one


@needs_ganak
def test_the_cli_counts_with_ganak_and_states_its_guarantee(cli) -> None:
    run = cli("xor", "--bits", "3", "--method", "ganak", "--json")
    assert run.code == 0
    assert '"count": 24' in run.out and '"method": "ganak"' in run.out and "component cache" in run.out


@needs_ganak
def test_a_ganak_count_stops_at_the_time_limit(cli) -> None:
    run = cli("xor", "--bits", "9", "--method", "ganak", "--timeout", "1", "--quiet")
    assert run.code == 3 and "time limit" in run.err


def test_without_ganak_the_error_says_how_to_install_it(cli, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RSCOUNT_GANAK_DIR", str(tmp_path / "none"))
    ganak.load.cache_clear()
    try:
        run = cli("xor", "--bits", "3", "--method", "ganak")
    finally:
        monkeypatch.undo()
        ganak.load.cache_clear()
    assert run.code == 2
    assert "GANAK is not installed" in run.err and "rscount install-ganak" in run.err
    assert "Traceback" not in run.err and len(run.err.strip().splitlines()) == 1
