"""The task library in tasks/: every file loads, each new task's knowledge gives the labels its seed's
rule gives on hand-picked concept vectors (values derived from the rule text, not from the file's
expression), supports are what the headers say, and small tasks count the same by an exact backend
and by auto; larger pinned counts are checked without the symmetry reduction, without label-group
factors, or by ApproxMC on the whole CNF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import backend_result

from rscount.counting.dispatch import count_problem
from rscount.counting.problem import CountProblem
from rscount.counting.settings import CountSettings
from rscount.encoding import value_codes
from rscount.encoding.modes import encode
from rscount.knowledge import symmetry_groups as planning
from rscount.knowledge.loading import load_task
from rscount.knowledge.symmetry import object_blocks
from rscount.task.expressions import evaluate, parse

TASKS = Path(__file__).resolve().parents[1] / "tasks"
FILES = sorted(TASKS.glob("*.yaml"))


def task(name: str):
    return load_task(TASKS / f"{name}.yaml")


def label(t, **values) -> dict:
    """The labels of the concept vector given by name -> value (every concept named)."""
    missing = set(t.names) - set(values)
    assert not missing, f"test row misses {sorted(missing)}"
    return dict(zip(t.labels, t.label_of(tuple(values[n] for n in t.names))))


def objects(attrs: tuple[str, ...], *objs) -> dict:
    """{<attr>_<i>: value} for objects given as tuples in attribute order, numbered from 1."""
    return {f"{a}_{i}": v for i, obj in enumerate(objs, 1) for a, v in zip(attrs, obj)}


# ---------------------------------------------------------------------------------------------
# Every file


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_task_file_loads_and_names_its_origin_and_count(path: Path) -> None:
    t = load_task(path)
    assert t.name == path.stem
    head = path.read_text().split("\nname:")[0]
    if path.stem not in ("and3", "mnadd", "mnadd-half", "xor3"):  # the older files
        seeded = re.search(r"# Count \(auto, measured 2026-\d\d-\d\d\): (\d+)", head)
        imitated = re.search(r"# Count: (\d+) \(", head)  # a public example's constructs
        if seeded:
            assert "seed 00" in head
        else:
            assert imitated and re.search(r"# \S+: imitates \S", head)
        found = seeded or imitated
        assert found and found.group(1) == str(t.expect["count"])  # the header states the pinned count
    # a header that lists the concepts one per line (`#   name: [values]`) lists rscount's names
    listed = re.findall(r"^#   (\S+): \[", head, re.MULTILINE)
    if len(listed) > 1:
        assert listed == t.names


def test_the_library_has_every_requested_task() -> None:
    names = {p.stem for p in FILES}
    wanted = {
        "mnlogic-3cnf-6", "mnadd-evenodd", "mnmath", "kand-logic-2", "kand-logic-3",
        "cle4evr-2-reduced", "cle4evr-2-full", "sdd-oia", "sdd-oia-ambulance",
        *(f"kandy-easy-{k:02d}" for k in range(20)),
        *(f"kandy-hard-{k:02d}" for k in range(18)),
        *(f"vlol-{rule}-{n}" for rule in ("theoryx", "numerical", "complex") for n in (2, 4)),
    }  # fmt: skip
    assert wanted <= names


# ---------------------------------------------------------------------------------------------
# rsbench


def test_mnlogic_is_true_iff_every_written_clause_has_a_true_literal() -> None:
    t = task("mnlogic-3cnf-6")
    bits = ("c1", "c2", "c3", "c4", "c5", "c6")
    # All zeros: clauses 1 (~c2), 2 (~c5), 3 (~c5), 4 (~c6), 5 (~c1) hold.
    assert label(t, **dict(zip(bits, (0, 0, 0, 0, 0, 0)))) == {"y": 1}
    # c1 = c2 = 1, c5 = 0 falsifies clause 1 (-2 5 -1).
    assert label(t, **dict(zip(bits, (1, 1, 0, 0, 0, 0)))) == {"y": 0}
    # c4 = c5 = 1, c1 = 0 falsifies clause 3 (1 -4 -5).
    assert label(t, **dict(zip(bits, (0, 0, 0, 1, 1, 1)))) == {"y": 0}
    # c6 = 1, c1 = c2 = 0 falsifies clause 4 (-6 2 1).
    assert label(t, **dict(zip(bits, (0, 0, 1, 1, 0, 1)))) == {"y": 0}
    # c1 = 1, c2 = 0, c5 = 1, c4 = 1 (clause 2 via c4, clause 3 via c1, clause 5 via c5).
    assert label(t, **dict(zip(bits, (1, 0, 0, 1, 1, 1)))) == {"y": 1}


def test_mnlogic_support_is_half_of_the_vectors_with_both_labels() -> None:
    t = task("mnlogic-3cnf-6")
    assert t.support.size == 32
    assert {t.label_of(r) for r in t.support.rows} == {(0,), (1,)}


def test_mnadd_evenodd_sums_and_trains_on_the_sixteen_same_parity_pairs() -> None:
    t = task("mnadd-evenodd")
    assert label(t, digit_1=3, digit_2=9) == {"sum": 12}
    assert label(t, digit_1=0, digit_2=0) == {"sum": 0}
    pairs = {(0, 6), (2, 8), (4, 6), (4, 8), (1, 5), (3, 7), (1, 9), (3, 9)}
    assert set(t.support.rows) == pairs | {(b, a) for a, b in pairs}
    assert t.support.size == 16


def test_mnmath_checks_a_sum_equation_and_a_product_equation() -> None:
    t = task("mnmath")
    d = {f"digit_{i}": v for i, v in enumerate((1, 2, 3, 0, 2, 3, 3, 2), 1)}
    assert label(t, **d) == {"y1": 1, "y2": 1}  # 1+2 == 3+0, 2*3 == 3*2
    d = {f"digit_{i}": v for i, v in enumerate((0, 0, 0, 1, 0, 3, 2, 0), 1)}
    assert label(t, **d) == {"y1": 0, "y2": 1}  # 0 != 1, 0 == 0
    d = {f"digit_{i}": v for i, v in enumerate((2, 2, 1, 3, 1, 1, 1, 2), 1)}
    assert label(t, **d) == {"y1": 1, "y2": 0}  # 4 == 4, 1 != 2


def test_mnmath_support_is_balanced_over_the_four_label_pairs() -> None:
    t = task("mnmath")
    counts: dict[tuple, int] = {}
    for r in t.support.rows:
        counts[t.label_of(r)] = counts.get(t.label_of(r), 0) + 1
    assert set(counts) == {(0, 0), (0, 1), (1, 0), (1, 1)} and len(set(counts.values())) == 1


KAND = ("shape", "color")


def test_kand_logic_is_positive_when_both_figures_have_all_colors_different() -> None:
    t = task("kand-logic-2")
    fig1 = [("square", "red"), ("square", "yellow"), ("circle", "blue")]  # colors: all different
    fig2 = [("circle", "blue"), ("triangle", "red"), ("triangle", "yellow")]  # colors: all different
    assert label(t, **objects(KAND, *fig1, *fig2)) == {"y": 1}


def test_kand_logic_is_positive_when_both_figures_have_exactly_two_shapes_alike() -> None:
    t = task("kand-logic-2")
    fig1 = [("square", "red"), ("square", "red"), ("circle", "red")]  # two shapes alike, one color
    fig2 = [("circle", "blue"), ("triangle", "red"), ("triangle", "yellow")]  # two alike, 3 colors
    assert label(t, **objects(KAND, *fig1, *fig2)) == {"y": 1}


def test_kand_logic_is_negative_when_neither_pattern_is_shared() -> None:
    t = task("kand-logic-2")
    fig1 = [("square", "red"), ("square", "red"), ("square", "red")]  # same shape, same color
    fig2 = [("circle", "blue"), ("triangle", "red"), ("square", "red")]  # all shapes differ, two colors
    assert label(t, **objects(KAND, *fig1, *fig2)) == {"y": 0}


def test_kand_logic_with_three_figures_needs_all_three_to_share_the_pattern() -> None:
    t = task("kand-logic-3")
    same = [("square", "red"), ("square", "red"), ("square", "red")]
    diff = [("square", "red"), ("circle", "yellow"), ("triangle", "blue")]
    assert label(t, **objects(KAND, *same, *same, *same)) == {"y": 1}
    assert label(t, **objects(KAND, *diff, *diff, *diff)) == {"y": 1}
    assert label(t, **objects(KAND, *same, *same, *diff)) == {"y": 0}


CLE = ("color", "shape", "mat", "size")


@pytest.mark.parametrize("name", ["cle4evr-2-reduced", "cle4evr-2-full"])
def test_cle4evr_is_positive_iff_the_two_objects_share_color_and_shape(name: str) -> None:
    t = task(name)
    assert label(t, **objects(CLE, (1, 2, "rubber", "large"), (1, 2, "metal", "small"))) == {"y": 1}
    assert label(t, **objects(CLE, (1, 2, "rubber", "large"), (1, 0, "rubber", "large"))) == {"y": 0}
    assert label(t, **objects(CLE, (1, 2, "rubber", "large"), (0, 2, "rubber", "large"))) == {"y": 0}


def test_cle4evr_domains_reduced_and_full() -> None:
    reduced, full = task("cle4evr-2-reduced"), task("cle4evr-2-full")
    sizes = {c.name: len(c.values) for c in full.concepts}
    assert sizes == {f"{a}_{i}": n for i in (1, 2) for a, n in zip(CLE, (10, 10, 2, 3))}
    assert reduced.support.exhaustive and reduced.support.size == 54**2


SDD = [
    "red_light",
    "green_light",
    "car",
    "person",
    "rider",
    "other_obstacle",
    "follow",
    "stop_sign",
    "left_lane",
    "left_green_light",
    "left_follow",
    "no_left_lane",
    "left_obstacle",
    "left_solid_line",
    "right_lane",
    "right_green_light",
    "right_follow",
    "no_right_lane",
    "right_obstacle",
    "right_solid_line",
    "clear",
]


def scene(**on) -> dict:
    """An SDD-OIA concept vector: the named concepts are 1, all others 0."""
    return {c: int(c in on) for c in SDD}


def test_sdd_oia_green_light_and_clear_road_mean_forward() -> None:
    t = task("sdd-oia")
    assert t.names == SDD
    assert label(t, **scene(green_light=1, clear=1)) == {"stop": 0, "forward": 1, "left": 0, "right": 0}


def test_sdd_oia_red_light_or_obstacle_or_stop_sign_mean_stop() -> None:
    t = task("sdd-oia")
    for cause in ("red_light", "stop_sign"):
        assert label(t, **scene(**{cause: 1}, clear=1)) == {"stop": 1, "forward": 0, "left": 0, "right": 0}
    for obstacle in ("car", "person", "rider", "other_obstacle"):
        assert label(t, **scene(**{obstacle: 1}, green_light=1))["stop"] == 1


def test_sdd_oia_green_light_overrides_a_red_light_as_in_the_generator() -> None:
    t = task("sdd-oia")
    assert label(t, **scene(red_light=1, green_light=1, clear=1))["stop"] == 0


def test_sdd_oia_turns_need_a_reason_and_no_blocker() -> None:
    t = task("sdd-oia")
    assert label(t, **scene(left_follow=1, clear=1))["left"] == 1
    assert label(t, **scene(left_lane=1, left_solid_line=1, clear=1))["left"] == 0
    assert label(t, **scene(right_green_light=1, clear=1))["right"] == 1
    assert label(t, **scene(right_lane=1, no_right_lane=1, clear=1))["right"] == 0


def test_sdd_oia_ambulance_crosses_red_lights_and_ignores_solid_lines() -> None:
    t = task("sdd-oia-ambulance")
    assert t.names == SDD
    assert label(t, **scene(red_light=1, stop_sign=1, clear=1))["forward"] == 1  # only obstacles stop it
    assert label(t, **scene(person=1))["stop"] == 1
    assert label(t, **scene(left_lane=1, left_solid_line=1, clear=1))["left"] == 1
    assert label(t, **scene(left_follow=1, left_green_light=1, clear=1))["left"] == 0  # needs left_lane
    assert label(t, **scene(right_lane=1, right_obstacle=1, clear=1))["right"] == 0


@pytest.mark.parametrize("name", ["sdd-oia", "sdd-oia-ambulance"])
def test_sdd_oia_support_keeps_clear_consistent_and_lights_exclusive_and_is_balanced(name: str) -> None:
    t = task(name)
    counts: dict[tuple, int] = {}
    for r in t.support.rows:
        c = dict(zip(SDD, r))
        obstacle = c["car"] or c["person"] or c["rider"] or c["other_obstacle"]
        assert c["clear"] == 1 - obstacle
        assert not (c["red_light"] and c["green_light"])
        counts[t.label_of(r)] = counts.get(t.label_of(r), 0) + 1
    assert len(counts) == 8 and len(set(counts.values())) == 1


# ---------------------------------------------------------------------------------------------
# KANDY

SHAPES = ("triangle", "square", "circle")
COLOURS = ("red", "green", "blue", "cyan", "magenta", "yellow")
EASY_SINGLE = {
    0: ("shape", "triangle"),
    1: ("shape", "square"),
    2: ("shape", "circle"),
    3: ("color", "red"),
    4: ("color", "green"),
    5: ("color", "blue"),
    6: ("color", "cyan"),
    7: ("color", "magenta"),
    8: ("color", "yellow"),
}


@pytest.mark.parametrize("k", sorted(EASY_SINGLE))
def test_kandy_easy_single_object_is_positive_iff_it_has_the_target_attribute(k: int) -> None:
    t = task(f"kandy-easy-{k:02d}")
    attr, value = EASY_SINGLE[k]
    for shape in SHAPES:
        for color in COLOURS:
            for size in ("small", "large"):
                obj = {"shape": shape, "color": color, "size": size}
                want = int(obj[attr] == value)
                assert label(t, shape_1=shape, color_1=color, size_1=size) == {"y": want}


SCZ = ("shape", "color", "size")


def kandy_y(t, *objs: str) -> int:
    """y of a KANDY scene given object by object as "shape color size" or "shape color" (size
    small), for the tasks whose objects have shape, color and size."""
    rows = [tuple(o.split()) if len(o.split()) == 3 else (*o.split(), "small") for o in objs]
    return label(t, **objects(SCZ, *rows))["y"]


def test_kandy_easy_09_needs_the_rightmost_object_to_be_a_red_triangle() -> None:
    t = task("kandy-easy-09")
    assert kandy_y(t, "circle blue", "triangle red") == 1
    assert kandy_y(t, "triangle red", "circle red") == 0
    assert kandy_y(t, "triangle red", "triangle green") == 0


def test_kandy_easy_11_needs_a_red_triangle_last_and_a_circle_somewhere() -> None:
    t = task("kandy-easy-11")
    assert kandy_y(t, "square blue", "circle cyan", "triangle red") == 1
    assert kandy_y(t, "circle blue", "square cyan", "triangle red") == 1
    assert kandy_y(t, "square blue", "square cyan", "triangle red") == 0
    assert kandy_y(t, "circle blue", "circle cyan", "triangle blue") == 0


def test_kandy_easy_13_needs_a_triangle_and_a_square_of_one_color() -> None:
    t = task("kandy-easy-13")
    assert kandy_y(t, "square cyan", "triangle cyan") == 1
    assert kandy_y(t, "triangle red", "square red") == 1
    assert kandy_y(t, "triangle red", "square blue") == 0
    assert kandy_y(t, "triangle red", "triangle red") == 0


def test_kandy_easy_14_is_a_palindrome_of_whole_objects() -> None:
    t = task("kandy-easy-14")
    a, b = ("circle", "red", "small"), ("square", "blue", "large")
    assert label(t, **objects(SCZ, a, b, a)) == {"y": 1}
    assert label(t, **objects(SCZ, a, a, a)) == {"y": 1}
    assert label(t, **objects(SCZ, a, b, ("circle", "red", "large"))) == {"y": 0}  # size differs
    assert label(t, **objects(SCZ, a, a, b)) == {"y": 0}


@pytest.mark.parametrize(
    ("k", "n", "attr"), [(0, 2, "color"), (1, 2, "shape"), (2, 3, "color"), (3, 3, "shape")]
)
def test_kandy_hard_0_to_3_want_a_group_sharing_one_attribute(k: int, n: int, attr: str) -> None:
    t = task(f"kandy-hard-{k:02d}")
    uniform = ["circle red small", "circle red large", "circle red small"][:n]  # size is not read
    mixed = ["circle red", "square blue", "circle red"][:n]  # neither attribute shared by all
    if attr == "color":
        same_attr_only = ["circle red", "square red", "triangle red"][:n]
    else:
        same_attr_only = ["circle red", "circle blue", "circle green"][:n]
    assert kandy_y(t, *uniform) == 1
    assert kandy_y(t, *same_attr_only) == 1
    assert kandy_y(t, *mixed) == 0


def test_kandy_hard_09_wants_one_shape_in_every_group() -> None:
    t = task("kandy-hard-09")
    # groups: objects 1-2 and 3-4
    assert kandy_y(t, "circle red", "square red", "triangle blue", "square cyan") == 1
    assert kandy_y(t, "circle red", "circle red", "triangle red", "square red") == 0


def test_kandy_hard_10_wants_one_color_in_every_group() -> None:
    t = task("kandy-hard-10")
    assert kandy_y(t, "circle red", "square cyan", "circle blue", "square cyan") == 1
    assert kandy_y(t, "circle red", "circle red", "circle blue", "circle green") == 0


def test_kandy_hard_12_is_a_palindrome_of_four_whole_objects() -> None:
    t = task("kandy-hard-12")
    a, b = ("circle", "red", "small"), ("square", "blue", "large")
    assert label(t, **objects(SCZ, a, b, b, a)) == {"y": 1}
    assert label(t, **objects(SCZ, a, b, a, b)) == {"y": 0}
    assert label(t, **objects(SCZ, a, b, b, ("circle", "red", "large"))) == {"y": 0}


def test_kandy_hard_13_pairs_from_the_ends_share_shape_or_color() -> None:
    t = task("kandy-hard-13")
    assert kandy_y(t, "circle red", "square blue", "square cyan", "circle green") == 1
    assert kandy_y(t, "circle red", "square blue", "triangle blue", "square red") == 1
    assert kandy_y(t, "circle red", "square blue", "triangle cyan", "square red") == 0
    assert kandy_y(t, "circle red", "square blue", "square blue", "square green") == 0


# ---------------------------------------------------------------------------------------------
# V-LoL


def car(**attrs):
    return attrs


def train(t, *cars) -> dict:
    """Labels of a train given car by car (attribute -> value); attributes the task lacks are dropped."""
    values = {f"{a}_{i}": v for i, c in enumerate(cars, 1) for a, v in c.items() if f"{a}_{i}" in t.names}
    return label(t, **values)


PLAIN = dict(colour="red", car_length="long", roof="none", axles=2, load_num=0, load_shape="none")


@pytest.mark.parametrize("n", [2, 4])
def test_vlol_theory_x_a_short_closed_car_is_eastbound(n: int) -> None:
    t = task(f"vlol-theoryx-{n}")
    cars = [dict(PLAIN) for _ in range(n)]
    assert train(t, *cars) == {"eastbound": 0}
    cars[-1] = dict(PLAIN, car_length="short", roof="peaked")
    assert train(t, *cars) == {"eastbound": 1}
    cars[-1] = dict(PLAIN, car_length="short", roof="frame")  # the file's choice: frame is closed
    assert train(t, *cars) == {"eastbound": 1}
    cars[-1] = dict(PLAIN, car_length="short", roof="none")
    assert train(t, *cars) == {"eastbound": 0}


@pytest.mark.parametrize("n", [2, 4])
def test_vlol_theory_x_golden_vase_must_be_in_front_of_the_barrel(n: int) -> None:
    t = task(f"vlol-theoryx-{n}")
    cars = [dict(PLAIN) for _ in range(n)]
    cars[0], cars[-1] = dict(PLAIN, load_shape="golden_vase"), dict(PLAIN, load_shape="barrel")
    assert train(t, *cars) == {"eastbound": 1}
    cars[0], cars[-1] = dict(PLAIN, load_shape="barrel"), dict(PLAIN, load_shape="golden_vase")
    assert train(t, *cars) == {"eastbound": 0}


@pytest.mark.parametrize("n", [2, 4])
def test_vlol_numerical_position_equals_loads_equals_axles(n: int) -> None:
    t = task(f"vlol-numerical-{n}")
    cars = [dict(PLAIN, load_num=1, axles=3) for _ in range(n)]
    assert train(t, *cars) == {"eastbound": 0}
    cars[1] = dict(PLAIN, load_num=2, axles=2)  # car 2: 2 loads, 2 axles
    assert train(t, *cars) == {"eastbound": 1}
    cars[1] = dict(PLAIN, load_num=2, axles=3)
    assert train(t, *cars) == {"eastbound": 0}
    cars[0] = dict(PLAIN, load_num=1, axles=2)  # car 1 cannot: it has at least 2 axles
    assert train(t, *cars) == {"eastbound": 0}
    if n == 4:
        cars[2] = dict(PLAIN, load_num=3, axles=3)  # car 3: 3 loads, 3 axles
        assert train(t, *cars) == {"eastbound": 1}


@pytest.mark.parametrize("n", [2, 4])
def test_vlol_complex_a_car_with_more_loads_and_axles_than_its_position(n: int) -> None:
    t = task(f"vlol-complex-{n}")
    colours = ["red", "red", "red", "red"][:n]
    cars = [dict(PLAIN, colour=c, load_num=0) for c in colours]
    assert train(t, *cars) == {"eastbound": 0}
    cars[0] = dict(PLAIN, colour="red", load_num=2, axles=2)  # 1 < 2 loads, 1 < 2 axles
    assert train(t, *cars) == {"eastbound": 1}
    cars[0] = dict(PLAIN, colour="red", load_num=1, axles=3)  # 1 < 1 fails
    assert train(t, *cars) == {"eastbound": 0}


@pytest.mark.parametrize("n", [2, 4])
def test_vlol_complex_short_car_before_the_axles_of_a_long_car_of_its_colour(n: int) -> None:
    t = task(f"vlol-complex-{n}")
    cars = [dict(PLAIN, colour="red") for _ in range(n)]
    cars[0] = dict(PLAIN, colour="blue", car_length="short")
    cars[1] = dict(PLAIN, colour="blue", car_length="long", axles=2)  # position 1 < 2 axles
    assert train(t, *cars) == {"eastbound": 1}
    cars[1] = dict(PLAIN, colour="green", car_length="long", axles=2)
    if n == 2:
        assert train(t, *cars) == {"eastbound": 0}
    cars[0] = dict(PLAIN, colour="blue", car_length="long")
    cars[1] = dict(PLAIN, colour="blue", car_length="short")
    # short car at position 2 needs a long car of its colour with 3 axles
    assert train(t, *cars) == {"eastbound": 0}
    cars[0] = dict(PLAIN, colour="blue", car_length="long", axles=3)
    assert train(t, *cars) == {"eastbound": 1}


def test_vlol_complex_three_colours_only_with_three_cars() -> None:
    two, four = task("vlol-complex-2"), task("vlol-complex-4")
    assert train(two, dict(PLAIN, colour="red"), dict(PLAIN, colour="blue")) == {"eastbound": 0}
    cars = [dict(PLAIN, colour=c) for c in ("red", "blue", "red", "green")]
    assert train(four, *cars) == {"eastbound": 1}
    cars = [dict(PLAIN, colour=c) for c in ("red", "blue", "red", "blue")]
    assert train(four, *cars) == {"eastbound": 0}


@pytest.mark.parametrize("name", sorted(p.stem for p in FILES if p.stem.startswith(("vlol", "kand"))))
def test_sampled_supports_are_class_balanced(name: str) -> None:
    t = task(name)
    if t.support.exhaustive:
        return
    counts: dict[tuple, int] = {}
    for r in t.support.rows:
        counts[t.label_of(r)] = counts.get(t.label_of(r), 0) + 1
    assert len(counts) == 2 and len(set(counts.values())) == 1


def test_the_balanced_row_writer_keeps_a_constraint() -> None:
    """tasks/make_rows.py's --where is read like a label: check it on SDD-OIA's constraint."""
    t = task("sdd-oia")
    where = parse(
        "Equivalent(clear, ~(car | person | rider | other_obstacle)) & ~(red_light & green_light)", t.names
    )
    for r in t.support.rows:
        assert evaluate(where, dict(zip(t.names, r))) == 1


# ---------------------------------------------------------------------------------------------
# Counts of the small tasks: an exact backend agrees with auto (auto may be ApproxMC: then within
# its epsilon bound, a guarantee that holds with probability 1 - delta; the seed is fixed).

OPTIONS = CountSettings(epsilon=0.8, delta=0.2, seed=1)
SMALL = {  # file -> exact backend; every entry counts in a few seconds
    **{f"kandy-easy-{k:02d}": "sdd" for k in range(9)},
    "mnlogic-3cnf-6": "sdd",
    "mnadd-evenodd": "enumerate",
    "vlol-numerical-2": "sdd",
}
# Counts measured by two methods: SDD and a hand derivation (shape tasks: 2 x 2 maps of the shape,
# times (6^6 * 2^2 + 2^6 * 6^2) for colour and size; colour tasks: 5^5 maps of the colour, times
# (3^3 * 2^2 + 2^3 * 3^2)); mnlogic: SDD and enumeration.
KNOWN = {
    **{f"kandy-easy-{k:02d}": 4 * (6**6 * 4 + 2**6 * 36) for k in range(3)},
    **{f"kandy-easy-{k:02d}": 5**5 * (27 * 4 + 8 * 9) for k in range(3, 9)},
    "mnlogic-3cnf-6": 12,
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_tasks_count_the_same_exactly_and_by_auto(name: str) -> None:
    encoding = encode(task(name), "disentangled")
    exact = count_problem(CountProblem.of(encoding), OPTIONS.replace(method=SMALL[name]))
    auto = count_problem(CountProblem.of(encoding), OPTIONS)
    assert exact.exact
    if auto.exact:
        assert auto.count == exact.count
    else:
        assert exact.count / 1.8 <= auto.count <= exact.count * 1.8
    if name in KNOWN:
        assert exact.count == KNOWN[name]


# ---------------------------------------------------------------------------------------------
# The pinned counts again without the symmetry reduction: every permutation (objects mode: every
# pair of object and attribute maps) that survives SAT pruning is counted on its own, so the
# symmetry analysis (blocks, families of blocks, object and attribute swaps) and the class sizes
# are checked on the tasks themselves. Each takes under 15 s (2 cores) but kand-logic-2 (33 s:
# 144 pairs survive instead of 2 classes). KANDY Hard 11 and 17 are left out: their groups are
# exchangeable only as wholes, which no swap of two objects finds (every block a singleton), so
# the check would repeat the pinned count that `rscount report` checks in .ci/run (45 s each;
# tests/test_kandy_scenes.py checks their knowledge against the rules). kand-logic-3 takes over
# 150 s so: it is counted without the exchange of whole figures only (17 s, 12 classes instead of 2).
# SDD-OIA's counts are checked without the label-group factors instead (20 s and 40 s). MNMath
# (digits 0-9) takes 166 s so; its count is checked by enumerating the whole CNF instead
# (tests/test_catalogue.py, 90 s, with --slow). Those over 8 s run with --slow only.

WITHOUT_SYMMETRY = [
    *(f"kandy-easy-{k:02d}" for k in range(9, 20)),
    *(f"kandy-hard-{k:02d}" for k in range(18) if k not in (11, 17)),
    *(f"vlol-{rule}-{n}" for rule in ("theoryx", "numerical", "complex") for n in (2, 4)),
    "mnadd-evenodd", "cle4evr-2-reduced", "cle4evr-2-full", "kand-logic-2",
]  # fmt: skip
COUNTED_SLOWLY = {"cle4evr-2-full", "kand-logic-2", "kandy-hard-12", "kandy-hard-14"}


def _singletons(n: int) -> list[list[int]]:
    return [[i] for i in range(n)]


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in COUNTED_SLOWLY else n for n in WITHOUT_SYMMETRY]
)
def test_pinned_count_holds_without_the_symmetry_reduction(name: str, monkeypatch) -> None:
    def no_object_symmetry(t) -> dict[str, list[list[int]]]:
        n, m = t.objects.count, len(t.objects.attributes)
        blocks = {f"{side} {what}": _singletons(size) for side in ("knowledge", "support")
                  for what, size in (("objects", n), ("attributes", m))}  # fmt: skip
        return {**blocks, "knowledge object families": [], "knowledge attribute families": []}

    monkeypatch.setattr(planning, "interchangeable_blocks", lambda t: _singletons(len(t.concepts)))
    monkeypatch.setattr(planning, "support_blocks", lambda t, blocks: _singletons(len(t.concepts)))
    monkeypatch.setattr(planning, "interchangeable_families", lambda t, blocks: [])
    monkeypatch.setattr(planning, "object_blocks", no_object_symmetry)
    t = task(name)
    result = backend_result("decompose", t)
    assert result.count == t.expect["count"]


def test_pinned_count_holds_without_label_group_factors(monkeypatch) -> None:
    # SDD-OIA's label groups counted as one group (on sdd-oia alone: sdd-oia-ambulance took 42 s more)
    def one_group(coding: value_codes.ValueMapCoding) -> list[tuple[list[str], list[int]]]:
        return [(list(coding.task.labels), list(range(len(coding.task.concepts))))]

    monkeypatch.setattr(value_codes.ValueMapCoding, "label_groups", one_group)
    t = task("sdd-oia")
    result = backend_result("decompose", t)
    assert "label_groups" not in result.details
    assert result.count == t.expect["count"]


def test_kand_logic_3_pinned_count_holds_without_exchanging_whole_figures(monkeypatch) -> None:
    def without_families(t) -> dict[str, list[list[int]]]:
        blocks = object_blocks(t)
        return {**blocks, "knowledge object families": [], "knowledge attribute families": []}

    monkeypatch.setattr(planning, "object_blocks", without_families)
    t = task("kand-logic-3")
    result = backend_result("decompose", t, "objects")
    assert result.details["classes"] == 12
    assert result.count == t.expect["count"]


@pytest.mark.parametrize("name", ["kandy-easy-09", "kandy-hard-03", "vlol-theoryx-4"])
def test_approxmc_on_the_whole_objects_cnf_brackets_the_pinned_count(name: str) -> None:
    """An independent route: ApproxMC on the task's whole CNF, no decomposition (fixed seed, so the
    (epsilon, delta) guarantee is one fixed draw)."""
    t = task(name)
    estimate = count_problem(CountProblem.of(encode(t, "objects")), OPTIONS.replace(method="approxmc"))
    pinned = t.expect["count"]
    assert pinned / (1 + OPTIONS.epsilon) <= estimate.count <= pinned * (1 + OPTIONS.epsilon)
