"""Knowledge expressions in sympy syntax, parsed without evaluating any Python.

Task files come from other people, so expressions go through a whitelist over Python's `ast`
(never `sympify`/`eval`): names, integer/string constants, logic, arithmetic and comparisons.
The same operator table serves evaluation and (in `rscount.knowledge.circuit`) compilation.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence, ValuesView
from dataclasses import dataclass
from functools import reduce
from typing import Any

from ..errors import TaskError, quote
from ..limits import DEPTH, POWER_BITS

MAX_EXPRESSION_CHARS = 100_000


def normalise(value: Any) -> Any:
    """Booleans are the integers 0/1 everywhere (labels, domains, expression values)."""
    return int(value) if isinstance(value, bool) else value


@dataclass(frozen=True)
class Expr:
    """A node: `op` is 'var' (args = (name,)), 'const' (args = (value,)) or an operator name."""

    op: str
    args: tuple[Any, ...]

    def __str__(self) -> str:
        if self.op == "var":
            return str(self.args[0])
        if self.op == "const":
            return repr(self.args[0]) if isinstance(self.args[0], str) else str(self.args[0])
        return f"{self.op}({', '.join(str(a) for a in self.args)})"


def interned(exprs: dict[str, Expr]) -> dict[str, Expr]:
    """The same expressions with structurally equal subexpressions as one object, so that a memo
    keyed by node identity (rscount.knowledge.circuit.compile_expr) compiles them once for all
    labels: SDD-OIA's `forward` contains `stop`."""
    table: dict[tuple[Any, ...], Expr] = {}
    done: dict[int, tuple[Expr, Expr]] = {}  # by node identity: (node, its interned twin), DAGs once

    def intern(e: Expr) -> Expr:
        if id(e) in done:
            return done[id(e)][1]
        args = tuple(intern(a) if isinstance(a, Expr) else a for a in e.args)
        key = (e.op, tuple(id(a) if isinstance(a, Expr) else (type(a), a) for a in args))
        found = table.setdefault(key, Expr(e.op, args))
        done[id(e)] = (e, found)  # e kept alive, so that its id is not reused
        return found

    return {name: intern(e) for name, e in exprs.items()}


def var(name: str) -> Expr:
    """A concept reference."""
    return Expr("var", (name,))


class LookupTable(Mapping[tuple[Any, ...], Any]):
    """A label given as a table (a program rscount cannot read as formulas, e.g. answer-set
    programs): concept values -> label value, immutable and hashable, so that it can be a constant.
    `domains`, when given, says that the table lists every vector of those domains in product order
    (first most significant), so that arrays may read it by position."""

    def __init__(
        self, table: Mapping[tuple[Any, ...], Any], domains: Sequence[Sequence[Any]] | None = None
    ) -> None:
        self._table = dict(table)
        self._hash: int | None = None  # on first use: a program's table has 10^5 entries
        self.domains = None if domains is None else tuple(tuple(d) for d in domains)

    def __getitem__(self, key: tuple[Any, ...]) -> Any:
        return self._table[key]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._table)

    def values(self) -> ValuesView[Any]:
        """The entries' values in the table's order (the dict's own view: a program's table has 10^5)."""
        return self._table.values()

    def __len__(self) -> int:
        return len(self._table)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._table.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LookupTable) and self._table == other._table

    def __repr__(self) -> str:
        return f"<table of {len(self._table)} entries>"


def _lookup(*args: Any) -> Any:
    """The value a LookupTable (the last argument) gives the other arguments."""
    return args[-1][tuple(args[:-1])]


def const(value: Any) -> Expr:
    """A constant value (int or string; booleans become 0/1)."""
    return Expr("const", (int(value) if isinstance(value, bool) else value,))


def call(op: str, *args: Expr) -> Expr:
    """An operator applied to sub-expressions."""
    return Expr(op, tuple(args))


def _truth(x: Any) -> bool:
    if x not in (0, 1):
        raise TypeError(f"a logical operator got the non-Boolean value {x!r}")
    return bool(x)


def _xor(*a: Any) -> int:
    return sum(_truth(x) for x in a) % 2


