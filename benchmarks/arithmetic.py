"""Whole numbers written in digits (issue 59's corpus, written here): two n-digit numbers and their
sum as the label, as DeepProbLog's multi-digit MNIST addition and A-NeSI's N-digit addition pose it,
in the disentangled mode (a network per digit position) and the objects mode (one digit network),
on supports of random digit vectors drawn with several seeds; each counted by `rscount count
--method M --timeout T` for the linear method, the search method, GANAK and auto, in subprocesses.

    python benchmarks/arithmetic.py                        # the default grid, 60 s per run
    python benchmarks/arithmetic.py --digits 2 --timeout 20 --methods linear,search

Writes benchmarks/arithmetic.json (every run) and benchmarks/arithmetic.md (one row per task, the
machine and date in the header). A brute force over the maps is out of reach at these sizes
(10^60 value maps for two 3-digit numbers): the tests check the linear method against one on small
affine tasks (tests/counting/methods/test_linear.py), and here the methods check each other.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml
from measure import run_measured

BENCH = Path(__file__).resolve().parent
COUNT = re.compile(r"^optimal concept maps: (about )?(\d+)", re.M)


def task(digits: int, rows: int, seed: int, objects: bool) -> dict[str, Any]:
    """Two `digits`-digit numbers a and b (most significant digit first), label a + b, `rows`
    distinct random digit vectors drawn with `seed`."""
    rng = random.Random(seed)
    k = 2 * digits
    seen: dict[tuple[int, ...], None] = {}
    while len(seen) < min(rows, 10**k):
        seen.setdefault(tuple(rng.randrange(10) for _ in range(k)), None)
    weights = [10 ** (digits - 1 - p) for p in range(digits)] * 2
    data: dict[str, Any] = {"name": f"add{digits}-{'objects' if objects else 'disentangled'}-{rows}-s{seed}"}
    if objects:
        names = [f"d_{n}" for n in range(1, k + 1)]
        data["objects"] = {"count": k, "attributes": {"d": list(range(10))}}
    else:
        names = [f"{side}{p}" for side in "ab" for p in range(1, digits + 1)]
        data["concepts"] = {name: list(range(10)) for name in names}
    data["labels"] = {"sum": " + ".join(f"{w} * {name}" for w, name in zip(weights, names))}
    data["support"] = [list(r) for r in seen]
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--digits", default="2,3", help="comma-separated numbers of digits")
    parser.add_argument("--rows", default="100,1000", help="comma-separated support sizes")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--methods", default="linear,search,ganak")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    repo = BENCH.parent  # `python -m rscount` run there imports this checkout's rscount
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for digits in map(int, args.digits.split(",")):
            for rows in map(int, args.rows.split(",")):
                for seed in map(int, args.seeds.split(",")):
                    for objects in (False, True):
                        data = task(digits, rows, seed, objects)
                        path = Path(tmp) / f"{data['name']}.yaml"
                        path.write_text(yaml.safe_dump(data, default_flow_style=None))
                        for method in args.methods.split(","):
                            command = [
                                sys.executable,
                                "-m",
                                "rscount",
                                "count",
                                str(path),
                                "--method",
                                method,
                            ]
                            command += ["--timeout", str(args.timeout)]
                            run = run_measured(command, repo, args.timeout + 40)
                            found = COUNT.search(run.stdout)
                            said = (run.stderr.strip().splitlines() or ["?"])[-1][:160]
                            runs.append({
                                "task": data["name"], "method": method, "seconds": round(run.wall_s, 2),
                                "count": int(found.group(2)) if found else None,
                                "exact": bool(found and not found.group(1)),
                                "outcome": "answered" if found else said,
                            })  # fmt: skip
                            print(runs[-1], flush=True)
    stamp = (
        f"{datetime.date.today()}, {platform.node()} ({os.cpu_count()} cores, {platform.python_version()})"
    )
    (BENCH / "arithmetic.json").write_text(json.dumps({"machine": stamp, "runs": runs}, indent=1))
    methods = args.methods.split(",")
    lines = [
        "# Whole numbers in digits: counts and seconds per method",
        "",
        f"Measured {stamp} by `python benchmarks/arithmetic.py --timeout {args.timeout:g}`: "
        "each cell is the wall time of `rscount count --method M` (process start included) and its count; "
        "`limit` where it stopped at the time limit, `declined` where the method does not apply.",
        "",
        "| task | " + " | ".join(methods) + " |",
        "|---|" + "---|" * len(methods),
    ]
    for name in dict.fromkeys(r["task"] for r in runs):
        cells = []
        for method in methods:
            r = next(x for x in runs if x["task"] == name and x["method"] == method)
            if r["count"] is not None:
                cells.append(f"{r['count']}{'' if r['exact'] else ' (approx.)'}, {r['seconds']:.1f} s")
            else:
                cells.append("limit" if "time limit" in r["outcome"] else f"declined ({r['outcome'][:60]})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    (BENCH / "arithmetic.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
