"""Reference labels for the program tasks of the library (tasks/ with `program:` from public examples),
written from each task's description in Python, with no logic engine and no rscount import: the
concepts (names and values in the order the query reaches them) and a label function of a concept
vector in that order. tests/task/test_program_corpus.py checks that rscount reads each program into
these concepts, labels the support alike, and counts what a brute force over these labels counts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

DIGITS = tuple(range(10))
BOOL = (0, 1)


@dataclass(frozen=True)
class Reference:
    """A program task's concepts (name, values) and its label function over a concept vector."""

    concepts: tuple[tuple[str, tuple[Any, ...]], ...]
    label: Callable[[tuple[Any, ...]], Any]


def _digits(*names: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple((f"digit_{n}", DIGITS) for n in names)


def _number_sum(n: int) -> Callable[[tuple[int, ...]], int]:
    """Two n-digit numbers (most significant digit first) added."""

    def label(c: tuple[int, ...]) -> int:
        return sum(10 ** (n - 1 - i) * (c[i] + c[n + i]) for i in range(n))

    return label


def _multi(n: int, digits: tuple[int, ...]) -> Reference:
    names = [f"a{i + 1}" for i in range(n)] + [f"b{i + 1}" for i in range(n)]
    return Reference(tuple((f"digit_{x}", digits) for x in names), _number_sum(n))


RANKS = ("jack", "queen", "king", "ace")


def _strength(hand: tuple[str, ...]) -> int:
    """A three-card hand's strength: high card 0-3, pair 4-7, three of a kind 8-11, straight J-Q-K 12,
    straight Q-K-A 13."""
    idx = [RANKS.index(r) for r in hand]
    best = max(idx)
    for r in set(idx):
        if idx.count(r) >= 2:
            best = max(best, 4 + r)
        if idx.count(r) == 3:
            best = max(best, 8 + r)
    if {0, 1, 2} <= set(idx):
        best = max(best, 12)
    if {1, 2, 3} <= set(idx):
        best = max(best, 13)
    return best


def _poker(c: tuple[str, ...]) -> str:
    house, r0, r1, r2, r3 = c
    mine, theirs = _strength((r0, r1, house)), _strength((r2, r3, house))
    return "win" if mine > theirs else "loss" if mine < theirs else "draw"


def _formula(symbols: tuple[Any, ...]) -> Fraction | None:
    """A handwritten formula's exact value (* and / before + and -), None on a division by zero."""
    terms: list[list[Any]] = [[symbols[0]]]
    signs = ["+"]
    for op, n in zip(symbols[1::2], symbols[2::2]):
        if op in "+-":
            terms.append([n])
            signs.append(op)
        else:
            terms[-1] += [op, n]
    total = Fraction(0)
    for sign, term in zip(signs, terms):
        value = Fraction(term[0])
        for op, n in zip(term[1::2], term[2::2]):
            if op == "*":
                value *= n
            elif n == 0:
                return None
            else:
                value /= n
        total += value if sign == "+" else -value
    return total


def _formula_concepts(ops: tuple[str, ...]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    return (("digit_sym_x1", DIGITS), ("op_sym_x2", ops), ("digit_sym_x3", DIGITS))


DECISIONS = ("no_swap", "swap")
SORT_PAIRS = (("a", "b"), ("b", "c"), ("a", "c"), ("b", "a"))


def _bubble_sorted(c: tuple[str, ...]) -> tuple[str, ...]:
    """[a, b, c] bubble-sorted with the swap decisions of c: each pass carries the larger item on."""
    decide = dict(zip(SORT_PAIRS, c))
    items, done = ["a", "b", "c"], []
    while items:
        front, carried = [], items[0]
        for nxt in items[1:]:
            if decide[carried, nxt] == "swap":
                front.append(nxt)
            else:
                front.append(carried)
                carried = nxt
        done.insert(0, carried)
        items = front
    return tuple(done)


def _column_addition(c: tuple[int, ...]) -> tuple[int, int, int]:
    """[carry, d1, d2] of two two-digit numbers from the networks' column digits and carries."""
    d2, c2, d1_0, c1_0, d1_1, c1_1 = c
    d1, carry = (d1_1, c1_1) if c2 else (d1_0, c1_0)
    return (carry, d1, d2)


FACES = ("one", "two", "three", "four", "five", "six")
# burglary and earthquake are labels too, so their concepts take a suffix; the choices of alarm's
# three probabilistic clauses are alarm, alarm_2, alarm_3 (rscount's names, in program order)
ALARM = ("burglary_2", "earthquake_2", "alarm", "alarm_2", "alarm_3", "hears_john", "hears_mary")


def _alarm(c: tuple[int, ...]) -> tuple[Any, ...]:
    """(burglary, earthquake) where John calls and Mary does not (the evidence), else no answer."""
    b, e, r1, r2, r3, hears_john, hears_mary = c
    alarm = bool(b and e and r1 or b and not e and r2 or not b and e and r3)
    return (b, e) if alarm and hears_john and not hears_mary else ("no answer",)


WEATHER = ("sunny", "cloudy", "rainy")
TURNS = {
    "sunny": ("sunny", "cloudy", "rainy"),
    "rainy": ("rainy", "sunny", "cloudy"),
    "cloudy": ("cloudy", "rainy", "sunny"),
}
# the choice of each day after each weather: (day, weather before) -> position in the concept vector
AFTER = {
    (day, before): 1 + 3 * (day - 1) + n
    for day in (1, 2)
    for n, before in enumerate(("sunny", "rainy", "cloudy"))
}


def _weather_on_day_2(c: tuple[str, ...]) -> str:
    day_1 = c[AFTER[1, c[0]]]
    return c[AFTER[2, day_1]]


REFERENCES: dict[str, Reference] = {
    "mnadd-n1": _multi(1, DIGITS),
    "mnadd-n2": _multi(2, DIGITS),
    "mnadd-n3-d3": _multi(3, (0, 1, 2)),
    "mnadd-n4-d2": _multi(4, (0, 1)),
    "noisy-addition": Reference(
        (("noisy", BOOL), ("drawn_a_b", tuple(range(19))), *_digits("a", "b")),
        lambda c: c[1] if c[0] else c[2] + c[3],
    ),
    "any-sum": Reference(_digits(*"abcd"), lambda c: frozenset({c[0] + c[1], c[2] + c[3]})),
    "all-digit-addition": Reference(_digits(*"abc"), lambda c: c[2] == c[0] + c[1]),
    "digit-list-sum": Reference(_digits(*"abcd"), sum),
    "coins": Reference(
        (("coin_1_x", ("heads", "tails")), ("coin_2_x", ("heads", "tails"))),
        lambda c: "win" if c[0] == c[1] else "loss",
    ),
    "poker": Reference((("house", RANKS), *((f"rank_c{i}", RANKS) for i in range(4))), _poker),
    "hwf3": Reference(_formula_concepts(("+", "-", "*", "/")), _formula),
    "hwf3-nodiv": Reference(_formula_concepts(("+", "-", "*")), _formula),
    "forth-add": Reference(
        tuple(
            (f"{kind}_{column}", values)
            for column in ("a2_b2_0", "a1_b1_0", "a1_b1_1")
            for kind, values in (("result_digit", DIGITS), ("carry_out", BOOL))
        ),
        _column_addition,
    ),
    "forth-sort": Reference(tuple((f"swap_{x}_{y}", DECISIONS) for x, y in SORT_PAIRS), _bubble_sorted),
    "dice": Reference(
        (
            ("one_a_to_six_a", tuple(f"{f}_a" for f in FACES)),
            ("one_b_to_six_b", tuple(f"{f}_b" for f in FACES)),
        ),
        lambda c: (c[0] == "six_a" and c[1] == "six_b", c[0] == "six_a" or c[1] == "six_b"),
    ),
    "alarm": Reference(tuple((name, BOOL) for name in ALARM), _alarm),
    "markov-chain": Reference(
        (
            ("weather_0", WEATHER),
            *(
                (f"weather_{day}{suffix}", TURNS[before])
                for day in (1, 2)
                for suffix, before in (("", "sunny"), ("_2", "rainy"), ("_3", "cloudy"))
            ),
        ),
        _weather_on_day_2,
    ),
    "neurasp-add2x2": Reference(
        tuple((f"digit_{k}_i", DIGITS) for k in range(4)),
        lambda c: (c[0] + c[1], c[2] + c[3], c[0] + c[2], c[1] + c[3]),
    ),
    "neurasp-member3": Reference(tuple((f"digit_i{k}", DIGITS) for k in (1, 2, 3)), lambda c: frozenset(c)),
}
