"""An estimate of a count with the confidence it really has, where the optimal maps are a dense part
of all maps: maps (pi, f) drawn uniformly (in the objects mode: an object and an attribute
permutation, and one value map per attribute), each checked on every support row at once (numpy,
label ids read off the label groups' tables). A draw scores w(pi) / w_max when it keeps every row
(w(pi): the value maps with that permutation), else 0, so its mean mu times k! * w_max is the count;
the scores lie in [0, 1], so Hoeffding's bound in its Kullback-Leibler form gives an interval for
mu at any confidence. Intervals are reported after 2^j batches with error budget delta / 2^(j+1),
so that all of them hold at once with probability at least 1 - delta, whenever the count is
stopped. Where maps are rare (MNMath disentangled: about 1 map in 10^48) no draw keeps every row
and the interval says only that the count is small next to all maps; search probes then give a
lower bound instead (rscount.counting.probes)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NoReturn

import numpy as np
from numpy.typing import NDArray

from ..encoding.value_codes import ValueMapCoding
from ..progress import Progress
from ..task.model import Mode
from .budget import Declined, Unsuited
from .engines.group_tables import MISSING, GroupTables
from .probes import probed_lower_bounds
from .problem import CountProblem

DELTA = 0.01  # every interval reported holds with probability at least 1 - DELTA
BATCH_CELLS = 1 << 21  # draws x rows x concepts checked in one batch
SEED = 0
NARROW = 1.1  # an interval whose upper end is within 10% of its lower end is narrow enough
MAX_DRAWS = 1 << 24  # past this many draws (about 20 s of a processor for MNMath), no more


@dataclass(frozen=True)
class Interval:
    """What n draws say: the count's estimate, and the interval that holds with the confidence."""

    estimate: int
    low: int
    high: int
    draws: int
    confidence: float


