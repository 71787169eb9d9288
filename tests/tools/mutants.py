"""A sampled mutation run over a copy of the repository, with mutmut 2.5.1's mutation operators.

Not a test module (pytest collects test_*.py only) and not part of CI: docs/testing.md says when
and how it was run. mutmut 2 cannot sample mutants, so this script lists every mutant of the
given modules with mutmut's own generator (`mutmut.list_mutations`), draws a seeded sample, and
for each one writes the mutated module into the copy, runs the test selection (stopping at the
first failure) and restores the module. Results go to a JSON-lines log, one mutant per line
(status killed / survived / timeout), so an interrupted run resumes where it stopped.

    git clone /work/main /tmp/mut && cp -r tests/. /tmp/mut/tests/
    pip install mutmut==2.5.1          # in a venv: python -m venv --system-site-packages ...
    python tests/tools/mutants.py --root /tmp/mut --sample 240 --seed 1 --log /tmp/mutants.jsonl \\
        rscount/counting/methods/closed_form/forms.py ... -- tests/counting/methods/test_closed_forms.py ...

The copy's code is imported (PYTHONPATH=ROOT; pytest runs in ROOT, so the copy's pyproject.toml puts
tests/ on the path for the test helpers); bytecode caches are removed first and never
written, so that a mutant is never hidden by a stale .pyc of the same size and second. Hypothesis
runs derandomized and without its example database (a profile loaded by a generated plugin), so
every mutant meets the same examples.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROFILE = """
from hypothesis import settings
settings.register_profile("mutation", database=None, derandomize=True, deadline=None)
settings.load_profile("mutation")
"""


def mutants(root: Path, files: list[str]) -> list[tuple[str, object]]:
    """Every (file, mutation id) mutmut generates for the files."""
    from mutmut import Context, list_mutations

    found = []
    for name in files:
        source = (root / name).read_text()
        found += [(name, m) for m in list_mutations(Context(source=source, filename=name))]
    return found


def mutated(root: Path, name: str, mutation_id: object) -> str:
    from mutmut import Context, mutate

    source = (root / name).read_text()
    text, count = mutate(Context(source=source, mutation_id=mutation_id, filename=name))
    assert count == 1, (name, mutation_id)
    return text


def run_tests(root: Path, pytest_args: list[str], env: dict[str, str], timeout: float) -> tuple[str, float]:
    start = time.perf_counter()
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
    command += ["-p", "mutation_profile", *pytest_args]
    try:
        proc = subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start
    # 1: a test failed; 2: collection failed (the mutant breaks an import); 3: internal error
    status = {0: "survived", 1: "killed", 2: "killed", 3: "killed"}.get(proc.returncode, "error")
    return status, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the repository copy to mutate")
    parser.add_argument("--sample", type=int, default=0, help="mutants drawn (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--list", action="store_true", help="only count the mutants per module")
    parser.add_argument(
        "--rerun", type=Path, metavar="LOG", help="run again the mutants that survived in LOG (no sampling)"
    )
    parser.add_argument("--skip", nargs="*", default=[], metavar="FILE:LINE", help="leave these out")
    parser.add_argument("files", nargs="+", help="modules (relative to ROOT); after --: pytest arguments")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    files, pytest_args = args.files, argv[cut + 1 :]
    root = args.root.resolve()

    everything = mutants(root, files)
    if args.list:
        for name in files:
            print(sum(f == name for f, _ in everything), name)
        print(len(everything), "in all")
        return 0
    chosen = everything
    if args.rerun:
        survived = [json.loads(line) for line in args.rerun.read_text().splitlines()]
        keys = {(r["file"], r["line_number"], r["index"]) for r in survived if r["status"] == "survived"}
        chosen = [(f, m) for f, m in everything if (f, m.line_number, m.index) in keys]  # type: ignore[attr-defined]
        chosen = [(f, m) for f, m in chosen if f"{f}:{m.line_number + 1}" not in args.skip]  # type: ignore[attr-defined]
    elif args.sample and args.sample < len(everything):
        # in drawn order: a run stopped early has still tested a uniform sample
        chosen = random.Random(args.seed).sample(everything, args.sample)
    done = set()
    if args.log.exists():
        for line in args.log.read_text().splitlines():
            r = json.loads(line)
            done.add((r["file"], r["line_number"], r["index"]))

    plugin_dir = Path(tempfile.mkdtemp(prefix="mutation-plugin-"))
    (plugin_dir / "mutation_profile.py").write_text(PROFILE)
    env = dict(os.environ, PYTHONPATH=f"{root}{os.pathsep}{plugin_dir}", PYTHONDONTWRITEBYTECODE="1")
    for cache in (root / "rscount").rglob("__pycache__"):
        shutil.rmtree(cache)

    status, baseline = run_tests(root, pytest_args, env, timeout=3600)
    if status != "survived":
        print(f"the unmutated code fails the selection ({status}); fix that first", file=sys.stderr)
        return 1
    timeout = max(3 * baseline, baseline + 30)
    print(
        f"{len(everything)} mutants, {len(chosen)} drawn; baseline {baseline:.1f} s, timeout {timeout:.0f} s"
    )
    for n, (name, mid) in enumerate(chosen, start=1):
        key = (name, mid.line_number, mid.index)  # type: ignore[attr-defined]
        if key in done:
            continue
        path = root / name
        original = path.read_text()
        text = mutated(root, name, mid)
        before = original.splitlines()[mid.line_number]  # type: ignore[attr-defined]
        after = text.splitlines()[mid.line_number]  # type: ignore[attr-defined]
        try:
            path.write_text(text)
            status, seconds = run_tests(root, pytest_args, env, timeout)
        finally:
            path.write_text(original)
        record = {"file": name, "line_number": key[1], "index": key[2], "status": status}
        record.update(seconds=round(seconds, 1), before=before.strip(), after=after.strip())
        with args.log.open("a") as log:
            log.write(json.dumps(record) + "\n")
        print(
            f"[{n}/{len(chosen)}] {status:8} {seconds:6.1f}s {name}:{key[1] + 1}: {after.strip()}", flush=True
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
