"""processes/alarm.within_seconds: the work's answer when it is quick, None once its seconds run out
(the previous SIGALRM handler and timer restored), and nothing started where no alarm can be set."""

from __future__ import annotations

import signal
import threading
import time

from rscount.counting.processes.alarm import within_seconds


def test_quick_work_answers_and_the_alarm_is_put_back():
    before = signal.getsignal(signal.SIGALRM)
    assert within_seconds(5, lambda: 42) == 42
    assert signal.getsignal(signal.SIGALRM) == before and signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_work_past_its_seconds_is_cut_short():
    start = time.monotonic()
    assert within_seconds(0.2, lambda: time.sleep(30)) is None
    assert time.monotonic() - start < 10
    spin = [0]

    def busy() -> None:
        while True:
            spin[0] += 1

    assert within_seconds(0.2, busy) is None and spin[0] > 0


def test_outside_the_main_thread_the_work_is_not_started():
    started, answers = [], []

    def work() -> int:
        started.append(True)
        return 1

    thread = threading.Thread(target=lambda: answers.append(within_seconds(1, work)))
    thread.start()
    thread.join()
    assert answers == [None] and not started


def test_a_ring_swallowed_by_a_finalizer_rings_again_and_is_not_printed(capsys):
    class Finalized:
        def __del__(self) -> None:
            time.sleep(0.5)  # the alarm rings here, where Python drops exceptions

    def work() -> str:
        Finalized()  # collected at once: its __del__ swallows the first ring
        until = time.monotonic() + 20
        while time.monotonic() < until:
            pass
        return "ran on"

    start = time.monotonic()
    assert within_seconds(0.1, work) is None
    assert time.monotonic() - start < 10
    assert "AlarmRang" not in capsys.readouterr().err
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_a_ring_inside_pysat_waits_for_it_to_return():
    """pysat frees a solver and then forgets it: a ring between the two would free it twice."""
    done: list[bool] = []
    space = {"__name__": "pysat.solvers", "time": time}
    exec(  # a function whose frame is pysat's, busy past the alarm
        "def finish(seconds, done):\n"
        "    end = time.monotonic() + seconds\n"
        "    while time.monotonic() < end:\n"
        "        pass\n"
        "    done.append(True)\n",
        space,
    )

    def work() -> None:
        space["finish"](0.4, done)
        while True:
            pass

    assert within_seconds(0.1, work) is None and done == [True]
