"""Reading the files a task is made of (task files, DIMACS, annotations): text, or one error naming
the file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from ..errors import FormatError, LimitReached, quote, short
from ..limits import YAML_DEPTH, YAML_NODES

# libyaml's safe loader where PyYAML was built with it (ten times faster on a task file's support);
# the same safe constructor and resolver either way, so the same values
SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# libyaml 0.2.6 (PyYAML 6.0.3's wheels on) refuses nesting past 1000 levels by itself, and its scanner
# looks up to 1024 characters ahead, so it meets that limit before the parser yields YAML_DEPTH's level:
# such a document is read again by the pure-Python parser, so that the cap answers on every build
_LIBYAML_DEPTH_ERROR = "exceeded maximum nesting depth"


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of an input file, without a byte-order mark (spreadsheets write one, and it would
    stick to the first column's name); unreadable or non-UTF-8 files as a FormatError."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise FormatError(str(path), f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise FormatError(str(path), "not a UTF-8 text file") from None


def load_yaml(text: str, source: str, loader_class: Any = None) -> Any:
    """The data of a YAML document, read with the safe loader (`loader_class`, SAFE_LOADER unless
    given); duplicate keys (the last would win silently), nesting past the YAML_DEPTH cap and aliases
    expanding to more than the YAML_NODES cap (a 'billion laughs' file) are refused before any value
    is built."""
    loader_class = SAFE_LOADER if loader_class is None else loader_class
    try:
        loader = loader_class(text)
    except yaml.YAMLError as exc:  # the reader refuses characters such as NUL
        raise FormatError(source, f"invalid YAML: {short(str(exc).splitlines()[0])}") from None
    try:
        _check_depth(text, source, loader_class)
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, source)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        if _LIBYAML_DEPTH_ERROR in str(exc) and loader_class is not yaml.SafeLoader:
            return load_yaml(text, source, yaml.SafeLoader)
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0] or "malformed YAML"
        # libyaml marks the end of the input on the line after the last: name the last line
        line = None if mark is None else min(mark.line + 1, max(1, len(text.splitlines())))
        raise FormatError(source, f"invalid YAML: {short(str(problem))}", line) from None
    except RecursionError:  # PyYAML composes recursively: a YAML_DEPTH raised past what the stack holds
        raise LimitReached(f"{source}: YAML nested too deeply for the reader's stack") from None
    except ValueError:  # Python refuses to read integers of more than 4300 digits
        raise FormatError(source, "invalid YAML: a number too long to read (over 4300 digits)") from None
    finally:
        loader.dispose()


def _check_depth(text: str, source: str, loader_class: Any) -> None:
    """Refuse collections nested past the YAML_DEPTH cap, read from the parser's flat event stream
    before PyYAML composes them (recursively: slow, and deep enough it exhausts the stack)."""
    depth = 0
    for event in yaml.parse(text, Loader=loader_class):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            YAML_DEPTH.check(
                depth, source if event.start_mark is None else f"{source}, line {event.start_mark.line + 1}"
            )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _check_nodes(root: yaml.Node, source: str) -> None:
    """Refuse duplicate mapping keys and documents whose aliases expand past the YAML_NODES cap
    (sizes are summed over the node graph once per node, so the check itself stays linear)."""
    size: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        if id(node) in size:
            continue
        children = _children(node, source)
        if done:
            open_nodes.discard(id(node))
            size[id(node)] = 1 + sum(size[id(c)] for c in children)
            YAML_NODES.check(size[id(node)], source)
            continue
        if id(node) in open_nodes:
            raise FormatError(source, "invalid YAML: an alias refers to itself", node.start_mark.line + 1)
        open_nodes.add(id(node))
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)


def _children(node: yaml.Node, source: str) -> list[yaml.Node]:
    """The child nodes of a node; a mapping's keys must be distinct."""
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if not isinstance(node, yaml.MappingNode):
        return []
    seen: set[tuple[str, str]] = set()
    for key, _ in node.value:
        if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
            if (key.tag, key.value) in seen:
                raise FormatError(source, f"duplicate key {quote(key.value)}", key.start_mark.line + 1)
            seen.add((key.tag, key.value))
    return [n for pair in node.value for n in pair]
