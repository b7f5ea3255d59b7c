"""Card order and points (rules.md §1-2) and trick winners under every trump mode."""

from __future__ import annotations

import itertools

import pytest

from engine.cards import DECK, Card, Rank, Seat, Suit, parse_cards
from engine.contract import Trump
from engine.rules import find_rules
from engine.tricks import Trick, beats, card_points, tables, trick_winner

FFB = find_rules("ffb-coinche")
C1000 = find_rules("coinche-1000")

# rank -> points, read from rules.md
POINTS = [
    (Trump.HEARTS, "H", FFB, {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}),
    (Trump.HEARTS, "S", FFB, {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}),
    (Trump.NO_TRUMP, "D", FFB, {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}),
    (Trump.ALL_TRUMP, "C", FFB, {"J": 13, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 2, "8": 0, "7": 0}),
    (Trump.ALL_TRUMP, "C", C1000, {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0,
                                    "7": 0}),
]

TRUMP_ORDER = "J9ATKQ87"  # strongest first
PLAIN_ORDER = "ATKQJ987"


@pytest.mark.parametrize(("trump", "suit", "rules", "points"), POINTS)
def test_card_points(trump: Trump, suit: str, rules, points: dict[str, int]) -> None:
    for rank, value in points.items():
        card = Card.from_str(rank + suit)
        assert card_points(card, trump, rules) == value, f"{card} at {trump}"


@pytest.mark.parametrize("rules", [FFB, C1000])
@pytest.mark.parametrize("trump", list(Trump))
def test_deck_totals_162_with_last_trick(trump: Trump, rules) -> None:
    assert sum(card_points(c, trump, rules) for c in DECK) + 10 == 162


@pytest.mark.parametrize("trump", list(Trump))
def test_order_within_each_suit(trump: Trump) -> None:
    for suit in Suit:
        is_trump = trump.is_trump(suit) and trump is not Trump.NO_TRUMP
        order = TRUMP_ORDER if is_trump else PLAIN_ORDER
        cards = [Card.from_str(r + suit.value) for r in order]
        for hi, lo in itertools.pairwise(cards):
            assert beats(hi, lo, trump) and not beats(lo, hi, trump), f"{hi} vs {lo} at {trump}"


@pytest.mark.parametrize(("trump", "cards", "winner"), [
    (Trump.HEARTS, "AS TS KS QS", 0),
    (Trump.HEARTS, "7S AS 7H JS", 2),  # any trump beats the suit led
    (Trump.HEARTS, "7S 8H 9H JH", 3),
    (Trump.HEARTS, "9H AH TH KH", 0),  # the nine is second trump
    (Trump.HEARTS, "7S AD AC 8S", 3),  # off-suit aces never win
    (Trump.SPADES, "KH QH 7S AH", 2),
    (Trump.NO_TRUMP, "9D JD AD TD", 2),
    (Trump.NO_TRUMP, "7C AS AH AD", 0),
    (Trump.ALL_TRUMP, "AS 9S JH JS", 3),  # TA: only the suit led wins, trump order
    (Trump.ALL_TRUMP, "TS 9S AS KS", 1),
])
def test_trick_winner(trump: Trump, cards: str, winner: int) -> None:
    seats = list(Seat.N.order_from())
    plays = list(zip(seats, parse_cards(cards.split()), strict=True))
    assert trick_winner(plays, trump) is seats[winner]
    assert trick_winner(plays[:1], trump) is seats[0]


def test_trick_points_and_last_trick() -> None:
    plays = list(zip(Seat.N.order_from(), parse_cards("JH 9H AS TS".split()), strict=True))
    trick = Trick.from_plays(plays, Trump.HEARTS, FFB)
    assert (trick.leader, trick.winner, trick.points) == (Seat.N, Seat.N, 20 + 14 + 11 + 10)
    last = Trick.from_plays(plays, Trump.HEARTS, FFB, last=True)
    assert last.points == trick.points + 10
    assert last.to_json() == {"leader": "N", "winner": "N", "points": 65}
    with pytest.raises(ValueError):
        Trick.from_plays(plays[:3], Trump.HEARTS)
    with pytest.raises(ValueError):
        trick_winner([], Trump.HEARTS)


def test_tables_are_cached_per_mode_and_ta_points() -> None:
    assert tables(Trump.HEARTS, FFB) is tables(Trump.HEARTS, C1000)
    assert tables(Trump.ALL_TRUMP, FFB) is not tables(Trump.ALL_TRUMP, C1000)
    assert Rank.JACK.sequence_index == 4
