"""Auctions: coinche bidding and the belote prise, their ends, errors and dealer rotation."""

from __future__ import annotations

import pytest

from engine.auction import (
    PRISE_BID,
    AuctionError,
    BeloteAuction,
    Call,
    CoincheAuction,
    auction_for,
    next_dealer,
)
from engine.cards import Card, Seat
from engine.contract import Contract, Trump
from engine.rules import PRESETS, find_rules

FFB = PRESETS["ffb-coinche"]


def run(calls: list[str], rules: object = FFB, dealer: Seat = Seat.N) -> CoincheAuction:
    a = CoincheAuction(rules, dealer)  # type: ignore[arg-type]
    for c in calls:
        a.call(c)
    return a


# Dealer N, counterclockwise: W speaks first, then S, E, N.
ENDS = [
    (["80 H", "pass", "pass", "pass"], Contract(Seat.W, 80, Trump.HEARTS)),
    # partner overbids; a player who passed may bid later
    (["80 H", "pass", "90 S", "pass", "pass", "100 C", "pass", "pass", "pass"],
     Contract(Seat.S, 100, Trump.CLUBS)),
    (["pass", "80 D", "pass", "pass", "90 D", "pass", "pass", "pass"],
     Contract(Seat.W, 90, Trump.DIAMONDS)),
    # coinche freezes, three passes end it
    (["80 H", "coinche", "pass", "pass", "pass"], Contract(Seat.W, 80, Trump.HEARTS, 2)),
    # the takers surcoinche: ends at once
    (["80 H", "coinche", "pass", "pass", "surcoinche"], Contract(Seat.W, 80, Trump.HEARTS, 4)),
    (["80 H", "coinche", "surcoinche"], Contract(Seat.W, 80, Trump.HEARTS, 4)),
    (["capot SA", "pass", "pass", "pass"], Contract(Seat.W, "capot", Trump.NO_TRUMP)),
    (["160 TA", "capot S", "coinche", "pass", "pass", "pass"],
     Contract(Seat.S, "capot", Trump.SPADES, 2)),
    (["pass", "pass", "pass", "pass"], None),
]


@pytest.mark.parametrize("calls,contract", ENDS)
def test_coinche_auction_ends(calls: list[str], contract: Contract | None) -> None:
    a = run(calls)
    assert a.is_over and a.turn is None
    assert a.contract == contract
    assert a.thrown_in is (contract is None)


def test_three_passes_do_not_end_without_a_bid() -> None:
    a = run(["pass", "pass", "pass"])
    assert not a.is_over and a.turn is Seat.N and a.contract is None


def test_first_speaker_and_turn_follow_the_direction() -> None:
    assert CoincheAuction(FFB, Seat.N).turn is Seat.W
    assert CoincheAuction(PRESETS["gameduell-contree"], Seat.N).turn is Seat.E
    a = run(["80 H"])
    assert a.turn is Seat.S


@pytest.mark.parametrize("calls,bad,match", [
    ([], "70 H", "bids go from 80 to 160"),
    ([], "85 H", "steps of 10"),
    ([], "170 H", "from 80 to 160"),
    (["90 H"], "90 S", "higher than 90"),
    (["90 H"], "80 S", "higher than 90"),
    (["capot H"], "160 S", "higher than capot"),
    ([], "generale H", "no générale bid"),
    ([], "coinche", "no bid to coinche"),
    (["80 H", "pass"], "coinche", "only an opponent"),  # E is the partner of W
    (["80 H", "coinche"], "coinche", "already coinched"),
    (["80 H", "coinche"], "90 H", "frozen"),
    (["80 H", "coinche", "pass"], "surcoinche", "only the takers"),  # N is the coincher's partner
    (["80 H"], "surcoinche", "only a coinched bid"),
    ([], "take", "not a call of the coinche auction"),
    (["80 H", "pass", "pass", "pass"], "pass", "after the auction is over"),
    ([], "80 X", "cannot read call"),
    ([], "hello", "cannot read call"),
])
def test_coinche_auction_errors(calls: list[str], bad: str, match: str) -> None:
    a = run(calls)
    with pytest.raises(AuctionError, match=match) as info:
        a.call(bad)
    # the error quotes the state: the dealer and the calls so far
    assert "dealer N" in str(info.value) or "cannot read" in str(info.value)
    assert len(a.calls) == len(calls)  # a refused call changes nothing


