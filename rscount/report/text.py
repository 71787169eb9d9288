"""Text a person reads: the summary of a count, the verdict of a check or a report entry, and what
explain, advise and sweep found."""

from __future__ import annotations

from typing import Any

from ..insight.judging import Judgement
from ..insight.unidentified import Unidentified
from ..sinks import terminal
from ..task.expectations import PinStatus
from .records import CountRecord, count_record, count_text, counted_as, digits


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
    task = terminal(record.task)
    count = record.count
    lines = []
    if "intended" in record.promoted:
        intended, jrs = record.promoted["intended"], record.promoted["joint_shortcuts"]
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
        if jrs is None:
            lines.append(f"joint reasoning shortcuts: that count minus {number(intended)}")
        elif jrs:
            lines.append(f"joint reasoning shortcuts: {number(jrs)}")
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
    if "guarantee" in promoted:  # an exact method's own caveat (GANAK's probabilistic cache)
        lines.append(f"  guarantee: {promoted['guarantee']}")
    if "cross_check" in promoted:
        check = promoted["cross_check"]
        lines.append(
            f"cross-check: {check['method']} counts the same"
            if check["method"]
            else f"cross-check: not done ({check['why']})"
        )
    if verbose and "race" in record.details:
        lines.append("the race (auto): " + "; ".join(_entrant(e) for e in record.details["race"]))
    if verbose and "closed_forms_inapplicable" in promoted:
        lines.append("no closed form applies: " + "; ".join(promoted["closed_forms_inapplicable"]))
    about = (
        f"task {task} ({counted_as(record.mode, record.extractor)}): {record.concepts} concepts, support "
        f"{record.support_size} concept vectors ({record.supervised} concept-supervised)"
    )
    if record.predicts:
        about += "; predicted classes, beyond the ground truth's values: " + ", ".join(
            f"{name} {n}" for name, n in record.predicts.items()
        )
    if record.variables is not None:
        about += (
            f"; CNF {record.variables} variables, {record.clauses} clauses, "
            f"{record.map_variables} map variables"
        )
    lines.append(about)
    return "\n".join(lines)


def _entrant(entrant: dict[str, Any]) -> str:
    """`decompose answered after 17.6 s` (one entrant of auto's race, from the details)."""
    ran = f" after {entrant['seconds']:.3g} s" if entrant["seconds"] else ""
    return f"{entrant['method']} {entrant['outcome']}{ran}"


def verdict(judged: Judgement) -> str:
    """One phrase: the failed pins and the concepts that may now be swapped or remapped, or what the
    count says about shortcuts and the concepts involved (where they were named)."""
    failed = [o for o in judged.outcomes if o.failed]
    if failed:
        label = "INCONCLUSIVE" if all(o.status == PinStatus.INCONCLUSIVE for o in failed) else "FAIL"
        text = f"{label}: " + "; ".join(o.message for o in failed)
        if judged.unidentified:
            text += "; concepts that may now be swapped or remapped: " + moved_concepts(judged.unidentified)
        return text
    if judged.result is None or judged.task is None:
        return "not counted"
    record = count_record(judged.task, judged.result, judged.mode)
    count = record.count
    if "joint_shortcuts" in record.promoted:  # the jrs mode
        jrs = record.promoted["joint_shortcuts"]
        if jrs is None:
            found = f"about 10^{record.count_digits - 1} joint reasoning shortcuts"
        elif jrs:
            found = f"{number(jrs)} joint reasoning shortcut{'' if jrs == 1 else 's'}"
        else:
            found = "free of joint reasoning shortcuts"
    elif count is None:
        found = f"about 10^{record.count_digits - 1} shortcuts"
    elif count == 0:
        found = "no map fits the labels (check the knowledge)"
    elif count == 1:
        found = "free of shortcuts"
    else:
        found = f"{count - 1} shortcut{'s' if count > 2 else ''}"
        found = found if record.exact else f"about {found}"
    text = ("pass: " if judged.outcomes else "") + found
    if judged.unidentified:
        text += "; concepts involved: " + ", ".join(judged.unidentified)
    return text


def report_verdict(judged: Judgement) -> str:
    """A report's verdict: `error: ` and why, for a task not counted, else verdict()."""
    return f"error: {judged.failure.message}" if judged.failure is not None else verdict(judged)


def unidentified_text(what: Unidentified) -> str:
    """`may read c2, c3; its values may be remapped; values 2, 3, 4 may be predicted as others`."""
    parts = [f"may read {', '.join(what.reads)}"] if what.reads else []
    if what.remapped:
        parts.append("its values may be remapped")
    if what.moved:
        shown = ", ".join(terminal(str(v)) for v in what.moved)
        parts.append(f"{'value' if len(what.moved) == 1 else 'values'} {shown} may be predicted as others")
    elif what.moved is not None:
        parts.append("each value is always predicted as itself")
    return "; ".join(parts)


def moved_concepts(unidentified: dict[str, Unidentified]) -> str:
    """The concepts a failed pin may be about: `c1 (may read c2), c3 (its values may be remapped)`."""
    return ", ".join(f"{name} ({unidentified_text(what)})" for name, what in unidentified.items())


def check_verdict(judged: Judgement) -> str:
    """The sentence a researcher acts on, below the findings."""
    if not judged.valid:
        return "invalid task: fix the errors above"
    if judged.result is None:
        return "not counted (see above)"
    return verdict(judged)


def check_text(judged: Judgement, verbose: bool = False) -> str:
    """The check as lines a person reads."""
    marks = {"error": "error", "warning": "warning", "info": "ok"}
    lines = [f"check {terminal(judged.name)}:"]
    lines += [f"  {marks[f.level]}: {f.message}" for f in judged.findings]
    if judged.result is not None and judged.task is not None:
        record = count_record(judged.task, judged.result, judged.mode)
        lines += ["  " + line for line in human_summary(record, verbose).splitlines()]
    if judged.unidentified:
        lines.append("  concepts whose meaning the task does not identify:")
        lines += [f"    {name}: {unidentified_text(what)}" for name, what in judged.unidentified.items()]
    lines += [f"  expect {o.message}" for o in judged.outcomes]
    lines.append(f"verdict: {check_verdict(judged)}")
    return "\n".join(lines)
