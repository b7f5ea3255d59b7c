"""Annonces: values per trump mode, best annonces of a hand, comparison, resolution, belote."""

from __future__ import annotations

import pytest

from engine.annonces import (
    AnnonceError,
    Declared,
    annonce_of,
    belotes_from_hands,
    belotes_from_plays,
    best_annonces,
    resolve,
)
from engine.cards import Card, Seat, Team
from engine.contract import Trump
from engine.rules import PRESETS, find_rules

FFB = PRESETS["ffb-coinche"]
C1000 = PRESETS["coinche-1000"]
H, SA, TA = Trump.HEARTS, Trump.NO_TRUMP, Trump.ALL_TRUMP


def cards(text: str) -> list[Card]:
    return [Card.from_str(t) for t in text.split()]


@pytest.mark.parametrize("text,trump,kind,points", [
    ("7D 8D 9D", H, "tierce", 20),
    ("QD KD AD", H, "tierce", 20),
    ("AD QD KD", H, "tierce", 20),  # any order
    ("9S TS JS QS", H, "cinquante", 50),
    ("7C 8C 9C TC JC", H, "cent", 100),
    ("7C 8C 9C TC JC QC", H, "cent", 100),  # a run of six is one cent
    ("7C 8C 9C TC JC QC KC AC", SA, "cent", 100),
    ("JS JH JD JC", H, "carré", 200),
    ("9S 9H 9D 9C", H, "carré", 150),
    ("AS AH AD AC", H, "carré", 100),
    ("TS TH TD TC", TA, "carré", 100),
    ("KS KH KD KC", H, "carré", 100),
    ("QS QH QD QC", H, "carré", 100),
    ("JS JH JD JC", TA, "carré", 200),
    ("AS AH AD AC", SA, "carré", 200),
    ("TS TH TD TC", SA, "carré", 150),
    ("KS KH KD KC", SA, "carré", 100),
    ("JS JH JD JC", SA, "carré", 100),
    ("9S 9H 9D 9C", SA, "carré", 100),  # FFB: carre_nines_at_sa
])
def test_annonce_values(text: str, trump: Trump, kind: str, points: int) -> None:
    a = annonce_of(cards(text), trump, FFB)
    assert (a.kind, a.points) == (kind, points)


