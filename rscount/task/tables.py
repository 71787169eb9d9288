"""Supports from a training pipeline's own concept annotations in Python: a numpy array (n examples
x k concepts, in concept order) or a pandas DataFrame (a column per concept, other columns ignored),
holding values or, with `indices`, value positions; checked like annotation files."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import TaskError, quote
from ..limits import ROWS


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds; an integral float (pandas turns integer columns
    with gaps into floats) as an int."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def table_rows(
    data: Any, names: Sequence[str], domains: Sequence[Sequence[Any]], indices: bool = False
) -> list[list[Any]]:
    """The rows of `data` in concept order, as values (positions mapped through the domains when
    `indices`); errors name the row (from 0) and the concept."""
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):  # a pandas DataFrame
        missing = [n for n in names if n not in data.columns]
        if missing:
            shown = ", ".join(map(str, list(data.columns)[:10]))
            raise TaskError("support", f"no column for concept {quote(missing[0])} (columns: {shown})")
        matrix = data[list(names)].to_numpy(dtype=object)
    else:
        matrix = np.asarray(data, dtype=object)
    if matrix.ndim != 2 or matrix.shape[1] != len(names):
        shape = "x".join(map(str, matrix.shape))
        expected = f"an array of examples x {len(names)} concepts"
        raise TaskError("support", f"expected {expected}, got shape {shape}")
    ROWS.check(matrix.shape[0], "support")
    rows = []
    for n, raw in enumerate(matrix.tolist()):
        row = []
        for name, domain, cell in zip(names, domains, raw):
            value = _plain(cell)
            if value is None or (isinstance(value, float) and math.isnan(value)):
                raise TaskError(f"support[{n}]", f"no value for concept {quote(name)}")
            if indices:
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(domain):
                    top = len(domain) - 1
                    raise TaskError(f"support[{n}]", f"index {quote(value)} of {name} is not in 0..{top}")
                value = domain[value]
            row.append(value)
        rows.append(row)
    return rows