def test_trump_modes_and_bid_range_come_from_the_rules() -> None:
    with pytest.raises(AuctionError, match="SA is not a trump mode of gameduell-contree"):
        run(["80 SA"], PRESETS["gameduell-contree"])
    assert run(["generale C", "pass", "pass", "pass"], PRESETS["gameduell-contree"]).contract \
        == Contract(Seat.E, "generale", Trump.CLUBS)
    custom = find_rules({"preset": "ffb-coinche", "bid_min": 90, "bid_step": 5, "bid_max": 180,
                         "capot_bid": None})
    assert run(["95 H", "pass", "pass", "pass"], custom).contract == \
        Contract(Seat.W, 95, Trump.HEARTS)
    with pytest.raises(AuctionError, match="no capot bid"):
        run(["capot H"], custom)


@pytest.mark.parametrize("text,call", [
    ("pass", Call("pass")),
    ("Passe", Call("pass")),
    ("80 h", Call("bid", 80, Trump.HEARTS)),
    ("capot TA", Call("bid", "capot", Trump.ALL_TRUMP)),
    ("générale S", Call("bid", "generale", Trump.SPADES)),
    ("contre", Call("coinche")),
    ("surcoinche", Call("surcoinche")),
    ("take", Call("take")),
    ("take D", Call("take", trump=Trump.DIAMONDS)),
])
def test_call_text(text: str, call: Call) -> None:
    assert Call.from_str(text) == call
    assert Call.from_str(str(call)) == call


@pytest.mark.parametrize("preset,dealer,after", [
    ("ffb-coinche", Seat.N, Seat.W), ("ffb-coinche", Seat.E, Seat.N),
    ("gameduell-contree", Seat.N, Seat.E), ("gameduell-contree", Seat.W, Seat.N),
])
def test_next_dealer(preset: str, dealer: Seat, after: Seat) -> None:
    assert next_dealer(dealer, PRESETS[preset]) is after


# --- belote prise ------------------------------------------------------------------------------
CP = PRESETS["coinchepassion-belote"]
TURNED = Card.from_str("9H")


def prise(calls: list[str], dealer: Seat = Seat.N) -> BeloteAuction:
    a = BeloteAuction(CP, dealer, TURNED)
    for c in calls:
        a.call(c)
    return a


@pytest.mark.parametrize("calls,contract", [
    (["take"], Contract(Seat.W, PRISE_BID, Trump.HEARTS)),
    (["pass", "pass", "take H"], Contract(Seat.E, PRISE_BID, Trump.HEARTS)),
    (["pass"] * 4 + ["pass", "take S"], Contract(Seat.S, PRISE_BID, Trump.SPADES)),
    (["pass"] * 8, None),
])
def test_prise(calls: list[str], contract: Contract | None) -> None:
    a = prise(calls)
    assert a.is_over and a.contract == contract and a.thrown_in is (contract is None)


@pytest.mark.parametrize("calls,bad,match", [
    ([], "take S", "round 1 the trump is the turned card's suit"),
    (["pass"] * 4, "take H", "other than H"),
    (["pass"] * 4, "take", "names the trump suit"),
    (["pass"] * 4, "take SA", "three suits"),
    ([], "80 H", "only has take and pass"),
    ([], "coinche", "only has take and pass"),
    (["take"], "pass", "over"),
])
def test_prise_errors(calls: list[str], bad: str, match: str) -> None:
    a = prise(calls)
    with pytest.raises(AuctionError, match=match):
        a.call(bad)


def test_prise_round_two_is_in_the_same_order() -> None:
    a = prise(["pass"] * 4)
    assert a.round == 2 and a.turn is Seat.W


def test_auction_for_picks_the_auction_of_the_rules() -> None:
    assert isinstance(auction_for(FFB, Seat.N), CoincheAuction)
    assert isinstance(auction_for(CP, Seat.N, TURNED), BeloteAuction)
    with pytest.raises(AuctionError, match="turned card"):
        auction_for(CP, Seat.N)