@pytest.mark.parametrize("text,trump,rules,match", [
    ("8S 8H 8D 8C", H, FFB, "not an annonce"),
    ("7S 7H 7D 7C", SA, FFB, "not an annonce"),
    ("9S 9H 9D 9C", SA, C1000, "not an annonce"),  # 004: no carré of nines at SA
    ("7D 8D TD", H, FFB, "not a sequence"),
    ("7D 8D 9H", H, FFB, "neither"),
    ("7D 8D", H, FFB, "neither"),
    ("7D 7D 8D", H, FFB, "repeats"),
])
def test_not_an_annonce(text: str, trump: Trump, rules: object, match: str) -> None:
    with pytest.raises(AnnonceError, match=match):
        annonce_of(cards(text), trump, rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("hand,trump,expected", [
    # a carré and a disjoint tierce both count
    ("JS JH JD JC 7H 8H 9H AS", H, ["carré J (200)", "tierce 7H8H9H (20)"]),
    # a card counts once: the carré of jacks (200) beats the tierce 9H TH JH (20)
    ("JS JH JD JC 9H TH 7S 8D", H, ["carré J (200)"]),
    # ... but two sequences may beat a 100 carré that breaks them: cent + cinquante
    ("QS KS AS 7H 8H 9H TH JH", H, ["cent 7H8H9HTHJH (100)", "tierce QSKSAS (20)"]),
    ("7S 9S JS KS 7H 9H JH KH", H, []),
    ("7S 8S 9S TS JS QS KS AS", SA, ["cent 7S8S9STSJSQSKSAS (100)"]),
    # two carrés
    ("AS AH AD AC KS KH KD KC", H, ["carré A (100)", "carré K (100)"]),
])
def test_best_annonces(hand: str, trump: Trump, expected: list[str]) -> None:
    assert [str(a) for a in best_annonces(cards(hand), trump, FFB)] == expected


def d(seat: Seat, text: str, trump: Trump = H) -> Declared:
    return Declared(seat, annonce_of(cards(text), trump, FFB))


@pytest.mark.parametrize("ns,ew,trump,winner", [
    # more points
    ("9S TS JS QS", "7D 8D 9D", H, Team.NS),
    # a carré beats a sequence of equal points (carré of aces 100 vs a cent)
    ("7C 8C 9C TC JC", "AS AH AD AC", H, Team.EW),
    # the longer sequence: a run of six beats a run of five (both a cent)
    ("7C 8C 9C TC JC QC", "9D TD JD QD KD", H, Team.NS),
    # the higher top card: tierce to the ace beats tierce to the queen
    ("TD JD QD", "QS KS AS", H, Team.EW),
    # then the sequence in trump (suit contract)
    ("QH KH AH", "QS KS AS", H, Team.NS),
    # still equal: none count (no trump preference at TA, nor between two plain suits)
    ("QH KH AH", "QS KS AS", TA, None),
    ("QD KD AD", "QS KS AS", H, None),
    # carrés of equal points: the higher rank
    ("AS AH AD AC", "KS KH KD KC", H, Team.NS),
])
def test_resolution_best_team(ns: str, ew: str, trump: Trump, winner: Team | None) -> None:
    res = resolve([d(Seat.N, ns, trump), d(Seat.E, ew, trump)], trump)
    assert res.team is winner
    if winner is None:
        assert res.points == {Team.NS: 0, Team.EW: 0} and "none count" in res.reason


def test_only_the_best_team_scores_all_of_its_annonces() -> None:
    # NS's best (cinquante 50) beats EW's tierce; NS's own lower tierce also counts: 70
    declared = [d(Seat.N, "9S TS JS QS"), d(Seat.E, "QC KC AC"), d(Seat.S, "7D 8D 9D")]
    res = resolve(declared, H)
    assert res.team is Team.NS and res.points == {Team.NS: 70, Team.EW: 0}
    assert [x.seat for x in res.counted] == [Seat.N, Seat.S]


def test_equal_best_cancels_lower_annonces_too() -> None:
    declared = [d(Seat.N, "QD KD AD"), d(Seat.S, "7C 8C 9C"), d(Seat.E, "QS KS AS")]
    assert resolve(declared, H).points == {Team.NS: 0, Team.EW: 0}


def test_one_team_alone_and_nobody() -> None:
    assert resolve([d(Seat.W, "7C 8C 9C")], H).points == {Team.NS: 0, Team.EW: 20}
    assert resolve([], H).team is None


def plays_of(text: str) -> list[tuple[Seat, Card]]:
    out = []
    for item in text.split():
        seat, card = item.split(":")
        out.append((Seat(seat), Card.from_str(card)))
    return out


@pytest.mark.parametrize("plays,trump,rules,expected", [
    ("N:KH W:7S S:8S E:9S N:QH", H, FFB, [(Seat.N, "H")]),
    ("N:KH S:QH", H, FFB, []),  # king and queen in two hands: no belote
    ("N:KS N:QS", H, FFB, []),  # not trump
    ("N:KS N:QS", SA, FFB, []),  # none at SA
    ("N:KS N:QS E:KD E:QD", TA, FFB, [(Seat.N, "S"), (Seat.E, "D")]),  # each suit at TA
    ("N:KS N:QS", TA, find_rules({"preset": "ffb-coinche", "belote_in_ta": False}), []),
    ("N:KH E:KH N:QH", H, FFB, [(Seat.N, "H")]),  # a card seen twice: its first player
    ("E:KH N:KH N:QH", H, FFB, []),
])
def test_belote_from_plays(plays: str, trump: Trump, rules: object,
                           expected: list[tuple[Seat, str]]) -> None:
    got = belotes_from_plays(plays_of(plays), trump, rules)  # type: ignore[arg-type]
    assert [(s, str(suit)) for s, suit in got] == expected


def test_belote_from_hands() -> None:
    hands = {Seat.W: cards("KD QD 7S"), Seat.N: cards("KH"), Seat.S: cards("QH")}
    assert belotes_from_hands(hands, Trump.DIAMONDS, FFB) == [(Seat.W, cards("KD")[0].suit)]
    assert belotes_from_hands(hands, H, FFB) == []
