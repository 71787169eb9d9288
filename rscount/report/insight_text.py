"""The insight commands' results as lines a person reads: explain, advise, sweep and forecast."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..insight.advise import Advice
from ..insight.explain import Explanation
from ..insight.forecast import Forecast
from ..insight.steps import ADD, ANNOTATE, ANNOTATE_ONE, SUPERVISE
from ..insight.sweep import Sweep
from ..insight.unidentified import Unidentified
from ..sinks import terminal
from ..task.model import Mode
from .records import counted_as
from .text import moved_concepts, number, optimal_maps


def _percent(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.3g}%)"


def explain_text(record: Explanation) -> str:
    """What explain found, as lines a person reads (what a time limit stopped, said at the end)."""
    task = terminal(record.task)
    if record.mode == Mode.JRS:
        return _jrs_text(record)
    count = record.count
    what = counted_as(record.mode, record.extractor)
    if count is None:
        lines = [f"task {task} ({what}): the count was stopped by the time limit"]
    else:
        shortcuts = f"{number(count - 1)} reasoning shortcut{'' if count == 2 else 's'}"
        lines = [f"task {task} ({what}): {optimal_maps(count)}, {shortcuts}"]
        if count == 1:
            lines.append("only the intended map keeps every training label: no reasoning shortcuts")
            return "\n".join(lines)
    if record.maps:
        lines += _maps_text(record)
    if record.unidentified:
        loose = {name: Unidentified.from_dict(u) for name, u in record.unidentified.items()}
        lines.append("concepts whose meaning the training data does not pin: " + moved_concepts(loose))
    if record.unseen_values:
        lists = "; ".join(
            f"{c}: {' '.join(terminal(str(v)) for v in vs)}" for c, vs in record.unseen_values.items()
        )
        lines.append(f"values no training example shows (any image keeps every label): {lists}")
    if record.summary is not None:
        lines += _summary_text(record.summary)
    if record.kinds is not None:
        lines += _kinds_text(record.kinds)
    lines += [f"not done within the time limit: {what}" for what in record.stopped]
    lines.append(f"{record.seconds:.2f} s")
    return "\n".join(lines)


def _maps_text(record: Explanation) -> list[str]:
    """The maps shown, grouped by the concepts they involve."""
    lines = [
        "notation: `d1 <- d2: 3->5` = predicted d1 reads ground-truth d2, whose value 3 it takes for 5 "
        "(values not listed are kept)"
    ]
    shown, count = len(record.maps), record.count
    whole = "all" if count is not None and shown == count - 1 else str(shown)
    of = "" if count is None else f" of the {number(count - 1)}"
    lines.append(f"{whole}{of} reasoning shortcuts, {record.order}, grouped by the concepts they involve:")
    width = len(str(shown))
    groups: dict[tuple[str, ...], list[tuple[int, str]]] = {}
    for n, m in enumerate(record.maps, start=1):
        groups.setdefault(tuple(m["involves"]), []).append((n, m["text"]))
    for concepts, maps in groups.items():
        lines.append(f"  involving {', '.join(concepts)}:")
        lines += [f"    {n:>{width}}. {text}" for n, text in maps]
    lines.append("each map shown was checked by evaluating the knowledge on every training example")
    return lines


def _summary_text(summary: dict[str, Any]) -> list[str]:
    """How often each predicted concept reads its own concept and keeps its meaning."""
    over = summary["over"]
    lines = [
        f"per predicted concept, over all {number(over)} optimal maps:"
        if summary["exact"]
        else f"per predicted concept, estimated from {over} uniformly drawn optimal maps:"
    ]
    rows = [("concept", "reads its own concept", "keeps its meaning")]
    rows += [
        (r["concept"], _percent(r["reads_itself"], over), _percent(r["keeps_meaning"], over))
        for r in summary["concepts"]
    ]
    widths = [max(len(r[n]) for r in rows) for n in range(3)]
    return lines + ["  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]


def _kinds_text(kinds: dict[str, Any]) -> list[str]:
    """The kinds of optimal maps, by what their predicted concepts read, the largest first."""
    total, listed = kinds["total"], kinds["listed"]
    lines = [f"kinds of optimal maps, by what each predicted concept reads: {number(total)}"]
    for kind in listed:
        lines.append(f"  {_reading(kind)}: {optimal_maps(kind['maps'])}")
    if total > len(listed):
        lines.append(f"  ({number(total - len(listed))} more kinds not listed)")
    return lines


def _reading(kind: dict[str, Any]) -> str:
    """What one kind's predicted concepts read: objects and attributes in the objects mode."""
    if "objects" in kind:
        parts = [f"object {terminal(p)} reads object {terminal(g)}" for p, g in kind["objects"].items()]
        parts += [f"{terminal(p)} reads {terminal(g)}" for p, g in kind["attributes"].items()]
    else:
        parts = [f"{terminal(p)} reads {terminal(g)}" for p, g in kind["reads"].items()]
    return ", ".join(parts) or "every concept reads its own"


