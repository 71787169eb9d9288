"""Hostile values (scalars, raw YAML tokens, deep nesting, long lists), YAML text that keeps raw
tokens verbatim, and whole-file damage (encodings, BOMs, stray bytes, truncation, several documents),
shared by the strategies of every input kind."""

from __future__ import annotations

import math
from typing import Any

import yaml
from hypothesis import strategies as st

from strategies.hostile.cases import MARKER


class Raw(str):
    """Text placed verbatim into YAML (a token `yaml.safe_dump` would quote)."""


BOMB = (
    "["
    + ", ".join(
        [f"&l0 [{', '.join(['lol'] * 9)}]"]
        + [f"&l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
    )
    + "]"
)
RAW_YAML = [
    "1" * 5000,  # an integer literal over Python's 4300-digit conversion limit
    "[" * 3000 + "]" * 3000,
    "{a: " * 1500 + "1" + "}" * 1500,
    BOMB,  # billion laughs
    "&self [*self]",  # a list containing itself
    ".inf",
    "-.inf",
    ".nan",
    "0x7FFFFFFFFFFFFFFFFFFF",
    "0o777",
    "0b101",
    "1_000",
    "190:20:30",  # YAML 1.1 sexagesimal
    "1.0e+400",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!omap [a: 1, b: 2]",
    "!!pairs [a: 1, a: 2]",
    "!!python/name:os.system",
    f"!!python/object/apply:os.system ['touch {MARKER}']",
    "!!python/object/new:type ['X', [], {}]",
    "!custom x",
    "*nowhere",
    "{? [a, b] : c}",
    "{a: 1, a: 2}",
    "[c1, c1]",
    "'unterminated",
    '"\\x"',
    "@reserved",
    "`tick",
    "a: b: c",
    "{]",
    "|\n  block",
    "!!str",
    "!!int x",
    "!!float .inf",
    "~",
    "null",
    "Yes",
    "off",
]
LONG = "x" * 10_000
SCALARS: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    10**30,
    -(10**30),
    2**63,
    2**64 + 1,
    0.5,
    1.5,
    -0.0,
    1e308,
    1e-300,
    math.inf,
    -math.inf,
    math.nan,
    "",
    " ",
    "exhaustive",
    "sample",
    "examples",
    "file",
    "count",
    "objects",
    "joint",
    "disentangled",
    "c1",
    "y",
    "__import__('os').system('touch PWNED')",
    LONG,
    "\x00",
    "\u202e",
    "é",
    "a\nb",
    "../outside.csv",
    "/",
    ".",
    "-",
    "data.csv",
    "k.cnf",
    "/dev/null",
    "missing.csv",
    "${HOME}",
    "%s%n",
]


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


hostile_values: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(SCALARS),
    st.sampled_from(RAW_YAML).map(Raw),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.lists(st.integers(-3, 3) | st.sampled_from(["red", "c1", None, 1.5]), max_size=5),
    st.dictionaries(
        st.sampled_from(["c1", "c2", "sample", "seed", "file", "count", "x", ""]),
        st.integers(-2, 5),
        max_size=3,
    ),
    st.integers(1, 80).map(nested),
    st.integers(50, 3000).map(lambda n: list(range(n))),
    st.integers(50, 3000).map(lambda n: [[i % 2, (i // 2) % 2] for i in range(n)]),
)


def to_yaml(data: Any) -> bytes:
    """YAML text of `data`, with every Raw value written verbatim."""
    raws: dict[str, str] = {}

    def swap(value: Any) -> Any:
        if isinstance(value, Raw):
            key = f"RAWTOKEN{len(raws)}X"
            raws[key] = str(value)
            return key
        if isinstance(value, dict):
            return {swap(k): swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = yaml.safe_dump(swap(data), sort_keys=False, allow_unicode=True, width=10**6)
    for key, raw in raws.items():
        text = text.replace(key, raw)
    return text.encode("utf-8", "surrogatepass")


def insert_junk(data: bytes, at: float, junk: bytes) -> bytes:
    i = int(at * len(data))
    return data[:i] + junk + data[i:]


@st.composite
def raw_transform(draw: st.DrawFn, text: bytes) -> bytes:
    """Whole-file damage: encodings, BOMs, stray bytes, truncation, tabs, several documents."""
    kind = draw(
        st.sampled_from(
            [
                "none",
                "none",
                "none",
                "bom",
                "utf16",
                "bytes",
                "truncate",
                "crlf",
                "tabs",
                "nul",
                "docs",
                "empty",
                "comment",
                "dupkey",
            ]
        )
    )
    at = draw(st.floats(0, 1))
    if kind == "bom":
        return b"\xef\xbb\xbf" + text
    if kind == "utf16":
        return text.decode("utf-8", "replace").encode("utf-16")
    if kind == "bytes":
        return insert_junk(
            text, at, draw(st.sampled_from([b"\xff", b"\x80", b"\xc3\x28", b"\xed\xa0\x80", b"\xfe\xff"]))
        )
    if kind == "truncate":
        return text[: int(at * len(text))]
    if kind == "crlf":
        return text.replace(b"\n", b"\r\n")
    if kind == "tabs":
        return text.replace(b"  ", b"\t")
    if kind == "nul":
        return insert_junk(text, at, b"\x00")
    if kind == "docs":
        return b"---\n" + text + b"---\n" + text
    if kind == "empty":
        return draw(
            st.sampled_from([b"", b"\n", b"# only a comment\n", b"---\n", b"...\n", b"~\n", b"[]\n", b"42\n"])
        )
    if kind == "comment":
        return b"# " + LONG.encode() + b"\n" + text
    if kind == "dupkey":
        return text + draw(
            st.sampled_from([b"concepts: {c1: [0, 1]}\n", b"labels: {y: c1}\n", b"support: exhaustive\n"])
        )
    return text