class MapSampler:
    """Uniform draws of maps of a problem and their scores (see the module)."""

    def __init__(self, problem: CountProblem) -> None:
        if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise Unsuited("sampling draws maps (pi, f): the disentangled and objects modes")
        task = problem.task
        if task.in_place:
            raise Unsuited("sampling draws concept permutations, which an extractor in place fixes")
        if task.predicts_more:
            raise Unsuited("sampling draws value maps within the domains, not from the ground truth's values")
        objects = problem.mode == Mode.OBJECTS
        coding = ValueMapCoding(task, shared=objects)
        self.sizes = np.array(coding.sizes, dtype=np.int64)
        k = len(coding.sizes)
        # the blocks a permutation moves: objects (whole) and attributes, or single concepts
        self.m = len(task.object_spec().attributes) if objects else k
        self.n = k // self.m
        owners = [coding.sizes[a] for a in range(self.m)]  # the domain of each value map's owner
        ranked = sorted(owners)
        self.w_max = math.prod(t**s for s, t in zip(ranked, ranked))
        self.space = math.factorial(self.n) * math.factorial(self.m) * self.w_max
        rows = coding.rows()
        self.values = np.array([idx for _, idx, _, _ in rows], dtype=np.int64).reshape(len(rows), k)
        self.supervised = np.array(
            [[j in sup for j in range(k)] for _, _, sup, _ in rows], dtype=bool
        ).reshape(len(rows), k)
        self.owner_sizes = np.array(owners, dtype=np.int64)
        self.width = max(owners)
        tables = GroupTables(coding, coding.label_groups())
        self.groups: list[tuple[list[int], NDArray[np.int64], NDArray[np.int32], NDArray[np.int64]]] = []
        for g, (labels, targets) in enumerate(coding.label_groups()):
            if not labels:
                continue
            table = tables.label_table(g)
            if table is None:
                raise Declined("sampling: a label group too large to tabulate")
            ids, wanted = table
            if (wanted == MISSING).any():
                raise Declined("sampling: a row's labels no predicted vector gives (no map keeps it)")
            radices = [coding.sizes[j] for j in targets]
            strides = np.array([math.prod(radices[t + 1 :]) for t in range(len(radices))], dtype=np.int64)
            self.groups.append((targets, strides, ids, wanted))

    def scores(self, rng: np.random.Generator, draws: int) -> NDArray[np.float64]:
        """The scores of `draws` uniform maps."""
        n, m = self.n, self.m
        objs = np.argsort(rng.random((draws, n)), axis=1)  # objs[b, o]: the object o feeds
        attrs = np.argsort(rng.random((draws, m)), axis=1)  # attrs[b, a]: the attribute a feeds
        into = self.owner_sizes[attrs]  # the size of the domain each value map maps into
        maps = (rng.random((draws, m, self.width)) * into[:, :, None]).astype(np.int64)
        concepts = np.arange(n * m)
        source_obj, source_attr = concepts // m, concepts % m
        target = objs[:, source_obj] * m + attrs[:, source_attr]  # target[b, i]: the concept i feeds
        # picked[b, r, i]: the image of concept i's value on row r; predicted: the same at its target
        picked = maps[np.arange(draws)[:, None, None], source_attr[None, None, :], self.values[None, :, :]]
        predicted = np.empty_like(picked)
        np.put_along_axis(predicted, np.broadcast_to(target[:, None, :], picked.shape), picked, axis=2)
        keep = np.ones(draws, dtype=bool)
        for targets, strides, ids, wanted in self.groups:
            codes = predicted[:, :, targets] @ strides
            keep &= (ids[codes] == wanted[None, :]).all(axis=1)
        if self.supervised.any():
            same = (predicted == self.values[None, :, :]) | ~self.supervised[None, :, :]
            keep &= same.all(axis=(1, 2))
        # w(pi) / w_max in logarithms (a domain of a thousand values has 1000^1000 maps)
        weight = np.exp((np.log(into) * self.owner_sizes[None, :]).sum(axis=1) - math.log(self.w_max))
        return np.where(keep, np.minimum(weight, 1.0), 0.0)

    def batch(self) -> int:
        """Draws per batch, so that a batch checks about BATCH_CELLS cells."""
        rows, k = self.values.shape
        return max(1, BATCH_CELLS // max(1, rows * k))

    def interval(self, total: float, draws: int, delta: float) -> Interval:
        """The count's interval from `draws` scores summing to `total`, holding with probability at
        least 1 - delta."""
        mean = min(1.0, total / draws)
        low, high = kl_interval(mean, draws, math.log(2 / delta))
        scale = self.space
        return Interval(
            round(Fraction(mean) * scale),
            math.floor(Fraction(low) * scale),
            math.ceil(Fraction(high) * scale),
            draws,
            1 - DELTA,
        )


def kl_interval(mean: float, draws: int, budget: float) -> tuple[float, float]:
    """The means q with draws * KL(mean || q) <= budget (Bernoulli KL divergence), by bisection:
    outside them, Hoeffding's bound puts the chance of a sample mean this far below 2 exp(-budget)."""

    def kl(p: float, q: float) -> float:
        if not 0 < q < 1:
            return math.inf
        total = 0.0
        if p > 0:
            total += p * math.log(p / q)
        if p < 1:
            total += (1 - p) * math.log((1 - p) / (1 - q))
        return total

    def edge(inside: float, outside: float) -> float:
        for _ in range(100):
            middle = (inside + outside) / 2
            if draws * kl(mean, middle) <= budget:
                inside = middle
            else:
                outside = middle
        return outside

    return 0.0 if mean == 0 else edge(mean, 0.0), 1.0 if mean == 1 else edge(mean, 1.0)


def sampled_estimates(problem: CountProblem, reports: Progress) -> NoReturn:
    """Report ever narrower sampled intervals (`progress.known(estimate=...)`), never the count;
    stop (Declined) once an interval's ends are within NARROW of each other or MAX_DRAWS maps are
    drawn, so that the processor goes back to the methods that count exactly. Where the first batch
    keeps no row, search probes (rscount.counting.probes) take over from the uniform draws."""
    sampler = MapSampler(problem)
    rng = np.random.default_rng(SEED)
    size = sampler.batch()
    total, draws, batches, due, j = 0.0, 0, 0, 1, 0
    while True:
        total += float(sampler.scores(rng, size).sum())
        draws += size
        batches += 1
        if batches == due:
            found = sampler.interval(total, draws, DELTA / 2 ** (j + 1))
            fields = {
                "estimate": found.estimate,
                "estimate_low": found.low,
                "estimate_high": found.high,
                "estimate_draws": found.draws,
                "estimate_confidence": found.confidence,
            }
            reports.known(**fields)
            if total == 0:  # optimal maps too rare to draw: probes find some
                probed_lower_bounds(problem, reports, fields)
            if found.high <= NARROW * found.low or draws >= MAX_DRAWS:
                raise Declined(f"sampled estimate: done after {draws} draws")
            j, due = j + 1, due * 2