def _jrs_text(record: Explanation) -> str:
    """explain --mode jrs: concept maps that are not bijective, each with the simplest fitting layer."""
    task = terminal(record.task)
    intended = (record.summary or {}).get("intended")
    lines = [
        f"task {task} (jrs count): {number(record.count)} pairs (concept map, inference layer), "
        f"{number(intended)} intended, {number(record.shortcuts)} joint reasoning shortcuts"
    ]
    if not record.maps:
        lines.append(
            "every fitting concept map is bijective: joint reasoning shortcuts only relabel unseen vectors"
        )
        return "\n".join(lines)
    lines.append(
        "notation: `c1 <- c2: 0->1` = predicted c1 reads ground-truth c2, whose value 0 it takes for 1; "
        "after `|` the simplest inference layer that fits (vectors no training example reaches left free)"
    )
    lines.append(f"{len(record.maps)} concept maps that merge values, {record.order}:")
    width = len(str(len(record.maps)))
    lines += [f"  {n:>{width}}. {m['text']}" for n, m in enumerate(record.maps, start=1)]
    lines.append(f"{record.seconds:.2f} s")
    return "\n".join(lines)


def advise_text(record: Advice) -> str:
    """What advise found, as lines a person reads."""
    task = terminal(record.task)
    start = record.start
    given = (
        "the optimal maps as given not counted within the time limit"
        if start["count"] is None
        else f"{number(start['count'])} optimal maps as given"
    )
    lines = [f"task {task} ({counted_as(record.mode, record.extractor)}): {given}"]
    target = record.target
    goal = "removes every shortcut" if target == 1 else f"leaves at most {number(target)} optimal maps"
    if start["count"] is not None and start["count"] <= target:
        done = "has no reasoning shortcuts" if target == 1 else f"has at most {number(target)} optimal maps"
        lines.append(f"nothing to do: the task as given {done}")
        return "\n".join(lines)
    kinds = {
        SUPERVISE: "concept-supervise a support row",
        ADD: "add a concept combination",
        ANNOTATE: "annotate one concept on every example",
        ANNOTATE_ONE: "annotate one concept on one example",
    }
    costs = record.costs
    priced = any(c != 1 for c in costs.values())
    lines.append(
        "steps allowed: "
        + "; ".join(kinds[a] + (f" (cost {costs[a]})" if priced else "") for a in record.actions)
    )
    plan, final, search = record.plan, record.final_count, record.search
    size = sum(p["cost"] for p in plan) if priced else len(plan)
    what = f"cost {size}" if priced else f"{size} step{'' if size == 1 else 's'}"
    cheaper = "cheaper plan" if priced else "plan with fewer steps"
    below = f"costing less than {record.bound}" if priced else f"with fewer than {record.bound} steps"
    reaches = final is not None and final <= target
    if reaches and record.minimal:
        lines.append(f"minimal plan ({what}; proved: no {cheaper} {goal}):")
    elif reaches:
        lines.append(f"best plan found ({what}; proved: no plan {below} {goal}):")
    elif search.get("unkillable"):
        lines.append(
            f"no plan {goal}: the shortcut {search['unkillable']} survives every candidate step"
            f" ({search['candidates_are']})"
        )
        return "\n".join(lines)
    elif search.get("complete") and search.get("fewest_reachable", 0) > target:
        lines.append(f"no plan {goal}: {search['why']}; with every step:")
    else:
        why = search["why"] or "search ended"
        proved = f"proved: none {below}" if record.bound > 1 else "nothing proved yet"
        lines.append(f"no plan found that {goal} ({why}; {proved}); the best plan found ({what}):")
    rows = [("0.", "as given", "" if start["count"] is None else number(start["count"]))]
    last = number(final)
    rows += [
        (
            f"{n}.",
            p["text"],
            number(p["count"]) if p["count"] is not None else (last if n == len(plan) else ""),
        )
        for n, p in enumerate(plan, start=1)
    ]
    widths = [max(len(r[c]) for r in rows) for c in range(2)]
    lines.append("  " + "step".ljust(widths[0] + widths[1] + 1) + "  optimal maps after it")
    lines += [f"  {a.rjust(widths[0])} {b.ljust(widths[1])}  {c}".rstrip() for a, b, c in rows]
    if search.get("why") and reaches and not record.minimal:
        lines.append(f"the {'SAT' if search.get('route') == 'sat' else 'exact'} search {search['why']}")
    v = record.verified
    if v is not None:
        how = "exact" if v["exact"] else "approximate"
        lines.append(
            "verified: the modified task, written as a task file and read back, counts "
            f"{optimal_maps(v['count'])} ({how}, {v['method']})"
        )
    if record.emitted:
        lines.append(f"wrote {record.emitted}")
    if search.get("route") == "sat":
        how = (
            f"found by SAT over {number(search['candidates'])} candidate steps ({search['candidates_are']}): "
            f"{search['shortcuts_noted']} shortcuts noted"
            + (" (every shortcut listed first)" if search.get("shortcuts_listed") else "")
            + f", {search['choices']} choices of steps"
        )
    else:
        how = f"{search.get('counted', 0)} in the exact search, {search.get('greedy_steps', 0)} greedy steps"
    if search.get("not_done"):
        lines.append(f"not done within the time limit: {search['not_done']}")
    lines.append(f"{how}; {record.counts} counts, {record.seconds:.2f} s")
    return "\n".join(lines)


