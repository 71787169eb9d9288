"""Expressions of labels and knowledge: structured trees of operators and functions (those rscount
allows and others), token soup, fixed hostile ones (code, dunder access, huge powers and shifts,
wrong arities) and very long ones; run by `count` or `check`."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from strategies.hostile.cases import COUNTING, MARKER, Case
from strategies.hostile.values import to_yaml

EXPR_NAMES = ["c0", "c1", "c2", "c3", "c4", "d", "col", "red", "green", "x", "True", "False", "None", "y"]
EXPR_FUNCS = [
    "And",
    "Or",
    "Not",
    "Xor",
    "Implies",
    "Equivalent",
    "ITE",
    "Eq",
    "Ne",
    "Lt",
    "Le",
    "Gt",
    "Ge",
    "Min",
    "Max",
    "Abs",
    "Add",
    "Mul",
    "Pow",
    "Sum",
    "Symbol",
    "print",
    "eval",
    "exec",
    "open",
    "getattr",
    "__import__",
    "type",
    "globals",
]
EXPR_BINARY = [
    "&",
    "|",
    "^",
    ">>",
    "<<",
    "+",
    "-",
    "*",
    "**",
    "//",
    "%",
    "/",
    "@",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "and",
    "or",
    "in",
    "is",
    "is not",
    "not in",
]
EXPR_UNARY = ["~", "-", "+", "not "]
EXPR_LEAVES = [
    "0",
    "1",
    "2",
    "-1",
    "10**30",
    "99999999",
    "1.5",
    "1e308",
    "'red'",
    "''",
    "0x10",
    "1_0",
    "1j",
    "'x' * 3",
    "...",
    "b'x'",
]
EXPR_TOKENS = (
    EXPR_NAMES
    + EXPR_FUNCS
    + EXPR_BINARY
    + EXPR_UNARY
    + EXPR_LEAVES
    + [
        "(",
        ")",
        ",",
        ".",
        "[",
        "]",
        "{",
        "}",
        ":",
        "lambda",
        "if",
        "else",
        "=",
        ":=",
        ";",
        "\n",
        "#",
        "\\",
        "__class__",
        "__dict__",
        "__globals__",
        "'",
        '"',
        "`",
        "$",
        "\x00",
        "é",
        "²",
    ]
)

expr_leaf = st.sampled_from(EXPR_NAMES + EXPR_LEAVES) | st.integers(-5, 5).map(str)


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(st.sampled_from(EXPR_UNARY), children).map(lambda t: f"{t[0]}{t[1]}"),
        st.tuples(children, st.sampled_from(EXPR_BINARY), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(EXPR_FUNCS), st.lists(children, max_size=4)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
    )


HOSTILE_EXPRESSIONS = [
    f"__import__('os').system('touch {MARKER}')",
    f"open('{MARKER}', 'w')",
    f"exec(\"open('{MARKER}', 'w')\")",
    f"eval(\"__import__('os').system('touch {MARKER}')\")",
    "c0.__class__",
    "c0.__class__.__bases__[0].__subclasses__()",
    "().__class__.__base__.__subclasses__()",
    "(lambda: 1)()",
    "lambda x: x",
    "[c0 for c0 in ()]",
    "c0 if c1 else c2",
    "(x := 1)",
    "f'{c0}'",
    "c0[0]",
    "{c0: 1}",
    "{c0}",
    "[c0]",
    "(c0,)",
    "...",
    "c0; c1",
    "c0\nc1",
    "# comment",
    "",
    " ",
    "Or(*[c0, c1])",
    "Or(**{})",
    "And(c0, b=c1)",
    "Max()",
    "Min()",
    "Min(-5)",
    "Max(d)",
    "ITE(c0)",
    "ITE(c0, c1, c2, c3)",
    "ITE(d, c1, c2)",
    "Abs(c0, c1)",
    "Not()",
    "Not(c0, c1)",
    "Implies(c0)",
    "Equivalent()",
    "Xor()",
    "d // 0",
    "d % 0",
    "d // (d - d)",
    "d ** -1",
    "(d - 4) ** -2 == 0",
    "2 ** 2 ** 2 ** 2 ** 2",
    "9 ** 9 ** 9",
    "10 ** 10 ** 10",
    "(d + 2) ** 99999999",
    "(d + 2) ** 99999999 == 0",
    "d ** d ** d ** d ** d",
    "-(10 ** 30)",
    "d * 10 ** 30 == 0",
    "1" * 5000,
    "d == " + "1" * 4301,
    "col + 1",
    "col == 'red'",
    "col == red",
    "col < red",
    "d / 2",
    "Abs(col)",
    "Min(d, col)",
    "'x' * 10 ** 9",
    "Eq(c0)",
    "Eq(c0, c1, c2)",
    "c0 == c1 == c2",
    "1 < d < 3",
    "not c0",
    "c0 and c1",
    "True",
    "None",
    "1.5",
    "1e308 == d",
    "c0 @ c1",
    "\x00",
    "c0 \\\n | c1",
    "((((",
    "))",
    "__builtins__",
    "__class__",
    "c0.real",
    "globals()",
    "breakpoint()",
    "input()",
    "c0 is c1",
    "c0 in (c1,)",
    "Symbol('c0')",
    "y",
    "y & c0",
    "c0 << 1000000000",
    "1 << 10 ** 9",
    "d << 99999999999",
]


@st.composite
def expressions(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["structured", "structured", "soup", "fixed", "fixed", "long"]))
    if kind == "structured":
        return draw(st.recursive(expr_leaf, _extend, max_leaves=25))
    if kind == "soup":
        sep = draw(st.sampled_from([" ", ""]))
        return sep.join(draw(st.lists(st.sampled_from(EXPR_TOKENS), max_size=30)))
    if kind == "fixed":
        return draw(st.sampled_from(HOSTILE_EXPRESSIONS))
    n = draw(st.integers(1, 20_000))
    form = draw(
        st.sampled_from(["not", "chain", "parens", "Not", "xor", "and", "sum", "product", "max", "pow"])
    )
    chain = [f"c{i % 5}" for i in range(n)]
    return {
        "not": lambda: "~" * n + "c0",
        "chain": lambda: " | ".join(chain),
        "parens": lambda: "(" * n + "c0" + ")" * n,
        "Not": lambda: "Not(" * n + "c0" + ")" * n,
        "xor": lambda: "Xor(" + ", ".join(chain) + ")",
        "and": lambda: "And(" + ", ".join(chain) + ")",
        "sum": lambda: " + ".join(["d"] * n) + " == 3",
        "product": lambda: " * ".join(["d"] * n) + " == 0",
        "max": lambda: "Max(" + ", ".join(["d"] * n) + ")",
        "pow": lambda: f"(d + 2) ** {n * 10_000}",
    }[form]()


EXPR_CONCEPTS = {**{f"c{i}": [0, 1] for i in range(5)}, "d": [0, 1, 2, 3], "col": ["red", "green", "blue"]}


@st.composite
def expression_cases(draw: st.DrawFn) -> Case:
    expr = draw(expressions())
    where = draw(st.sampled_from(["label", "label", "knowledge", "second label"]))
    data: dict[str, Any] = {"concepts": EXPR_CONCEPTS}
    if where == "label":
        data["labels"] = {"y": expr}
    elif where == "second label":
        data["labels"] = {"y": "c0 & c1", "z": expr}
    else:
        data["labels"] = {"y": [0, 1]}
        data["knowledge"] = [f"Equivalent(y, {expr})" if draw(st.booleans()) else expr]
    data["support"] = draw(st.sampled_from(["exhaustive", {"examples": 4, "seed": 1}]))
    command = draw(st.sampled_from(["count", "check"]))
    return Case({"expr.yaml": to_yaml(data)}, [command, "expr.yaml", *COUNTING])
