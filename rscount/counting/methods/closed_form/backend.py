"""Closed forms as a method: the first formula whose preconditions the task meets (forms.py,
docs/closed-forms.md), else declined with the reason of each."""

from __future__ import annotations

import time

from ....progress import Progress
from ...budget import UNBOUNDED, Budget
from ...problem import CountProblem
from ...result import CountResult
from ...settings import CountSettings, Method
from .forms import closed_form


class ClosedFormsBackend:
    """A formula, where its preconditions are checked to hold."""

    method = Method.CLOSED_FORM
    exact = True
    description = "closed forms (exhaustive XOR/AND, one example, symmetric Boolean, digit sums, joint)"

    def count(
        self,
        problem: CountProblem,
        settings: CountSettings,
        progress: Progress | None = None,
        budget: Budget = UNBOUNDED,
    ) -> CountResult:
        """The count by the first closed form that applies; Unsuited with every reason otherwise."""
        start = time.perf_counter()
        form = closed_form(problem.task, problem.mode)
        details = {"closed_form": form.name, "formula": form.formula, "expression": form.expression}
        return CountResult(form.count, True, self.method, time.perf_counter() - start, details=details)
