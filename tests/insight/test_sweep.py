"""`rscount sweep`: nested supports, counts that never fall as the support shrinks, the CSV, the plot
and the robustness score."""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest
from references.bruteforce import brute_force_count
from support import REPO

from rscount.cnf import Cnf
from rscount.counting.settings import CountSettings
from rscount.errors import LimitReached, RscountError
from rscount.formats.dimacs import dump
from rscount.insight.sweep import grid_tasks, parse_levels, scores, sweep
from rscount.knowledge.loading import load_task
from rscount.task.families import random_cnf
from rscount.task.model import Task

XOR3 = REPO / "tasks" / "xor3.yaml"


def read_csv(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


def brute_force_cells(
    task: Task, label, seeds: list[int], fractions: list[float], levels: list[float]
) -> dict[tuple[int, float, float], int]:
    """(seed, fraction, supervision) -> the brute-force count of that grid point's support."""
    domains = [list(d) for d in task.domains]
    return {
        (p["seed"], p["fraction"], p["supervision"]): brute_force_count(
            domains, label, list(t.support.rows), set(t.support.supervised)
        )
        for p, t in grid_tasks(task, seeds, fractions, levels)
    }


def csv_cells(rows: list[dict]) -> dict[tuple[int, float, float], int]:
    return {(int(r["seed"]), float(r["fraction"]), float(r["supervision"])): int(r["count"]) for r in rows}


def assert_counts_never_fall_as_support_shrinks(rows: list[dict]) -> None:
    series: dict[tuple, list[dict]] = {}
    for r in rows:
        series.setdefault((r["seed"], r["supervision"]), []).append(r)
    for rs in series.values():
        rs.sort(key=lambda r: float(r["fraction"]))
        sizes = [int(r["support_size"]) for r in rs]
        counts = [int(r["count"]) for r in rs]
        assert sizes == sorted(sizes)
        assert all(small >= large for small, large in zip(counts, counts[1:])), counts


@pytest.fixture
def random_3cnf(tmp_path: Path) -> Path:
    path = tmp_path / "random6.cnf"
    dump(Cnf(6, random_cnf(6, 6, 3, seed=2)), path)
    return path


def test_xor3_sweep_counts_never_fall_as_the_support_shrinks_and_the_png_renders(cli, tmp_path):
    out, png = tmp_path / "xor3.csv", tmp_path / "xor3.png"
    run = cli("sweep", XOR3, "--seeds", "4", "--csv", out, "--plot", png, "--jobs", "1")
    assert run.code == 0, run.err
    rows = read_csv(out)
    assert len(rows) == 4 * 10 and {r["exact"] for r in rows} == {"True"}
    assert_counts_never_fall_as_support_shrinks(rows)
    by_size = {int(r["support_size"]): int(r["count"]) for r in rows}
    assert by_size[1] == 192 and by_size[8] == 24  # one example; exhaustive (design/counting.md)
    fractions = [round(0.1 * n, 10) for n in range(1, 11)]
    expected = brute_force_cells(load_task(XOR3), lambda c: sum(c) % 2, [1, 2, 3, 4], fractions, [0.0])
    assert csv_cells(rows) == expected
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    from matplotlib.image import imread

    pixels = imread(png)
    assert pixels.shape[0] >= 400 and pixels.shape[1] >= 600
    assert pixels.std() > 0.05  # not a blank canvas


def test_random_3cnf_sweep_with_supervision_levels(cli, tmp_path, random_3cnf):
    out, svg = tmp_path / "r.csv", tmp_path / "r.svg"
    run = cli(
        "sweep", random_3cnf, "--seeds", "3", "--fractions", "0.1:1:0.15", "--supervision", "0,0.5",
        "--csv", out, "--plot", svg, "--jobs", "2", "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    rows = read_csv(out)
    assert_counts_never_fall_as_support_shrinks(rows)
    assert {r["fraction"] for r in rows} >= {"0.1", "1.0"}  # the full support is always counted
    cells = {(r["seed"], r["fraction"], r["supervision"]): int(r["count"]) for r in rows}
    for (seed, fraction, g), count in cells.items():
        if g == "0.5":  # supervising half of the same support never adds a map
            assert count <= cells[seed, fraction, "0.0"]
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    record = run.json()
    assert [s["supervision"] for s in record["scores"]] == [0.0, 0.5]
    assert all(0 < s["R"] <= 1 for s in record["scores"])


def test_random_3cnf_sweep_counts_every_grid_point_exactly(cli, tmp_path):
    clauses = random_cnf(4, 4, 3, seed=2)
    path = tmp_path / "random4.cnf"
    dump(Cnf(4, clauses), path)
    out = tmp_path / "r.csv"
    run = cli(
        "sweep", path, "--seeds", "3", "--seed", "4", "--fractions", "0.25:1:0.25", "--supervision", "0,0.5",
        "--csv", out, "--jobs", "1",
    )  # fmt: skip
    assert run.code == 0, run.err

    def holds(c: tuple) -> int:
        return int(all(any(c[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses))

    expected = brute_force_cells(load_task(path), holds, [4, 5, 6], [0.25, 0.5, 0.75, 1.0], [0.0, 0.5])
    cells = csv_cells(read_csv(out))
    assert cells == expected and len(cells) == 3 * 4 * 2
    assert len(set(cells.values())) > 2  # the grid points do differ


def test_supports_are_nested_per_seed_and_supervision_lies_inside_them():
    task = load_task(REPO / "tasks" / "mnadd-half.yaml")
    points = grid_tasks(task, [7, 8], [0.3, 0.6, 1.0], [0.0, 0.5])
    assert len(points) == 2 * 3 * 2
    for seed in (7, 8):
        for g in (0.0, 0.5):
            chain = [t for p, t in points if p["seed"] == seed and p["supervision"] == g]
            for small, large in zip(chain, chain[1:]):
                assert set(small.support.rows) < set(large.support.rows)
                assert small.support.supervised <= large.support.supervised
            for t in chain:
                assert t.support.supervised <= set(t.support.rows)
                assert len(t.support.supervised) == round(g * t.support.size)
    full = {frozenset(t.support.rows) for p, t in points if p["fraction"] == 1.0}
    assert full == {frozenset(task.support.rows)}


def test_robustness_score_follows_its_definition():
    rows = [
        {"seed": 1, "fraction": 0.5, "supervision": 0.0, "count": 8},
        {"seed": 1, "fraction": 1.0, "supervision": 0.0, "count": 2},
        {"seed": 2, "fraction": 0.5, "supervision": 0.0, "count": 2},
        {"seed": 2, "fraction": 1.0, "supervision": 0.0, "count": 2},
        {"seed": 1, "fraction": 0.5, "supervision": 1.0, "count": 1},
        {"seed": 1, "fraction": 1.0, "supervision": 1.0, "count": 1},
    ]
    none, full = scores(rows)
    # rho = mean of (1 - F) * count(full) / count(F) = (0.5 * 2/8 + 0.5 * 2/2) / 2; R = rho / mean(1 - F)
    assert none["rho"] == pytest.approx(0.3125) and none["R"] == pytest.approx(0.625)
    assert none["shortcut_free_from"] is None
    assert full["R"] == 1 and full["shortcut_free_from"] == 0.5


@pytest.mark.parametrize(
    ("text", "levels"),
    [("0.1:1.0:0.1", [round(0.1 * n, 10) for n in range(1, 11)]), ("0.5,0.25,1", [0.25, 0.5, 1.0])],
)
def test_levels_are_ranges_or_lists(text, levels):
    assert parse_levels(text, "--fractions") == levels


@pytest.mark.parametrize("text", ["0:1:0.5", "0.5:1", "a,b", "1.5", "0.1:1:0"])
def test_bad_fraction_levels_are_refused(text):
    with pytest.raises(RscountError, match="--fractions"):
        parse_levels(text, "--fractions")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fraction", "0.5"], "--fraction: sweep chooses the supports itself"),
        (["--plot", "x.pdf"], "must end in .png or .svg"),
        (["--supervision", "2"], "--supervision: every level must lie in [0, 1]"),
    ],
)
def test_misuse_is_one_error_line(cli, args, message):
    run = cli("sweep", XOR3, *args)
    assert run.code == 2 and message in run.err and len(run.err.splitlines()) == 1


def test_existing_csv_is_kept_without_force(cli, tmp_path):
    out = tmp_path / "kept.csv"
    out.write_text("mine\n")
    run = cli("sweep", XOR3, "--csv", out, "--jobs", "1")
    assert run.code == 2 and "exists; pass --force" in run.err and out.read_text() == "mine\n"


def test_sweep_plot_legend_names_the_median_and_the_band_of_every_series(cli, tmp_path):
    import matplotlib

    svg = tmp_path / "sweep.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text stays text, so it can be read back
        run = cli("sweep", XOR3, "--seeds", "2", "--supervision", "0,0.5", "--plot", svg, "--jobs", "1")
    assert run.code == 0, run.err
    text = svg.read_text()
    for level in ("0%", "50%"):
        assert f"{level} of each support concept-supervised: median over seeds" in text
        assert f"{level} of each support concept-supervised: min to max over seeds" in text


def test_a_sweep_is_one_deadline_whose_passing_stops_every_count_left():
    task = load_task(REPO / "tasks" / "xor3.yaml")
    past = CountSettings(timeout=30).replace(deadline=time.time() - 1)  # the command's time is spent
    with pytest.raises(LimitReached, match="no count succeeded"):
        sweep(task, [1, 2], [0.5, 1.0], settings=past, jobs=1)
    record = sweep(task, [1, 2], [0.5, 1.0], settings=CountSettings(timeout=30), jobs=1)
    assert record.stopped == 0 and all(r["count"] is not None for r in record.rows)