def sweep_text(record: Sweep) -> str:
    """The sweep as lines a person reads: median counts per fraction and the scores."""
    task = terminal(record.task)
    lines = [
        f"task {task} ({counted_as(record.mode, record.extractor)}): {len(record.seeds)} seeds x "
        f"{len(record.fractions)} support fractions x {len(record.supervision)} supervision levels "
        f"(full support: {record.full_support} concept vectors)"
    ]
    rows = record.rows
    for score in record.scores:
        g = score["supervision"]
        lines.append(f"supervision {g:g} (fraction of each support concept-supervised):")
        lines.append("  fraction  support  optimal maps: median [min, max] over seeds")
        for f in record.fractions:
            level = [r for r in rows if r["supervision"] == g and r["fraction"] == f]
            counts = sorted(r["count"] for r in level if r["count"] is not None)
            failed = len(level) - len(counts)
            text = "not counted"
            if counts:
                median, low, high = (
                    number(c) for c in (counts[(len(counts) - 1) // 2], counts[0], counts[-1])
                )
                text = f"{median} [{low}, {high}]" + (f" ({failed} not counted)" if failed else "")
            lines.append(f"  {f:<8g}  {level[0]['support_size']:<7}  {text}")
        if score["R"] is None:
            lines.append("  robustness: needs a fraction below 1")
        else:
            lines.append(
                f"  robustness R = {score['R']:.4g} (rho = {score['rho']:.4g}; "
                "1: dropping examples adds no optimal map)"
            )
        free = score["shortcut_free_from"]
        lines.append(
            f"  shortcut-free (1 map for every seed) from fraction {free:g} on"
            if free is not None
            else "  no fraction is shortcut-free for every seed"
        )
    failures = [r for r in rows if r["error"]]
    if failures:
        lines.append(f"{len(failures)} counts failed, e.g.: {failures[0]['error']}")
    return "\n".join(lines)


def _vectors(n: int, kind: str) -> str:
    return f"{n} {kind} vector{'' if n == 1 else 's'}"


def _share(p: Fraction) -> str:
    return f"{float(p):.1%}"


def forecast_text(record: Forecast) -> str:
    """The forecast as a table per predicted concept and the images of each ground-truth value."""
    task = terminal(record.task)
    count = record.count
    what = counted_as(record.mode, record.extractor)
    lines = [
        f"task {task} ({what}): {optimal_maps(count)}; for one drawn uniformly at random "
        + (
            "(exact; fractions in --json):"
            if record.samples is None
            else f"(estimated from {record.samples} uniform draws; each figure within "
            f"{record.margin or 0:.1%} with probability 0.95):"
        )
    ]
    head = [
        "concept",
        "reads itself",
        "reads otherwise",
        f"accuracy ({_vectors(record.support_rows, 'training')})",
    ]
    if record.test is not None:
        head.append(f"accuracy ({_vectors(record.test['rows'], 'test')})")
    rows = [head]
    for name, reads in record.reads.items():
        others = sorted(((p, c) for c, p in reads.items() if p and c != name), key=lambda pc: (-pc[0], pc[1]))
        shown = ", ".join(f"{c} {_share(p)}" for p, c in others[:3]) + (", ..." if len(others) > 3 else "")
        row = [name, _share(reads[name]), shown or "-", _share(record.accuracy[name])]
        if record.test is not None:
            row.append(_share(record.test["accuracy"][name]))
        rows.append(row)
    widths = [max(len(r[n]) for r in rows) for n in range(len(head))]
    lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.append("where each ground-truth value goes (in the predicted concept it feeds: see reads):")
    for name, table in record.values.items():
        parts = []
        for v, images in table.items():
            likely = sorted(((p, w) for w, p in images.items() if p), key=lambda pw: (-pw[0], pw[1]))
            more = ", ..." if len(likely) > 3 else ""
            parts.append(f"{v} -> " + ", ".join(f"{w} {_share(p)}" for p, w in likely[:3]) + more)
        lines.append(f"  {name}: " + "; ".join(parts))
    if record.test is not None:
        lines.append(
            f"label accuracy expected on the {_vectors(record.test['rows'], 'test')}: "
            f"{_share(record.test['label_accuracy'])}"
        )
    lines.append(f"{record.seconds:.2f} s")
    return "\n".join(lines)
