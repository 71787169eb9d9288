"""Text from a task file (names, values, paths, messages) escaped for where it goes: one function per
sink, each escaping what that sink's reader would act on. Every writer passes task text through the
function of its sink; docs/security.md lists them.

- A terminal or a CI log: control characters would move the cursor or start a new line, and a
  GitHub runner reads a line starting with `::` (after blanks) as a workflow command, and `##[`
  anywhere in a line as an old-style one.
- A GitHub annotation: the runner unescapes %25, %0D, %0A in data and also %3A, %2C in properties.
- Markdown (a job summary): `|` splits table cells, HTML passes through, a line break ends a row.
- XML 1.0 (JUnit): most control characters, lone surrogates and U+FFFE/U+FFFF cannot be held at all.
- CSV opened in a spreadsheet: a cell starting with `=`, `+`, `-`, `@`, tab or CR is a formula.
- A YAML comment: a line break ends it, and what follows is read as YAML.
- A matplotlib label: `$` starts mathematical text, which a stray one makes fail to render.
"""

from __future__ import annotations

import re

_SHOWN_AS_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_COMMAND = re.compile(r"^(\s*)::")  # a line the runner would read as a workflow command
_OLD_COMMAND = "##["  # the runner's v1 command marker, recognised anywhere in a line


def _escaped(char: str) -> str:
    """A character written as the escape Python would show for it (`\\n`, `\\x1b`, `\\u2028`)."""
    if char in _SHOWN_AS_ESCAPES:
        return _SHOWN_AS_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _visible(char: str) -> bool:
    """Whether a character may be written as itself: printable (no control, format, private-use or
    unassigned character, no lone surrogate, no separator but the space)."""
    return char.isprintable()


def terminal(text: str) -> str:
    """Task text inside one line of terminal or log output: every control or invisible formatting
    character (line breaks, ESC, bidi overrides, lone surrogates) shown as its escape, and `##[`
    broken as `##\\[`, so the text stays one line and starts no command."""
    shown = text if text.isprintable() else "".join(c if _visible(c) else _escaped(c) for c in text)
    return shown.replace(_OLD_COMMAND, "##\\[")


def log_lines(text: str) -> str:
    """Text a command prints where a CI runner reads it, made safe as a whole: each line as
    terminal() makes it (so a control character that task text brought in is shown, not obeyed),
    and a line that would start a workflow command (`::` after blanks) gets a backslash first. The
    line breaks are the text's own: task text in it should have gone through terminal() already."""
    return "\n".join(_COMMAND.sub(r"\1\\::", terminal(line)) for line in text.split("\n"))


def annotation_data(text: str) -> str:
    """The message of a GitHub workflow command: %, CR and LF as the runner's escapes (it turns
    them back), other control characters as terminal() shows them."""
    escaped = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return terminal(escaped)


def annotation_property(text: str) -> str:
    """A property value of a GitHub workflow command (file, title): as annotation_data, and also
    `:` and `,`, which end a property."""
    return annotation_data(text).replace(":", "%3A").replace(",", "%2C")


_MARKDOWN = {"|": "\\|", "<": "&lt;", ">": "&gt;", "&": "&amp;", "`": "\\`", "[": "\\[", "]": "\\]"}


def markdown_cell(text: str) -> str:
    """Task text in a Markdown table cell or line: `|` and Markdown's link and code marks escaped,
    HTML's `<`, `>`, `&` as entities (so no tag or script reaches a rendered summary), and line
    breaks and control characters shown as escapes (a row stays one row)."""
    return "".join(_MARKDOWN.get(c, c) for c in terminal(text))


def xml_text(text: str) -> str:
    """Task text XML 1.0 can hold: its forbidden characters (controls but tab, LF, CR; lone
    surrogates; U+FFFE, U+FFFF) shown as escapes. The XML writer escapes `<`, `&` and quotes itself."""
    return "".join(c if _xml_char(c) else _escaped(c) for c in text)


def _xml_char(char: str) -> bool:
    code = ord(char)
    return (
        code in (0x9, 0xA, 0xD)
        or 0x20 <= code <= 0xD7FF
        or 0xE000 <= code <= 0xFFFD
        or 0x10000 <= code <= 0x10FFFF
    )


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a leading `'`
    (OWASP's advice); numbers, negative ones included, are left as numbers."""
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def yaml_comment(text: str) -> str:
    """Task text in a YAML comment: on one line (line breaks and control characters as escapes),
    so nothing after it is read as YAML."""
    return terminal(text)


def plot_text(text: str) -> str:
    """Task text in a plot's title or label: as terminal() shows it, with `$` written so that
    matplotlib draws it instead of reading mathematical text."""
    return terminal(text).replace("$", "\\$")
