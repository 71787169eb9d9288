"""GANAK (pyganak, pinned to PYGANAK), the exact projected model counter rscount can ask for a
count of the whole CNF. pyganak's wheel also carries its own `pyapproxmc` module (a version that
miscounts tiny XORs, see engines/approxmc), so it is installed apart from site-packages, in
`ganak_dir()`, and its one extension module is loaded from there by path: ApproxMC keeps the
pinned pyapproxmc in the same environment.

GANAK's counts are exact up to its probabilistic component cache: its authors bound the chance of
a wrong count per instance (typically below 10^-9); pyganak does not report the bound."""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from ...errors import InvalidInput

PYGANAK = "2.8.0"
GUARANTEE = (
    "exact up to GANAK's probabilistic component cache (its authors bound the chance of a wrong "
    "count per instance, typically below 1e-9; pyganak does not report the bound)"
)


class GanakUnavailable(InvalidInput):
    """GANAK was asked for and cannot be loaded: not installed where rscount looks, or broken."""


def ganak_dir() -> Path:
    """Where rscount keeps pyganak: $RSCOUNT_GANAK_DIR, else share/rscount/pyganak-VERSION under
    the running Python's prefix (one per environment, as its extension is built for one Python)."""
    chosen = os.environ.get("RSCOUNT_GANAK_DIR", "")
    return Path(chosen) if chosen else Path(sys.prefix) / "share" / "rscount" / f"pyganak-{PYGANAK}"


@functools.cache
def load() -> ModuleType:
    """The pyganak extension module from ganak_dir(), loaded by path (the directory never joins
    sys.path, so its pyapproxmc stays out of sight); GanakUnavailable if it is missing."""
    directory = ganak_dir()
    found = sorted(directory.glob("pyganak.*.so")) + sorted(directory.glob("pyganak.*.pyd"))
    if not found:
        raise GanakUnavailable(
            f"GANAK is not installed for rscount (no pyganak in {directory}): "
            "run `rscount install-ganak` once"
        )
    spec = importlib.util.spec_from_file_location("pyganak", found[0])
    if spec is None or spec.loader is None:
        raise GanakUnavailable(f"cannot load {found[0]}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:
        raise GanakUnavailable(f"cannot load {found[0]}: {exc}") from None
    if getattr(module, "__version__", None) != PYGANAK:
        raise GanakUnavailable(
            f"{found[0]} is pyganak {getattr(module, '__version__', '?')}, not {PYGANAK}: "
            "run `rscount install-ganak` again"
        )
    return module


def available() -> bool:
    """Whether GANAK can be loaded here."""
    try:
        load()
    except GanakUnavailable:
        return False
    return True


def count(clauses: Sequence[Sequence[int]], projection: Sequence[int], seed: int = 0) -> int:
    """GANAK's count of the models of `clauses` projected on `projection` (every variable of the
    projection counted, also one in no clause), as a Python int. It runs in this process and
    cannot be interrupted: callers run it where a time limit can kill it (processes/)."""
    counter = load().Counter(verbose=0, seed=seed)
    top = max([abs(lit) for clause in clauses for lit in clause] + list(projection) + [0])
    if top:
        counter.new_vars(top)
    counter.add_clauses([list(clause) for clause in clauses])
    counter.set_sampling_set(list(projection))
    return int(counter.count())


def install(directory: Path | None = None) -> Path:
    """Install pyganak PYGANAK (without dependencies) into `directory` (default ganak_dir()) with
    this Python's pip, into a temporary folder renamed into place once complete, and check that
    it counts x1 xor x2 as 2. Returns the directory."""
    target = directory or ganak_dir()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pyganak-", dir=target.parent))
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-input", "--quiet",
               "--target", str(staging), f"pyganak=={PYGANAK}"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise GanakUnavailable(f"pip could not install pyganak=={PYGANAK}: {last}")
    old = target.with_name(target.name + ".old")
    if target.exists():
        shutil.rmtree(old, ignore_errors=True)
        target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)
    load.cache_clear()
    if count([[1, 2], [-1, -2]], [1, 2]) != 2:
        raise GanakUnavailable(f"the pyganak installed in {target} does not count x1 xor x2 as 2")
    return target
