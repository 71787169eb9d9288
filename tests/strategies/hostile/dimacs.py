"""DIMACS files: headers, clauses and comment lines wrong in every way (huge numbers, bad tokens,
missing terminators, projection lines), damaged as whole files; run by `cnf`, `count` and `check`,
alone or as a label's knowledge."""

from __future__ import annotations

from hypothesis import strategies as st

from strategies.hostile.cases import COUNTING, Case
from strategies.hostile.values import LONG, raw_transform, to_yaml

HUGE = [10**5, 99999999999, 2**31, 2**63, 2**64, 10**30, -1, -(2**63)]
BAD_TOKENS = ["x", "1.5", "--1", "+1", "1_0", "0x1", "²", "١", "1e3", "-", "", "\x00", "nan", "inf", "٣"]
literal = st.one_of(st.integers(-6, 6), st.sampled_from(HUGE).map(lambda v: v * (-1) ** (v % 2)))


@st.composite
def dimacs_text(draw: st.DrawFn) -> bytes:
    n = draw(st.one_of(st.integers(0, 6), st.sampled_from(HUGE)))
    clauses = draw(st.lists(st.lists(literal, max_size=5), max_size=6))
    m = draw(st.one_of(st.just(len(clauses)), st.integers(-1, 8), st.sampled_from(HUGE)))
    header = draw(
        st.sampled_from(
            [
                f"p cnf {n} {m}",
                f"p cnf {n} {m}",
                f"p cnf {n} {m}",
                "p cnf",
                f"p cnf {n}",
                f"p dnf {n} {m}",
                f"p cnf {n} {m} 7",
                f"p  cnf\t{n}  {m}",
                "p cnf x y",
                f"P CNF {n} {m}",
                "",
                f"p cnf {n:x} {m}",
                f"p wcnf {n} {m}",
                f"p cnf {n} {m}\np cnf {n} {m}",
            ]
        )
    )
    lines = [header]
    for clause in clauses:
        tokens = [str(v) for v in clause]
        if draw(st.integers(0, 5)) == 0:
            tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(BAD_TOKENS)))
        if draw(st.integers(0, 6)) != 0:
            tokens.append("0")
        lines.append(" ".join(tokens))
    for _ in range(draw(st.integers(0, 3))):
        extra = draw(
            st.sampled_from(
                [
                    "c hello",
                    "c p show 1 2 0",
                    "c p show 99 0",
                    "c p show x 0",
                    "c ind 1 0",
                    "c ind 1",
                    "c var 1 = a",
                    "c var 99999 = b",
                    "c var x = y",
                    "%",
                    "0",
                    "c " + LONG,
                    "1 " * 5000 + "0",
                    "",
                    "   ",
                    "\t",
                    "1 -1 0",
                    "0 0 0",
                    "p",
                    "c",
                    "cc",
                ]
            )
        )
        lines.insert(draw(st.integers(0, len(lines))), extra)
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    return draw(raw_transform(text.encode("utf-8")))


@st.composite
def dimacs_cases(draw: st.DrawFn) -> Case:
    cnf = draw(dimacs_text())
    how = draw(st.sampled_from(["cnf", "cnf", "count", "check", "label"]))
    if how == "label":
        task = to_yaml(
            {"concepts": {"c1": [0, 1], "c2": [0, 1], "c3": [0, 1]}, "labels": {"y": {"dimacs": "k.cnf"}}}
        )
        command = draw(st.sampled_from(["count", "check"]))
        return Case({"task.yaml": task, "k.cnf": cnf}, [command, "task.yaml", *COUNTING])
    name = draw(st.sampled_from(["k.cnf", "k.cnf", "k.dimacs", "k.txt"]))
    return Case({name: cnf}, [how, name, *COUNTING])
