"""Text a person reads: the summary of a count, the verdict of a check or a report entry, and what
explain, advise and sweep found."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..insight.advise import ADD, ANNOTATE, SUPERVISE, Advice
from ..insight.check import CheckReport, Unidentified
from ..insight.explain import Explanation
from ..insight.forecast import Forecast
from ..insight.sweep import Sweep
from ..task.expectations import FAIL, INCONCLUSIVE, Outcome
from ..task.model import Mode
from .records import CountRecord, count_record, count_text, digits


def number(count: int | None) -> str:
    """A count as text: in full up to MAX_DIGITS digits, else how many digits; '-' when none."""
    if count is None:
        return "-"
    return count_text(count) or f"a {digits(count)}-digit number"


def optimal_maps(count: int) -> str:
    """`1 optimal map`, `24 optimal maps` (counts of any size)."""
    return f"{number(count)} optimal map{'' if count == 1 else 's'}"


def human_summary(record: CountRecord, verbose: bool = False) -> str:
    """A few lines a researcher reads: the count, whether there are shortcuts, how it was counted
    (with `verbose`, also why no closed form applied)."""
    count = record.count
    lines = []
    if "intended" in record.promoted:
        intended, joint = record.promoted["intended"], record.promoted["joint_shortcuts"]
        if count is not None:
            shown = number(count)
        elif record.count_expression is not None:
            shown = f"{record.count_expression} ({record.count_digits} digits)"
        else:
            shown = f"a {record.count_digits}-digit number"
        lines.append(f"pairs (concept map, inference layer) that fit every training label: {shown}")
        lines.append(
            f"  intended: {number(intended)} (each bijective concept map with the knowledge it implies)"
        )
        if joint is None:
            lines.append(f"joint reasoning shortcuts: that count minus {number(intended)}")
        elif joint:
            lines.append(f"joint reasoning shortcuts: {number(joint)}")
        else:
            lines.append("joint reasoning shortcuts: 0 (concepts and inference layer jointly identifiable)")
    elif record.exact and count is None:
        lines.append(f"optimal concept maps: {record.count_expression} ({record.count_digits} digits)")
        lines.append("reasoning shortcuts: that count minus 1 (the task admits reasoning shortcuts)")
    elif record.exact and count is not None:
        lines.append(f"optimal concept maps: {number(count)}")
        if count == 0:
            lines.append("reasoning shortcuts: none, and no map fits the labels (check the knowledge)")
        elif count == 1:
            lines.append("reasoning shortcuts: 0 (only the intended map fits: the task is free of shortcuts)")
        else:
            shortcuts = number(count - 1)
            lines.append(f"reasoning shortcuts: {shortcuts} (the task admits reasoning shortcuts)")
    else:
        eps, delta = record.epsilon or 0.0, record.delta or 0.0
        count = record.full_count()
        lines.append(f"optimal concept maps: about {count}")
        lines.append(
            f"  guarantee: the exact count lies in [{count / (1 + eps):.6g}, {count * (1 + eps):.6g}] "
            f"with probability >= {1 - delta:g} (epsilon={eps}, delta={delta}, seed={record.seed})"
        )
        if count / (1 + eps) > 1:
            meaning = f"the task admits reasoning shortcuts, with probability >= {1 - delta:g}"
        else:
            meaning = "the estimate cannot tell whether there are any: count exactly"
        lines.append(f"reasoning shortcuts: about {max(count - 1, 0)} ({meaning})")
    how = f"method: {record.method} ({'exact' if record.exact else 'approximate'})"
    promoted = record.promoted
    if "closed_form" in promoted:
        how += f": {promoted['closed_form']}, {promoted['formula']}"
        if record.count_expression is not None:
            how += f" = {record.count_expression}"
    if "auto" in promoted:
        how += f", chosen as: {promoted['auto']}"
    lines.append(how + f"; {record.seconds:.2f} s")
    if verbose and "closed_forms_inapplicable" in promoted:
        lines.append("no closed form applies: " + "; ".join(promoted["closed_forms_inapplicable"]))
    about = (
        f"task {record.task} ({record.mode} count): {record.concepts} concepts, support "
        f"{record.support_size} concept vectors ({record.supervised} concept-supervised)"
    )
    if record.variables is not None:
        about += (
            f"; CNF {record.variables} variables, {record.clauses} clauses, "
            f"{record.map_variables} map variables"
        )
    lines.append(about)
    return "\n".join(lines)


def verdict(record: CountRecord | None, outcomes: Sequence[Outcome]) -> str:
    """One phrase: the failed expectations, or what the count says about shortcuts."""
    failed = [o for o in outcomes if o.failed]
    if failed:
        label = "INCONCLUSIVE" if all(o.status == INCONCLUSIVE for o in failed) else "FAIL"
        return f"{label}: " + "; ".join(o.message for o in failed if o.status in (FAIL, INCONCLUSIVE))
    if record is None:
        return "not counted"
    count = record.count
    if "joint_shortcuts" in record.promoted:
        joint = record.promoted["joint_shortcuts"]
        if joint is None:
            found = f"about 10^{record.count_digits - 1} joint shortcuts"
        else:
            found = (
                f"{number(joint)} joint shortcut{'' if joint == 1 else 's'}"
                if joint
                else "free of joint shortcuts"
            )
    elif count is None:
        found = f"about 10^{record.count_digits - 1} shortcuts"
    elif count == 0:
        found = "no map fits the labels (check the knowledge)"
    elif count == 1:
        found = "free of shortcuts"
    else:
        found = f"{count - 1} shortcut{'s' if count > 2 else ''}"
        found = found if record.exact else f"about {found}"
    return ("pass: " if outcomes else "") + found


def unidentified_text(what: Unidentified) -> str:
    """`may read c2, c3; its values may be remapped`."""
    parts = [f"may read {', '.join(what.reads)}"] if what.reads else []
    if what.remapped:
        parts.append("its values may be remapped")
    return "; ".join(parts)


def moved_concepts(unidentified: dict[str, Unidentified]) -> str:
    """The concepts a failed pin may be about: `c1 (may read c2), c3 (its values may be remapped)`."""
    return ", ".join(f"{name} ({unidentified_text(what)})" for name, what in unidentified.items())


def check_verdict(report: CheckReport) -> str:
    """The sentence a researcher acts on."""
    if not report.valid:
        return "invalid task: fix the errors above"
    if report.result is None or report.task is None:
        return "not counted (see above)"
    record = count_record(report.task, report.result, report.mode)
    text = verdict(record, report.outcomes)
    if report.free_of_shortcuts or any(o.failed for o in report.outcomes):
        if report.unidentified and any(o.failed for o in report.outcomes):
            text += "; concepts that may now be swapped or remapped: " + moved_concepts(report.unidentified)
        return text
    if report.unidentified:
        text += "; concepts involved: " + ", ".join(report.unidentified)
    return text


def check_text(report: CheckReport, verbose: bool = False) -> str:
    """The check as lines a person reads."""
    marks = {"error": "error", "warning": "warning", "info": "ok"}
    lines = [f"check {report.name}:"]
    lines += [f"  {marks[f.level]}: {f.message}" for f in report.findings]
    if report.result is not None and report.task is not None:
        record = count_record(report.task, report.result, report.mode)
        lines += ["  " + line for line in human_summary(record, verbose).splitlines()]
    if report.unidentified:
        lines.append("  concepts whose meaning the task does not identify:")
        lines += [f"    {name}: {unidentified_text(what)}" for name, what in report.unidentified.items()]
    lines += [f"  expect {o.message}" for o in report.outcomes]
    lines.append(f"verdict: {check_verdict(report)}")
    return "\n".join(lines)


def _percent(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.3g}%)"


def explain_text(record: Explanation) -> str:
    """What explain found, as lines a person reads."""
    if record.mode == Mode.JRS:
        return _joint_text(record)
    count = record.count
    shortcuts = f"{number(count - 1)} reasoning shortcut{'' if count == 2 else 's'}"
    lines = [f"task {record.task} ({record.mode} count): {optimal_maps(count)}, {shortcuts}"]
    if count == 1:
        lines.append("only the intended map keeps every training label: no reasoning shortcuts")
        return "\n".join(lines)
    lines.append(
        "notation: `d1 <- d2: 3->5` = predicted d1 reads ground-truth d2, whose value 3 it takes for 5 "
        "(values not listed are kept)"
    )
    shown = len(record.maps)
    lines.append(f"{'all' if shown == count - 1 else shown} of the {shortcuts}, {record.order}:")
    width = len(str(len(record.maps)))
    lines += [f"  {n:>{width}}. {m['text']}" for n, m in enumerate(record.maps, start=1)]
    lines.append("each map shown was checked by evaluating the knowledge on every training example")
    if record.unseen_values:
        lists = "; ".join(f"{c}: {' '.join(map(str, vs))}" for c, vs in record.unseen_values.items())
        lines.append(f"values no training example shows (any image keeps every label): {lists}")
    summary = record.summary
    over = summary["over"]
    lines.append(
        f"per predicted concept, over all {number(count)} optimal maps:"
        if summary["exact"]
        else f"per predicted concept, estimated from {over} uniformly drawn optimal maps:"
    )
    rows = [("concept", "reads its own concept", "keeps its meaning")]
    rows += [
        (r["concept"], _percent(r["reads_itself"], over), _percent(r["keeps_meaning"], over))
        for r in summary["concepts"]
    ]
    widths = [max(len(r[n]) for r in rows) for n in range(3)]
    lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.append(f"{record.seconds:.2f} s")
    return "\n".join(lines)


def _joint_text(record: Explanation) -> str:
    """explain --mode jrs: concept maps that are not bijective, each with the simplest fitting layer."""
    intended = record.summary["intended"]
    lines = [
        f"task {record.task} (jrs count): {number(record.count)} pairs (concept map, inference layer), "
        f"{number(intended)} intended, {number(record.shortcuts)} joint shortcuts"
    ]
    if not record.maps:
        lines.append("every fitting concept map is bijective: joint shortcuts only relabel unseen vectors")
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
    start = record.start
    lines = [f"task {record.task} ({record.mode} count): {number(start['count'])} optimal maps as given"]
    if start["count"] <= 1:
        lines.append("nothing to do: the task has no reasoning shortcuts")
        return "\n".join(lines)
    lines.append(
        "greedy search over: "
        + ", ".join(
            {
                SUPERVISE: "concept-supervising a support row",
                ADD: "adding a concept combination",
                ANNOTATE: "annotating one concept on every example",
            }[a]
            for a in record.actions
        )
        + f" ({record.candidates_per_action} candidates of each kind per step; the rest if none helps)"
    )
    plan = record.plan
    final = record.final_count
    dropped = record.greedy_steps - len(plan)
    if final == 1:
        steps = f"{len(plan)} step{'' if len(plan) == 1 else 's'}"
        lines.append(f"plan of {steps} ({dropped} greedy steps dropped as redundant):")
    else:
        lines.append(
            f"no plan found that removes every shortcut: no candidate lowers the count below "
            f"{number(final)}; the best plan ({len(plan)} steps):"
        )
    rows = [("0.", "as given", number(start["count"]))]
    rows += [(f"{n}.", p["text"], number(p["count"])) for n, p in enumerate(plan, start=1)]
    widths = [max(len(r[c]) for r in rows) for c in range(2)]
    lines.append("  " + "step".ljust(widths[0] + widths[1] + 1) + "  optimal maps after it")
    lines += [f"  {a.rjust(widths[0])} {b.ljust(widths[1])}  {c}" for a, b, c in rows]
    v = record.verified
    how = "exact" if v["exact"] else "approximate"
    lines.append(
        "verified: the modified task, written as a task file and read back, counts "
        f"{optimal_maps(v['count'])} ({how}, {v['method']})"
    )
    if record.emitted:
        lines.append(f"wrote {record.emitted}")
    lines.append(f"{record.counts} counts, {record.seconds:.2f} s")
    return "\n".join(lines)


def sweep_text(record: Sweep) -> str:
    """The sweep as lines a person reads: median counts per fraction and the scores."""
    lines = [
        f"task {record.task} ({record.mode} count): {len(record.seeds)} seeds x "
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
    count = record.count
    lines = [
        f"task {record.task} ({record.mode} count): {optimal_maps(count)}; for one drawn uniformly at random "
        "(exact; fractions in --json):"
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
