"""The restricted expression parser: it never runs code, and it means what sympy means."""

from __future__ import annotations

import itertools

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from rscount.errors import RscountError
from rscount.task.compiled import compiled
from rscount.task.expressions import Expr, call, const, evaluate, parse, var

NAMES = ["a", "b", "c"]


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch /tmp/rscount-pwned')",
        "a.__class__",
        "(lambda: 1)()",
        "[a, b][0]",
        "open('/etc/passwd')",
        "eval('1')",
        "a if b else __import__('os')",
        "{a: b}",
        "a / b",
        "Xor(a, b, key=1)",
    ],
)
def test_code_and_unsupported_syntax_are_refused(text, tmp_path):
    with pytest.raises(RscountError) as info:
        parse(text, NAMES, where="labels.y")
    assert str(info.value).startswith("labels.y: ")


def test_refused_expression_has_no_side_effect(tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises(RscountError):
        parse(f"__import__('os').system('touch {marker}')", NAMES)
    assert not marker.exists()


def test_syntax_errors_name_the_field():
    with pytest.raises(RscountError, match=r"labels.y: syntax error"):
        parse("And(a, ", NAMES, where="labels.y")


SYMPY_FORMULAS = [
    "a & b | ~c",
    "Xor(a, b, c)",
    "a ^ b ^ c",
    "a >> b",
    "Implies(a, Or(b, c))",
    "Equivalent(a, b, c)",
    "Not(And(a, b)) | c",
    "ITE(a, b, c)",
    "(a | b) & (~a | c) & (b | ~c)",
]


@pytest.mark.parametrize("text", SYMPY_FORMULAS)
def test_boolean_formulas_mean_what_sympy_means(text):
    expr = parse(text, NAMES)
    symbols = sympy.symbols(NAMES)
    # trusted test input; '^' is Xor as in sympy's printer and operators (sympify's default is **)
    reference = sympy.sympify(text, locals=dict(zip(NAMES, symbols)), convert_xor=False)
    for values in itertools.product([0, 1], repeat=3):
        expected = bool(reference.subs(dict(zip(symbols, map(bool, values)))))
        assert evaluate(expr, dict(zip(NAMES, values))) == int(expected), values


ARITHMETIC = [
    ("a + b * c", lambda a, b, c: a + b * c),
    ("Eq(a + b, c)", lambda a, b, c: int(a + b == c)),
    ("(a + b) % 3 == c", lambda a, b, c: int((a + b) % 3 == c)),
    ("a - b < c <= 2", lambda a, b, c: int(a - b < c <= 2)),
    ("Max(a, b) - Min(b, c)", lambda a, b, c: max(a, b) - min(b, c)),
    ("Abs(a - c) // 2", lambda a, b, c: abs(a - c) // 2),
]


@pytest.mark.parametrize(("text", "fn"), ARITHMETIC)
def test_arithmetic_follows_integer_semantics(text, fn):
    expr = parse(text, NAMES)
    for values in itertools.product(range(4), repeat=3):
        assert evaluate(expr, dict(zip(NAMES, values))) == fn(*values)


def test_bare_domain_values_are_constants_and_concepts_win_over_values():
    expr = parse("Eq(colour, red)", ["colour"], values=["red", "blue"])
    assert evaluate(expr, {"colour": "red"}) == 1
    assert evaluate(expr, {"colour": "blue"}) == 0
    assert parse("red", ["red"], values=["red"]).op == "var"


def _expressions(depth: int) -> st.SearchStrategy[Expr]:
    """Random expressions over concepts a (0/1), b (0/1), d (0..2) and w (words): every operator a
    search may compile, with operands that may raise (a digit under a connective, a word in a sum)."""
    leaves = st.sampled_from(
        [var("a"), var("b"), var("d"), var("w"), const(0), const(1), const(2), const("x")]
    )
    if depth == 0:
        return leaves
    sub = _expressions(depth - 1)
    nary = st.tuples(st.sampled_from(["And", "Or", "Add", "Mul"]), st.lists(sub, min_size=2, max_size=4))
    unary = st.tuples(st.sampled_from(["Not", "Neg"]), st.lists(sub, min_size=1, max_size=1))
    binary = st.tuples(
        st.sampled_from(["Eq", "Ne", "Lt", "FloorDiv", "Mod", "Implies", "Sub"]),
        st.lists(sub, min_size=2, max_size=2),
    )
    return leaves | st.builds(lambda op_args: call(op_args[0], *op_args[1]), nary | unary | binary)


def _outcome(fn, assignment):
    try:
        return "value", fn(assignment)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
        return "error", type(exc)


@settings(max_examples=300, deadline=None)
@given(_expressions(3))
def test_a_compiled_expression_gives_every_assignment_what_evaluate_gives_it_errors_included(expr):
    for a, b, d, w in itertools.product((0, 1), (0, 1), (0, 1, 2), ("x", "y")):
        assignment = {"a": a, "b": b, "d": d, "w": w}
        assert _outcome(compiled(expr), assignment) == _outcome(lambda x: evaluate(expr, x), assignment)


def test_a_conjunction_of_inequalities_stops_at_its_first_false_operand():
    seen = []

    class Watched(dict):
        def __getitem__(self, key):
            seen.append(key)
            return super().__getitem__(key)

    conjunction = call("And", call("Ne", var("a"), var("b")), call("And", call("Ne", var("b"), var("d"))))
    assert compiled(conjunction)(Watched(a=1, b=1, d=2)) == 0
    assert seen == ["a", "b"]
