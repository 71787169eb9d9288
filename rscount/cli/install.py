"""`rscount install-ganak`: install GANAK (pyganak) where rscount loads it from, apart from
site-packages (rscount.counting.engines.ganak says why)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..counting.engines import ganak
from .output import say


def add_commands(sub: Any) -> None:
    """The install-ganak subcommand."""
    p = sub.add_parser(
        "install-ganak",
        help=f"install pyganak {ganak.PYGANAK} for --method ganak and --cross-check (uses pip)",
    )
    p.add_argument(
        "--dir", metavar="PATH", help=f"where (default $RSCOUNT_GANAK_DIR, else {ganak.ganak_dir()})"
    )


def run(args: argparse.Namespace) -> int:
    """Install pyganak with pip into its own directory and check that it counts."""
    target = ganak.install(Path(args.dir) if args.dir else None)
    say(f"GANAK (pyganak {ganak.PYGANAK}) installed in {target}; it counts x1 xor x2 as 2")
    if args.dir:
        say(f"set RSCOUNT_GANAK_DIR={target} for rscount to find it there")
    return 0


HANDLERS = {"install-ganak": run}