def _floordiv(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError("modulo by zero")
    return a % b


def _pow(a: int, b: int) -> int:
    """a ** b for a whole exponent, refused (OverflowError) before computing a result of more bits
    than the POWER_BITS cap: `(c + 2) ** 99999999` would take minutes and gigabytes."""
    if not isinstance(b, int) or b < 0:
        raise ValueError(f"the exponent {quote(b)} is not a whole number >= 0")
    if isinstance(a, int) and abs(a) > 1 and b * (abs(a).bit_length() - 1) > POWER_BITS.value:
        raise OverflowError(
            f"{quote(a)} ** {quote(b)} has over {POWER_BITS.value} bits "
            f"(set {POWER_BITS.variable} to raise the cap)"
        )
    return a**b  # type: ignore[no-any-return]


# Logic operators take and return 0/1; every operator here is total on its declared inputs.
LOGIC_OPS: dict[str, Callable[..., int]] = {
    "And": lambda *a: int(all([_truth(x) for x in a])),
    "Or": lambda *a: int(any([_truth(x) for x in a])),
    "Not": lambda a: int(not _truth(a)),
    "Xor": _xor,
    "Implies": lambda a, b: int((not _truth(a)) or _truth(b)),
    "Equivalent": lambda *a: int(len({_truth(x) for x in a}) <= 1),
}
VALUE_OPS: dict[str, Callable[..., Any]] = {
    "Add": lambda *a: reduce(operator.add, a),
    "Sub": operator.sub,
    "Mul": lambda *a: reduce(operator.mul, a),
    "FloorDiv": _floordiv,
    "Mod": _mod,
    "Pow": _pow,
    "Neg": operator.neg,
    "Abs": abs,
    "Min": lambda *a: min(a),
    "Max": lambda *a: max(a),
    "Eq": lambda a, b: int(a == b),
    "Ne": lambda a, b: int(a != b),
    "Lt": lambda a, b: int(a < b),
    "Le": lambda a, b: int(a <= b),
    "Gt": lambda a, b: int(a > b),
    "Ge": lambda a, b: int(a >= b),
    "ITE": lambda c, a, b: a if _truth(c) else b,
    "Lookup": _lookup,
}
OPS: dict[str, Callable[..., Any]] = {**LOGIC_OPS, **VALUE_OPS}
ARITY: dict[str, tuple[int, int | None]] = {
    "Not": (1, 1),
    "Implies": (2, 2),
    "Sub": (2, 2),
    "FloorDiv": (2, 2),
    "Mod": (2, 2),
    "Pow": (2, 2),
    "Neg": (1, 1),
    "Abs": (1, 1),
    "Eq": (2, 2),
    "Ne": (2, 2),
    "Lt": (2, 2),
    "Le": (2, 2),
    "Gt": (2, 2),
    "Ge": (2, 2),
    "ITE": (3, 3),
}

_BINOPS = {
    ast.BitAnd: "And",
    ast.BitOr: "Or",
    ast.BitXor: "Xor",
    ast.RShift: "Implies",
    ast.Add: "Add",
    ast.Sub: "Sub",
    ast.Mult: "Mul",
    ast.FloorDiv: "FloorDiv",
    ast.Mod: "Mod",
    ast.Pow: "Pow",
}
_CMPOPS = {ast.Eq: "Eq", ast.NotEq: "Ne", ast.Lt: "Lt", ast.LtE: "Le", ast.Gt: "Gt", ast.GtE: "Ge"}
_BOOLOPS = {ast.And: "And", ast.Or: "Or"}
_CHAINS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.Add, ast.Mult)  # associative: `a | b | c` is one Or
_CONSTANT_NAMES = {"True": 1, "False": 0, "true": 1, "false": 0}


