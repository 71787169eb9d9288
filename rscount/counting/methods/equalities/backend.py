"""Exact counting of tasks whose labels each test two concepts of one domain for equality
(rscount.knowledge.equalities): per permutation class (the class search decompose walks; the
result keeps them for explain and forecast), the colourings of the value maps' images that the
rows merge and keep apart (rscount.counting.engines.colourings). Scallop's eq_2 (two digits, all
100 pairs): the two value maps one bijection, 2 x 10! in milliseconds, where a solver enumerates
and a compiler blows up on the bijection."""

from __future__ import annotations

import time

from ....encoding.value_codes import ValueMapCoding
from ....knowledge.equalities import equality_labels
from ....progress import Progress
from ....task.model import Mode
from ...budget import UNBOUNDED, Budget, Unsuited
from ...engines.class_search.search import ClassSearch
from ...engines.colourings import ImageColourings
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method


class EqualitiesBackend:
    """Sum over permutation classes of the colourings the rows' equalities allow."""

    method = Method.EQUALITIES
    exact = True
    description = "equality labels: per concept permutation, the proper colourings of the images"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The exact count, or Unsuited for a label that is no equality test, a mode other than the
        disentangled and objects ones or a graph with too many states (TooManyClasses past the
        budget's classes)."""
        start = time.perf_counter()
        if problem.mode not in (Mode.DISENTANGLED, Mode.OBJECTS):
            raise Unsuited("the equalities method counts the disentangled and objects modes")
        tests = equality_labels(problem.task)
        if tests is None:
            raise Unsuited("a label is not an equality test of two concepts with the same values")
        coding = ValueMapCoding(problem.task, shared=problem.mode == Mode.OBJECTS)
        counter = ImageColourings(coding, tests)
        search = ClassSearch(problem, progress, budget)
        result = CountResult(0, True, self.method, classes=[])
        walked, nonzero = 0, 0
        for pi, size in search:
            found = counter.count(pi) * coding.unseen_factor(pi)
            result.keep_class(pi, size, found)
            result.count += found * size
            walked, nonzero = walked + 1, nonzero + bool(found)
        result.details = {
            "classes": walked,
            "nonzero": nonzero,
            "blocks": search.blocks,
            "search": search.strategy,
        }
        result.seconds = time.perf_counter() - start
        return result
