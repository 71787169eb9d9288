"""ProbLog / DeepProbLog programs (`program:`, `query:`): lines that loop, recurse, call the shell,
read files, fail to parse; queries that are not atoms; run by `count`, `check` and `explain`."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from strategies.hostile.cases import COUNTING, Case
from strategies.hostile.values import LONG, raw_transform, to_yaml

PROGRAM_LINES = [
    "nn(net, [X], Y, [0, 1, 2]) :: digit(X, Y).",
    "addition(X, Y, Z) :- digit(X, X2), digit(Y, Y2), Z is X2 + Y2.",
    "0.5::a. 0.5::b.",
    "0.5::c(red); 0.5::c(blue).",
    "q :- a, \\+ b.",
    "q :- c(red).",
    "q :- q.",
    "p(X) :- p(X).",
    ":- initialization(main).",
    ":- use_module(library(lists)).",
    ":- use_module('/etc/passwd').",
    "q :- call(a).",
    "q :- X.",
    "q :- shell('rm -rf /').",
    "q :- consult('/etc/passwd').",
    "q :- open('x', write, S), write(S, a).",
    "q :- assertz(a).",
    "q :- findall(X, digit(X, _), L), length(L, N), N > 1.",
    "evidence(a, true).",
    "query(q).",
    "t(_)::a.",
    "nn(net, [X], Y) :: digit(X, Y).",
    "1.5::a.",
    "0.7::d(X) :- between(1, 1000000, X).",
    "q :- between(1, 100000000, X), X < 0.",
    "deep(N) :- N > 0, M is N - 1, deep(M).",
    "q :- deep(100000).",
    "q :- (a ; b) -> c(red) ; c(blue).",
    "q(",
    ")).",
    "0.5::",
    LONG,
    "\x00",
    "é :- a.",
]
QUERIES = [
    "q",
    "addition(a, b, Z)",
    "[q, q]",
    "p(X)",
    "undefined",
    "q).",
    "X",
    "'q'",
    "q :- a",
    LONG,
    "[]",
    "{}",
]


@st.composite
def program_cases(draw: st.DrawFn) -> Case:
    lines = draw(st.lists(st.sampled_from(PROGRAM_LINES), min_size=0, max_size=8))
    text = "\n".join(lines).encode()
    if draw(st.booleans()):
        text = draw(raw_transform(text))
    task: dict[str, Any] = {"program": "k.pl", "support": "exhaustive"}
    if draw(st.booleans()):
        task["query"] = draw(st.sampled_from(QUERIES))
    if draw(st.booleans()):
        task["mode"] = draw(st.sampled_from(["objects", "disentangled", "jrs"]))
    command = draw(st.sampled_from(["count", "check", "explain"]))
    return Case({"task.yaml": to_yaml(task), "k.pl": text}, [command, "task.yaml", *COUNTING])
