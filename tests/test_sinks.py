"""Each sink's escaping, on text drawn to attack it: control characters, line breaks, `::`,
`##[`, `%0A`, `|`, `<script>`, `]]>`, lone surrogates, bidi overrides, formula starts."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import yaml
from hypothesis import given
from hypothesis import strategies as st

from rscount.sinks import (
    annotation_data,
    annotation_property,
    csv_cell,
    log_lines,
    markdown_cell,
    terminal,
    xml_text,
    yaml_comment,
)

PIECES = [
    "\n",
    "\r",
    "\r\n",
    "\x00",
    "\x1b[2J",
    "\x07",
    "\t",
    "\u2028",
    "\u202e",
    "\ud800",
    "\ufffe",
    "::",
    "::add-mask::",
    "::stop-commands::x",
    "##[",
    "##[set-output name=a]b",
    "%0A",
    "%25",
    "%",
    "|",
    "<script>alert(1)</script>",
    "&",
    "]]>",
    "`",
    "[x](http://e)",
    ":",
    ",",
    "=",
    "+",
    "-",
    "@",
    '=HYPERLINK("x")',
    "mode: joint",
    "# c",
    " ",
]
HOSTILE = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=12).map("".join)


def runner_reads_a_command(line: str) -> bool:
    """Whether a GitHub runner would read `line` as a workflow command (v2 after leading blanks,
    or the v1 marker anywhere)."""
    return line.lstrip().startswith("::") or "##[" in line


@given(HOSTILE)
def test_terminal_text_is_one_line_of_visible_characters_that_commands_nothing(text):
    shown = terminal(text)
    assert all(c == " " or c.isprintable() for c in shown)
    assert "##[" not in shown and len(shown.splitlines()) <= 1


@given(HOSTILE, HOSTILE)
def test_no_line_of_guarded_output_is_a_workflow_command(head, text):
    for line in log_lines(head + "\n" + text).split("\n"):
        assert not runner_reads_a_command(line)


def _runner_unescapes_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _runner_unescapes_property(text: str) -> str:
    return _runner_unescapes_data(text.replace("%3A", ":").replace("%2C", ","))


def _plain(text: str) -> bool:
    """Text with nothing a sink must change: no control character, no `##[`."""
    return terminal(text) == text


@given(HOSTILE, HOSTILE)
def test_an_annotation_is_one_command_whose_fields_read_back_as_given(title, message):
    line = f"::error file=t.yaml,title={annotation_property(title)}::{annotation_data(message)}"
    assert "\n" not in line and "\r" not in line and "##[" not in line
    properties, data = line[len("::error ") :].split("::", 1)
    fields = dict(p.split("=", 1) for p in properties.split(","))
    assert set(fields) == {"file", "title"}
    read_title, read_message = _runner_unescapes_property(fields["title"]), _runner_unescapes_data(data)
    for read, given_text in ((read_title, title), (read_message, message)):
        assert "##[" not in read and all(c.isprintable() or c in " \r\n" for c in read)
        if _plain(given_text.replace("\r", "").replace("\n", "")):
            assert read == given_text  # what the runner shows is what the task said


@given(HOSTILE)
def test_a_markdown_cell_stays_one_cell_and_holds_no_html(text):
    cell = markdown_cell(text)
    assert "\n" not in cell and "<" not in cell and ">" not in cell
    assert re.search(r"(?<!\\)\|", cell) is None  # every | escaped
    row = f"| {cell} | x |"
    assert len(re.split(r"(?<!\\)\|", row)) == 4


@given(HOSTILE)
def test_xml_text_is_well_formed_and_reads_back(text):
    element = ET.Element("testcase", name=xml_text(text))
    element.text = xml_text(text)
    parsed = ET.fromstring(ET.tostring(element, encoding="unicode"))
    assert parsed.get("name") == xml_text(text)
    assert (parsed.text or "") == xml_text(text).replace("\r\n", "\n").replace("\r", "\n")
    if all(c.isprintable() or c in "\t\n" for c in text):
        assert xml_text(text) == text


@given(HOSTILE)
def test_a_csv_cell_never_starts_a_spreadsheet_formula(text):
    buffer = io.StringIO()
    csv.writer(buffer).writerow([csv_cell(text)])
    (cell,) = next(csv.reader(io.StringIO(buffer.getvalue())))
    number = re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", cell)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or number


@given(HOSTILE)
def test_a_yaml_comment_leaves_the_document_after_it_alone(text):
    document = f"# {yaml_comment(text)}\nname: t\n"
    assert yaml.safe_load(document) == {"name": "t"}
