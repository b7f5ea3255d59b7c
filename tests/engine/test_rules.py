"""Rule sets: presets as data (rules.md §5), documented knobs, overrides and clear errors."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine.contract import Trump
from engine.rules import KNOBS, PRESETS, RulesError, RuleSet, find_rules, knob_doc

# rules.md §5, one row per notable knob value.
PRESET_TABLE = [
    ("ffb-coinche", "undertrump", "optional"),
    ("ffb-coinche", "overtrump_partner_on_cut", False),
    ("ffb-coinche", "contract_rule", "ffb"),
    ("ffb-coinche", "capot", "ffb"),
    ("ffb-coinche", "target", 1501),
    ("ffb-coinche", "annonces", True),
    ("ffb-coinche", "direction", "counterclockwise"),
    ("funbelote-contree", "trump_led_overtrump_partner", False),
    ("funbelote-contree", "belote_on_failure", "to_defence"),
    ("funbelote-contree", "scoring_mode", "made+bid"),
    ("funbelote-contree", "annonces", False),
    ("funbelote-contree", "target", 1000),
    ("funbelote-contree", "coinched_scoring", "multiply-bid"),
    ("funbelote-contree", "coinched_made_base", "failed_base"),
    ("gameduell-contree", "direction", "clockwise"),
    ("gameduell-contree", "bid_max", 160),
    ("gameduell-contree", "capot_bid", 260),
    ("gameduell-contree", "generale_bid", 500),
    ("gameduell-contree", "failed_base", 162),
    ("gameduell-contree", "surcoinche_multiplier", 4),
    ("gameduell-contree", "generale_last_trick", 350),
    ("gameduell-contree", "annonces", False),
    ("gameduell-contree", "capot", "ffb"),  # 003: "le dernier pli vaut alors 100 points"
    ("gameduell-contree", "rounding", "none"),
    ("gameduell-contree", "contract_rule", "ffb"),  # 003: a litige loses; "contrat de 82"
    ("gameduell-contree", "coinched_scoring", "multiply-bid"),
    ("gameduell-contree", "coinched_made_base", "points"),
    ("coinche-1000", "undertrump", "required"),
    ("coinche-1000", "overtrump_partner_on_cut", True),
    ("coinche-1000", "tout_atout_points", "J14-9:9-A6-T5-K3-Q1"),
    ("coinche-1000", "contract_rule", "card82-and-bid"),
    ("coinche-1000", "capot", "flat250"),
    ("coinche-1000", "target", 1000),
    ("coinche-1000", "carre_nines_at_sa", False),
    ("coinche-1000", "game_end", "after-deal-highest"),
    ("coinchepassion-belote", "auction", "belote"),
    ("coinchepassion-belote", "undertrump", "required"),
    ("coinchepassion-belote", "contract_rule", "belote82"),
    ("coinchepassion-belote", "capot", "flat250"),
    ("coinchepassion-belote", "no_end_on_belote", True),
    ("coinchepassion-belote", "annonces", False),
    ("belote-501", "auction", "belote"),
    ("belote-501", "annonces", True),
    ("belote-501", "capot", "plus90"),
    ("belote-501", "litige", "reserve"),
    ("belote-501", "target", 501),
    ("belote-501", "failed_base", 162),  # "tous ses points iront au binôme adverse"
]


@pytest.mark.parametrize(("preset", "knob", "value"), PRESET_TABLE)
def test_preset_knob(preset: str, knob: str, value: object) -> None:
    assert getattr(find_rules(preset), knob) == value


def test_six_presets_with_their_names() -> None:
    assert sorted(PRESETS) == sorted(["ffb-coinche", "funbelote-contree", "gameduell-contree",
                                      "coinche-1000", "coinchepassion-belote", "belote-501"])
    for name, rules in PRESETS.items():
        assert rules.name == name


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_trump_modes(preset: str) -> None:
    rules = PRESETS[preset]
    suits = {Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS}
    assert suits <= set(rules.trump_modes)
    with_sa_ta = preset in ("ffb-coinche", "funbelote-contree", "coinche-1000")
    assert (Trump.NO_TRUMP in rules.trump_modes) == with_sa_ta
    assert (Trump.ALL_TRUMP in rules.trump_modes) == with_sa_ta


def test_every_knob_is_documented_with_its_choices() -> None:
    for f in dataclasses.fields(RuleSet):
        doc = f.metadata["doc"]
        assert len(doc) > 20, f"knob {f.name} needs documentation"
        for choice in f.metadata["choices"] or ():
            assert str(choice) in doc, f"knob {f.name}: value {choice!r} not documented"
    assert "FFB" in knob_doc("undertrump")


def test_each_choice_knob_value_is_used_by_some_preset_or_documented_as_an_option() -> None:
    used = {(k, getattr(p, k)) for p in PRESETS.values() for k in KNOBS}
    for f in dataclasses.fields(RuleSet):
        for choice in f.metadata["choices"] or ():
            if (f.name, choice) not in used:
                assert f.name in ("scoring_mode", "false_announce"), (f.name, choice)


def test_overrides_and_round_trip() -> None:
    rules = find_rules({"preset": "coinche-1000", "undertrump": "optional", "target": 2000,
                        "trump_modes": ["S", "H", "SA"]})
    assert rules.undertrump == "optional" and rules.target == 2000
    assert rules.trump_modes == (Trump.SPADES, Trump.HEARTS, Trump.NO_TRUMP)
    assert rules.name == "coinche-1000" and rules.overtrump_partner_on_cut
    for preset in PRESETS.values():
        knobs = {k: v for k, v in preset.to_json().items() if k != "name"}
        assert find_rules({"preset": "ffb-coinche", **knobs}) == dataclasses.replace(
            preset, name="ffb-coinche")
    assert find_rules("ffb-coinche").with_overrides(litige="reserve").litige == "reserve"
    assert find_rules(" FFB-Coinche ") is PRESETS["ffb-coinche"]


def test_clockwise_property() -> None:
    assert find_rules("gameduell-contree").clockwise
    assert not find_rules("ffb-coinche").clockwise


@pytest.mark.parametrize(("spec", "words"), [
    ("ffb", ["unknown preset", "'ffb'", "ffb-coinche"]),
    ({"preset": "ffb-coinche", "undertrump": "maybe"}, ["undertrump", "'maybe'", "required"]),
    ({"preset": "ffb-coinche", "no_such_knob": 1}, ["unknown knob", "no_such_knob"]),
    ({"preset": "ffb-coinche", "target": "1000"}, ["target", "'1000'"]),
    ({"preset": "ffb-coinche", "target": True}, ["target", "True"]),
    ({"preset": "ffb-coinche", "annonces": 1}, ["annonces", "1"]),
    ({"preset": "ffb-coinche", "trump_modes": ["X"]}, ["trump_modes", "'X'"]),
    ({"preset": "ffb-coinche", "trump_modes": "SA"}, ["trump_modes"]),
    ({"preset": "ffb-coinche", "tout_atout_points": "J20-9:9-A6-T5-K3-Q2"}, ["162"]),
    ({"preset": "ffb-coinche", "bid_min": 200}, ["bid_min"]),
    ({"undertrump": "optional"}, ["preset"]),
    (42, ["preset name"]),
])
def test_errors_name_what_is_wrong(spec: object, words: list[str]) -> None:
    with pytest.raises(RulesError) as exc:
        find_rules(spec)  # type: ignore[arg-type]
    assert isinstance(exc.value, ValueError)
    for word in words:
        assert word in str(exc.value)


@pytest.mark.parametrize(("spec", "message"), [
    ({"preset": "ffb-coinche", "targett": 1}, "unknown knob 'targett'; did you mean 'target'?"),
    ("ffb-coinch", "unknown preset 'ffb-coinch'; did you mean 'ffb-coinche'?"),
    ({"preset": "belote501"}, "unknown preset 'belote501'; did you mean 'belote-501'?"),
])
def test_a_near_miss_gets_a_suggestion(spec: object, message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message) + "$"):
        find_rules(spec)  # type: ignore[arg-type]


def test_a_far_miss_lists_every_knob() -> None:
    with pytest.raises(RulesError, match=r"knobs are: direction, .*, game_end$"):
        find_rules({"preset": "ffb-coinche", "zzz": 1})


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_overrides_are_the_knobs_changed_from_the_preset(preset: str) -> None:
    assert find_rules(preset).overrides() == {}
    changed = find_rules({"preset": preset, "target": 777, "rounding": "none"})
    expected = {"target": 777} | ({} if PRESETS[preset].rounding == "none" else
                                  {"rounding": "none"})
    assert changed.overrides() == expected


def test_no_preset_names_in_engine_code() -> None:
    """Presets are data: no `if preset == ...` (or `in (...)`) anywhere in the engine."""
    engine = Path(__file__).resolve().parents[2] / "engine"
    names = "|".join(re.escape(n) for n in PRESETS)
    pattern = re.compile(r"(==|!=|\bin\b|\bcase\b)\s*[(\[{]?[^\n]{0,60}?[\"'](" + names + ")")
    for path in engine.glob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if path.name != "rules.py" or "PRESETS[" not in line:
                assert not pattern.search(line), f"{path.name}:{n} tests a preset name: {line}"
