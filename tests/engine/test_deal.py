"""Deal with the hands known: turn order, strict play, legal cards view, undo."""

from __future__ import annotations

import random

import pytest

from engine.cards import DECK, Card, Seat, Team, parse_cards
from engine.contract import Contract, Trump
from engine.deal import Deal, DealError, IllegalPlay
from engine.rules import PRESETS, find_rules

FFB = find_rules("ffb-coinche")
HANDS = {
    Seat.N: parse_cards("AC AD KS KD JH AS 9H AH".split()),
    Seat.W: parse_cards("7C TC JC QC KC 7D 8D 7S".split()),
    Seat.S: parse_cards("8C 9D 8S QD 7H TS TH QH".split()),
    Seat.E: parse_cards("9C TD 9S JD 8H JS QS KH".split()),
}
CONTRACT = Contract(Seat.N, 80, Trump.HEARTS)


@pytest.mark.parametrize(("preset", "dealer", "first", "order"), [
    ("ffb-coinche", Seat.E, Seat.N, "NWSE"),
    ("ffb-coinche", Seat.N, Seat.W, "WSEN"),
    ("gameduell-contree", Seat.N, Seat.E, "ESWN"),
    ("gameduell-contree", Seat.W, Seat.N, "NESW"),
])
def test_first_lead_and_direction(preset: str, dealer: Seat, first: Seat, order: str) -> None:
    deal = Deal(PRESETS[preset], CONTRACT, dealer, HANDS)
    seen = []
    for _ in range(4):
        seat = deal.turn
        assert seat is not None
        seen.append(str(seat))
        deal.play(min(deal.legal_cards(), key=lambda c: c.index))
    assert "".join(seen) == order


def test_strict_play_names_the_rule() -> None:
    deal = Deal(FFB, CONTRACT, Seat.E, HANDS)
    with pytest.raises(IllegalPlay) as exc:
        deal.play(Card.from_str("AC"), Seat.W)
    assert exc.value.rule == "out-of-turn" and exc.value.seat is Seat.W
    with pytest.raises(IllegalPlay) as exc:
        deal.play(Card.from_str("7C"))  # W's card, N to play
    assert exc.value.rule == "not-in-hand"
    deal.play(Card.from_str("KS"))
    with pytest.raises(IllegalPlay) as exc:
        deal.play(Card.from_str("KS"))
    assert exc.value.rule == "card-already-played"
    with pytest.raises(IllegalPlay) as exc:
        deal.play(Card.from_str("TC"))
    assert exc.value.rule == "follow-suit" and "W cannot play TC" in str(exc.value)
    assert deal.legal_cards() == {Card.from_str("7S")}
    assert deal.illegal_reason(Card.from_str("7S")) is None
    assert isinstance(exc.value, ValueError)


def test_undo_and_peek_restore_everything() -> None:
    deal = Deal(FFB, CONTRACT, Seat.E, HANDS)
    rng = random.Random(7)
    history = []
    while not deal.is_over:
        history.append((deal.turn, deal.legal_cards(), len(deal.tricks)))
        deal.play(rng.choice(sorted(deal.legal_cards(), key=lambda c: c.index)))
        assert deal.peek()[0] is history[-1][0]
    assert deal.turn is None and deal.legal_cards() == frozenset()
    assert sum(deal.card_points().values()) == 162
    assert deal.tricks_won()[Team.NS] + deal.tricks_won()[Team.EW] == 8
    while history:
        turn, legal, ntricks = history.pop()
        deal.undo()
        assert (deal.turn, deal.legal_cards(), len(deal.tricks)) == (turn, legal, ntricks)
    assert {s: deal.hand(s) for s in Seat} == deal.initial_hands
    with pytest.raises(IndexError):
        deal.undo()
    with pytest.raises(IndexError):
        deal.peek()


def test_bad_hands_are_refused() -> None:
    with pytest.raises(DealError, match="8 distinct"):
        Deal(FFB, CONTRACT, Seat.E, {**HANDS, Seat.N: HANDS[Seat.N][:7]})
    with pytest.raises(DealError, match="repeats"):
        Deal(FFB, CONTRACT, Seat.E, {**HANDS, Seat.N: HANDS[Seat.W]})


def test_winner_leads_next_trick() -> None:
    deal = Deal(FFB, CONTRACT, Seat.E, HANDS)
    for card in parse_cards("AC 7C 8C 9C".split()):
        deal.play(card)
    assert deal.tricks[0].winner is Seat.N and deal.turn is Seat.N
    assert deal.current_trick == [] and len(DECK) == 32
