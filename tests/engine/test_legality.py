"""Legality tables (tests/engine/cases/legality/*.json) and consistency of the legality views."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.cards import DECK, parse_cards
from engine.contract import Trump
from engine.legality import (
    PLAY_RULES,
    forbidding,
    illegal_reason,
    legal_cards,
    legal_mask,
    reason_from,
)
from engine.rules import PRESETS, find_rules
from engine.tricks import tables

CASES_DIR = Path(__file__).parent / "cases" / "legality"


def _load() -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in sorted(CASES_DIR.glob("*.json")):
        for case in json.loads(path.read_text())["cases"]:
            out.append((f"{path.stem}: {case['name']}", case))
    return out


CASES = _load()


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_legality_case(name: str, case: dict) -> None:
    rules = find_rules(case["rules"])
    trump = Trump.from_str(case["trump"])
    hand = parse_cards(case["hand"])
    trick = parse_cards(case["trick"])
    expected_legal = set(parse_cards(case["legal"]))
    got = legal_cards(hand, trick, trump, rules)
    assert got == expected_legal, (
        f"{name}: legal {sorted(map(str, got))}, expected {sorted(map(str, expected_legal))}")
    for card in hand:
        want = case["illegal"].get(str(card))
        assert (want is None) == (card in expected_legal), f"{name}: table incomplete for {card}"
        reason = illegal_reason(card, hand, trick, trump, rules)
        assert reason == want, f"{name}: {card} judged {reason!r}, expected {want!r}"


def test_cases_cover_every_rule_and_knob() -> None:
    rules_named = {r for _, c in CASES for r in c["illegal"].values()}
    assert rules_named == set(PLAY_RULES)
    presets = {c["rules"] if isinstance(c["rules"], str) else c["rules"]["preset"]
               for _, c in CASES}
    assert presets == set(PRESETS)
    trumps = {c["trump"] for _, c in CASES}
    assert {"SA", "TA"} <= trumps
    for knob in ("undertrump", "trump_led_overtrump_partner", "overtrump_partner_on_cut"):
        values = {getattr(find_rules(c["rules"]), knob) for _, c in CASES}
        assert len(values) == 2, f"cases must try both values of {knob}"


def _random_position(rng: random.Random) -> tuple[int, list[int]]:
    cards = list(range(32))
    rng.shuffle(cards)
    n = rng.randrange(4)
    return sum(1 << c for c in cards[n:n + rng.randint(1, 8)]), cards[:n]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legal_mask_agrees_with_forbidding_sets(preset: str) -> None:
    """A card is legal exactly when the hand holds nothing of its forbidding sets."""
    rng = random.Random(preset)
    rules = PRESETS[preset]
    for _ in range(3000):
        trump = rng.choice(list(Trump))
        t = tables(trump, rules)
        hand, trick = _random_position(rng)
        legal = legal_mask(hand, trick, t, rules)
        assert legal and legal & ~hand == 0, "legal set must be a non-empty part of the hand"
        for c in range(32):
            if hand >> c & 1:
                reason = reason_from(hand, forbidding(c, trick, t, rules))
                assert (reason is None) == bool(legal >> c & 1), (
                    f"{preset} {trump}: {DECK[c]} after {[str(DECK[x]) for x in trick]}: "
                    f"mask says {bool(legal >> c & 1)}, reason {reason}")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legality_only_grows_with_the_hand(preset: str) -> None:
    """An illegal play stays illegal when the hand held more: what lets a camera prove revokes."""
    rng = random.Random(preset + "grow")
    rules = PRESETS[preset]
    for _ in range(2000):
        trump = rng.choice(list(Trump))
        t = tables(trump, rules)
        hand, trick = _random_position(rng)
        extra = hand | (rng.getrandbits(32) & ~sum(1 << c for c in trick))
        legal_small = legal_mask(hand, trick, t, rules)
        legal_big = legal_mask(extra, trick, t, rules)
        assert hand & ~legal_small & legal_big == 0
