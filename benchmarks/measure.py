"""One measured run: a subprocess in its own process group, its wall time, and its peak memory
(`os.wait4` rusage, which on Linux covers the process and the children it waited for, such as the
counting child the rscount CLI forks), with an outer safety kill of the whole group."""

from __future__ import annotations

import contextlib
import datetime
import os
import platform
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    """What a finished (or killed) subprocess left: exit code, output, wall time, peak RSS."""

    exit_code: int
    killed: bool
    wall_s: float
    peak_mib: float
    stdout: str
    stderr: str


def _kill_group(pgid: int) -> None:
    """SIGKILL the process group we created for one run (gone already is fine)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def run_measured(command: list[str], cwd: Path, kill_after: float) -> Run:
    """Run `command` in `cwd`; kill its process group after `kill_after` seconds. Output goes to
    temporary files, not pipes, so a chatty process cannot block while we wait for it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True
        )
        killed = threading.Event()

        def stop() -> None:
            killed.set()
            _kill_group(process.pid)

        timer = threading.Timer(kill_after, stop)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        _kill_group(process.pid)  # anything the run left behind in its group
        out.seek(0)
        err.seek(0)
        return Run(
            exit_code=process.returncode,
            killed=killed.is_set(),
            wall_s=wall,
            peak_mib=usage.ru_maxrss / 1024,  # Linux reports KiB
            stdout=out.read().decode(errors="replace"),
            stderr=err.read().decode(errors="replace"),
        )


def recorded(command: str) -> list[str]:
    """The first two lines of a results file: when and by which command it was recorded, and on
    what machine."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return [
        f"Recorded {now} by `{command}` on {platform.node()}",
        f"({platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()});",
    ]
