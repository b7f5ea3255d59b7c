"""Plays read in doubt (a camera's record lists their other readings): a violation that one other
reading would clear is marked with it (`unless`), never passed off as a proven revoke."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK
from engine.record import RecordError, judge, load_record
from engine.rules import PRESETS

# Trump spades, dealer E: N leads, then W, S, E (counterclockwise).
# Trick 1: W throws 8D on a heart lead; trick 2 (E won with TH): W plays AH, so W had a heart.
REVOKE = [["N", "7H"], ["W", "8D"], ["S", "9H"], ["E", "TH"],
          ["E", "7C"], ["N", "8C"], ["W", "AH"]]


def _verdict(plays, **kw):
    return judge(load_record({"rules": "ffb-coinche", "dealer": "E",
                              "contract": {"taker": "N", "bid": 80, "trump": "S"},
                              "plays": plays, **kw}))


def _with(plays, index, others):
    out = [list(p) for p in plays]
    out[index] = [*out[index], others]
    return out


def test_a_revoke_read_surely_is_flagged_without_doubt() -> None:
    (v,) = _verdict(REVOKE)["violations"]
    assert (v["play"], v["rule"], v["proven_by"]) == (1, "follow-suit", 6)
    assert "unless" not in v


@pytest.mark.parametrize(
    ("index", "others", "unless"),
    [
        (1, ["8H"], {"play": 1, "card": "8H"}),  # the card may have been a heart: it followed
        (6, ["AD"], {"play": 6, "card": "AD"}),  # the proof may not have been a heart
        (1, ["9D", "KD"], None),  # another diamond breaks the same rule
        (1, ["9H"], None),  # S's 9H is on the table: it cannot be W's card too
        (3, ["TD"], None),  # a doubt elsewhere that changes nothing
    ],
)
def test_a_revoke_one_other_reading_would_clear_is_marked_with_it(index, others, unless) -> None:
    (v,) = _verdict(_with(REVOKE, index, others))["violations"]
    assert (v["play"], v["rule"]) == (1, "follow-suit")
    assert v.get("unless") == unless


def test_a_reading_that_would_break_more_rules_in_all_does_not_put_a_revoke_in_doubt() -> None:
    # W's proof is KH here. Read AH, W's first card would follow hearts, but win the trick
    # the record shows E winning: E's lead and the two plays after it would be out of turn.
    revoke = [*REVOKE[:6], ["W", "KH"]]
    (v,) = _verdict(_with(revoke, 1, ["AH"]))["violations"]
    assert (v["play"], v["rule"], v["proven_by"]) == (1, "follow-suit", 6)
    assert "unless" not in v
    (v,) = _verdict(_with(revoke, 1, ["AH", "8H"]))["violations"]
    assert v["unless"] == {"play": 1, "card": "8H"}  # a heart that loses clears it


def test_out_of_turn_plays_after_a_misread_winner_are_marked_with_the_reading() -> None:
    # N's QD read as QH: nobody followed hearts, so N seems to win and W's lead looks out of
    # turn; as QD, W's KD wins and leads.
    plays = [["N", "QH", ["QD"]], ["W", "KD"], ["S", "8D"], ["E", "9D"],
             ["W", "7C"], ["S", "8C"], ["E", "9C"], ["N", "TC"]]
    sure = _verdict([p[:2] for p in plays])["violations"]
    assert sure and {v["rule"] for v in sure} >= {"out-of-turn"}
    doubted = _verdict(plays)["violations"]
    assert [(v["play"], v["rule"]) for v in doubted] == [(v["play"], v["rule"]) for v in sure]
    assert all(v["unless"] == {"play": 0, "card": "QD"} for v in doubted)


def test_other_readings_round_trip_and_bad_ones_are_named() -> None:
    record = load_record({"rules": "ffb-coinche", "dealer": "E",
                          "contract": {"taker": "N", "bid": 80, "trump": "S"},
                          "plays": _with(REVOKE, 1, ["8H", "8D", "9D"])})
    deal = record.deals[0]
    assert deal.to_json()["plays"][1] == ["W", "8D", ["8H", "9D"]]  # the card read is no other
    for plays, message in (
        ([["N", None, ["7H"]]], "plays[0][2]: an unread play (card null) has no other readings"),
        ([["N", "7H", "8H"]], "plays[0][2]: expected a list of cards"),
        ([["N", "7H", ["XH"]]], "plays[0][2][0]: unknown card 'XH'"),
        ([["N", "7H", ["8H"], 1]], "plays[0]: expected [seat, card] or [seat, card, [other"),
    ):
        with pytest.raises(RecordError, match=re.escape(message)):
            load_record({"rules": "ffb-coinche", "dealer": "E",
                         "contract": {"taker": "N", "bid": 80, "trump": "S"}, "plays": plays})


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), n=st.integers(min_value=8, max_value=28))
def test_a_mark_names_a_reading_that_really_clears_it(gen, seed, n) -> None:
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS["ffb-coinche"], revoke_rate=0.3)
    plays = [[str(s), str(c)] for s, c in p.plays[:n]]
    base = {"rules": "ffb-coinche", "dealer": str(p.dealer), "contract": p.contract.to_json()}
    unplayed = sorted(set(map(str, DECK)) - {c for _s, c in plays})
    doubted = [list(x) for x in plays]
    for i in rng.sample(range(n), 3):
        doubted[i] = [*plays[i], rng.sample(unplayed, 2)]
    sure = judge(load_record({**base, "plays": plays}))["violations"]
    found = judge(load_record({**base, "plays": doubted}))["violations"]
    # The same violations are found; doubt only marks them.
    assert [(v["play"], v["rule"]) for v in found] == [(v["play"], v["rule"]) for v in sure]
    for v in found:
        if "unless" not in v:
            continue
        k, card = v["unless"]["play"], v["unless"]["card"]
        assert card in doubted[k][2]
        trial = [list(x) for x in plays]
        trial[k] = [plays[k][0], card]
        again = judge(load_record({**base, "plays": trial}))["violations"]
        assert (v["play"], v["rule"]) not in {(w["play"], w["rule"]) for w in again}
        assert len(again) <= len(sure)  # (a story breaking more rules in all is no doubt)


def test_the_score_sheet_says_which_card_to_check() -> None:
    from engine.sheet import score_sheet

    record = load_record({"rules": "ffb-coinche", "dealer": "E",
                          "contract": {"taker": "N", "bid": 80, "trump": "S"},
                          "plays": _with(REVOKE, 1, ["8H"])})
    text = score_sheet(record)
    assert "play 1 (trick 1): W 8D - follow-suit" in text
    assert "to check: no fault if play 1 was 8H (a reading in doubt)" in text
