"""A lower bound on a count with the confidence it really has, where optimal maps are too rare for
uniform draws to find (MNMath disentangled, 40 uniform rows: none of the first 6553 draws): probes
down the search's tree (Knuth's estimator: a permutation drawn uniformly, then each group's value
search followed along images drawn uniformly among those that leave its rows completable, the probe
weighted by how many each step allowed). A probe's expectation is the count, whatever its variance,
so by Markov's inequality each of T means of disjoint probes exceeds c times the count with
probability at most 1 / c: their smallest, divided by c = (1 / delta)^(1 / T), is a lower bound
that holds with probability at least 1 - delta (T = 1, 2, 5 and 10 are tried, each with a quarter
of delta, and the largest bound kept). Reports j = 0, 1, ... spend delta / 2^(j + 1), so all
of them hold at once with probability at least 1 - DELTA. Nothing bounds such an estimate from above:
the probes' mean is reported as it is, without an interval."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, NoReturn

from ..progress import Progress
from ..task.model import Mode
from .budget import Declined, Unsuited
from .methods.search import Counter
from .problem import CountProblem

DELTA = 0.01  # every lower bound reported holds with probability at least 1 - DELTA
STREAMS = 10  # the probes are dealt to this many streams, whose means are independent
GROUPINGS = (1, 2, 5, 10)  # T: the streams merged into T groups, each T with a share of delta
FIRST = 16  # probes per stream at the first report (then twice as many at each next one)
MAX_PROBES = 1 << 20  # past this many probes, no more
SEED = 0


class Prober:
    """Random probes of a problem's search tree, each an unbiased estimate of the count."""

    def __init__(self, problem: CountProblem) -> None:
        if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise Unsuited("probes walk maps (pi, f): the disentangled and objects modes")
        self.counter = Counter(problem)
        self.permutations = self.counter.permutations()

    def probe(self, rng: random.Random) -> int:
        """One probe: the permutations' number times one estimate of N(pi) for a uniform pi."""
        counter = self.counter
        return self.permutations * counter.models(counter.random_permutation(rng), rng=rng)


def markov_lower_bound(sums: list[int], probes: int, delta: float) -> int:
    """The count's lower bound from independent streams of `probes` probes each (their `sums`),
    holding with probability at least 1 - delta: the least mean over (1 / delta)^(1 / streams)."""
    c = math.nextafter((1 / delta) ** (1 / len(sums)), math.inf)  # rounded up: the bound only drops
    return math.floor(Fraction(min(sums), probes) / Fraction(c))


def best_lower_bound(sums: list[int], probes: int, delta: float) -> int:
    """The largest of the lower bounds from the streams merged into T groups for each T of
    GROUPINGS, each holding with probability at least 1 - delta / len(GROUPINGS), so the largest
    holds with probability at least 1 - delta: one group where probes rarely survive (a group's
    mean is 0 if none did), ten where they often do (c is then about 1.8 instead of 400)."""
    share = delta / len(GROUPINGS)
    found = 0
    for t in GROUPINGS:
        size = len(sums) // t
        grouped = [sum(sums[g * size : (g + 1) * size]) for g in range(t)]
        found = max(found, markov_lower_bound(grouped, probes * size, share))
    return found


def probed_lower_bounds(problem: CountProblem, reports: Progress, also: dict[str, Any]) -> NoReturn:
    """Report ever more probes' lower bound and mean (`progress.known(estimate_at_least=...)`, with
    what `also` holds), never the count; stop (Declined) after MAX_PROBES probes."""
    prober = Prober(problem)
    rng = random.Random(SEED)
    sums = [0] * STREAMS
    each, due, j = 0, FIRST, 0
    while True:
        while each < due:
            for s in range(STREAMS):
                sums[s] += prober.probe(rng)
            each += 1
        probes = each * STREAMS
        found = {
            "estimate_at_least": best_lower_bound(sums, each, DELTA / 2 ** (j + 1)),
            "estimate_probe_mean": round(Fraction(sum(sums), probes)),
            "estimate_probes": probes,
            "estimate_confidence": 1 - DELTA,
        }
        reports.known(**{**also, **found})
        if probes >= MAX_PROBES:
            raise Declined(f"probed lower bound: done after {probes} probes")
        j, due = j + 1, due * 2