def parse(
    text: object, concepts: Sequence[str], values: Sequence[Any] = (), where: str = "expression"
) -> Expr:
    """Parse `text` into an Expr over `concepts`; bare names that are domain `values` become constants.

    Raises TaskError naming `where` for syntax errors, unknown names and anything that is not
    plain logic or arithmetic (attribute access, subscripts, lambdas, unknown functions, ...).
    """
    if not isinstance(text, str):
        if isinstance(text, bool | int):
            return const(text)
        raise TaskError(where, f"expected an expression string, got {type(text).__name__}")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise TaskError(where, f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise TaskError(where, f"syntax error in {quote(text)} at column {exc.offset}") from None
    except (MemoryError, RecursionError):  # CPython's parser gives up on deep nesting this way
        raise TaskError(where, f"expression nested too deeply for Python's parser: {quote(text)}") from None
    try:
        return _Builder(text.strip(), concepts, values, where).build(tree.body)
    except RecursionError:
        raise TaskError(where, f"expression nested deeper than {DEPTH.value} levels") from None


class _Builder:
    """Turns the whitelisted nodes of a Python expression tree into an Expr; anything else is a
    TaskError quoting the offending part of the source."""

    def __init__(self, source: str, concepts: Sequence[str], values: Sequence[Any], where: str) -> None:
        self.source = source
        self.concepts = set(concepts)
        self.values = {str(v): v for v in values if isinstance(v, str)}
        self.where = where
        self.depth = 0

    def refuse(self, node: ast.AST, why: str) -> TaskError:
        """The error for `node`, quoting its source."""
        snippet = ast.get_source_segment(self.source, node) or type(node).__name__
        return TaskError(self.where, f"{why}: {quote(snippet)}")

    def build(self, node: ast.AST) -> Expr:
        """The Expr of a node, at most DEPTH levels deep (evaluation and compilation recurse)."""
        self.depth += 1
        try:
            DEPTH.check(self.depth, self.where)
            return self.node(node)
        finally:
            self.depth -= 1

    def node(self, node: ast.AST) -> Expr:
        """The Expr of a node (names, constants, operators, comparisons, if-else, calls)."""
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool | int | str):
                return const(node.value)
            raise self.refuse(node, "only integer and string constants are allowed")
        if isinstance(node, ast.BoolOp):
            return call(_BOOLOPS[type(node.op)], *map(self.build, node.values))
        if isinstance(node, ast.UnaryOp):
            operand = self.build(node.operand)
            if isinstance(node.op, ast.Not | ast.Invert):
                return call("Not", operand)
            return call("Neg", operand) if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp) and isinstance(node.op, _CHAINS):
            return call(_BINOPS[type(node.op)], *map(self.build, self.chain(node)))
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINOPS:
                raise self.refuse(node, "operator not allowed (use // for integer division)")
            return call(_BINOPS[type(node.op)], self.build(node.left), self.build(node.right))
        if isinstance(node, ast.Compare):
            if any(type(op) not in _CMPOPS for op in node.ops):
                raise self.refuse(node, "comparison not allowed (use ==, !=, <, <=, >, >=)")
            operands = [self.build(node.left), *map(self.build, node.comparators)]
            pairs = [call(_CMPOPS[type(op)], operands[i], operands[i + 1]) for i, op in enumerate(node.ops)]
            return pairs[0] if len(pairs) == 1 else call("And", *pairs)
        if isinstance(node, ast.IfExp):
            return call("ITE", self.build(node.test), self.build(node.body), self.build(node.orelse))
        if isinstance(node, ast.Call):
            return self.call(node)
        raise self.refuse(node, "not allowed in knowledge expressions")

    @staticmethod
    def chain(node: ast.BinOp) -> list[ast.expr]:
        """The operands of a left-leaning chain of one associative operator, found iteratively:
        Python parses `c0 | c1 | ... | c999` 1000 levels deep, rscount reads it as one Or."""
        operands = [node.right]
        left = node.left
        while isinstance(left, ast.BinOp) and type(left.op) is type(node.op):
            operands.append(left.right)
            left = left.left
        operands.append(left)
        return operands[::-1]

    def name(self, node: ast.Name) -> Expr:
        """A concept, a domain value named bare, or True/False."""
        if node.id in self.concepts:
            return var(node.id)
        if node.id in self.values:
            return const(self.values[node.id])
        if node.id in _CONSTANT_NAMES:
            return const(_CONSTANT_NAMES[node.id])
        raise self.refuse(node, "unknown concept")

    def call(self, node: ast.Call) -> Expr:
        """An operator called by name (And(a, b), Eq(x, 2), ...), with its number of arguments checked."""
        if not isinstance(node.func, ast.Name) or node.func.id not in OPS:
            raise self.refuse(node, "function not allowed")
        if node.keywords:
            raise self.refuse(node, "keyword arguments are not allowed")
        name = node.func.id
        low, high = ARITY.get(name, (1, None))
        if len(node.args) < low or (high is not None and len(node.args) > high):
            raise self.refuse(node, f"{name} takes {low if low == high else f'at least {low}'} argument(s)")
        return call(name, *map(self.build, node.args))


READS_KEPT = 1024  # expressions whose names free_names keeps (a program's label: 0.1 s a walk)
_reads: dict[int, tuple[Expr, frozenset[str]]] = {}


def free_names(expr: Expr) -> set[str]:
    """The concept names an expression reads, kept per expression object: the tasks of advise and
    sweep share their labels, and auto asks what each label reads at every count."""
    kept = _reads.get(id(expr))
    if kept is not None and kept[0] is expr:
        return set(kept[1])
    names: set[str] = set()
    seen: set[int] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op == "var":
            names.add(node.args[0])
        elif node.op != "const":
            stack.extend(node.args)
    if len(_reads) >= READS_KEPT:
        _reads.clear()
    _reads[id(expr)] = (expr, frozenset(names))
    return names


def evaluate(expr: Expr, assignment: Mapping[str, Any]) -> Any:
    """Evaluate `expr` on concrete concept values (the reference semantics, used by brute force)."""
    if expr.op == "var":
        return assignment[expr.args[0]]
    if expr.op == "const":
        return expr.args[0]
    return OPS[expr.op](*(evaluate(a, assignment) for a in expr.args))


def substitute(expr: Expr, by: Mapping[str, Expr]) -> Expr:
    """`expr` with every concept name in `by` replaced by its expression."""
    if expr.op == "var":
        return by.get(expr.args[0], expr)
    if expr.op == "const":
        return expr
    return call(expr.op, *(substitute(a, by) for a in expr.args))
