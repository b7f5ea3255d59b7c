"""Card order and points under each trump mode, and tricks: who wins them and what they are worth.

>>> from engine.cards import Card, Seat
>>> h = Trump.HEARTS
>>> card_points(Card.from_str("9H"), h), card_points(Card.from_str("9S"), h)
(14, 0)
>>> plays = [(Seat.N, Card.from_str("AS")), (Seat.W, Card.from_str("7H"))]
>>> trick_winner(plays, h)
Seat.W
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.cards import DECK, Card, Seat, Suit
from engine.contract import Trump
from engine.rules import RuleSet, ta_points

LAST_TRICK_BONUS = 10  # "dix de der"

# Rank sequence indices (cards.py order 7 8 9 T J Q K A) ranked weakest-first in each order.
_PLAIN_ORDER = (0, 1, 2, 4, 5, 6, 3, 7)  # 7 8 9 J Q K T A
_TRUMP_ORDER = (0, 1, 5, 6, 3, 7, 2, 4)  # 7 8 Q K T A 9 J
_PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)  # by sequence index: 7 8 9 T J Q K A
_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
_SA_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)
_SUITS = tuple(Suit)


@dataclass(frozen=True, slots=True)
class CardTables:
    """Per-card lookup tables (indexed by `Card.index`) for one trump mode and rule set."""

    trump: Trump
    strength: tuple[int, ...]  # 0 (weakest) .. 7 (strongest) within the card's suit
    points: tuple[int, ...]
    above: tuple[int, ...]  # bitmask of same-suit cards that beat this one
    suit_mask: tuple[int, ...]  # by suit index (S H D C)
    trump_mask: int  # cards that are trumps (0 at SA; all cards at TA)
    trump_suit: int  # suit index of the trump of a suit contract, -1 at SA and TA

    def winning_position(self, cards: Sequence[int]) -> int:
        """Position in `cards` (card indices in play order) of the card that holds the trick."""
        best = 0
        lead_suit = cards[0] >> 3
        t = self.trump_suit
        best_key = self.strength[cards[0]] + (8 if lead_suit == t else 0)
        for pos in range(1, len(cards)):
            c = cards[pos]
            s = c >> 3
            if s == t:
                key = self.strength[c] + 8
            elif s == lead_suit:
                key = self.strength[c]
            else:
                continue
            if key > best_key:
                best, best_key = pos, key
        return best


@cache
def _tables(trump: Trump, ta_spec: str) -> CardTables:
    trump_suit = -1 if trump.suit is None else _SUITS.index(trump.suit)
    ta = (0,) * 8
    if trump is Trump.ALL_TRUMP:
        j, n, a, t, k, q = ta_points(ta_spec)
        ta = (0, 0, n, t, j, q, k, a)
    strength: list[int] = []
    points: list[int] = []
    for card in DECK:
        r = card.rank.sequence_index
        s = _SUITS.index(card.suit)
        is_trump = trump is Trump.ALL_TRUMP or s == trump_suit
        strength.append((_TRUMP_ORDER if is_trump else _PLAIN_ORDER).index(r))
        if trump is Trump.ALL_TRUMP:
            points.append(ta[r])
        elif trump is Trump.NO_TRUMP:
            points.append(_SA_POINTS[r])
        else:
            points.append((_TRUMP_POINTS if is_trump else _PLAIN_POINTS)[r])
    suit_mask = tuple(0xFF << (8 * s) for s in range(4))
    above = tuple(
        sum(1 << d for d in range(32) if d >> 3 == c >> 3 and strength[d] > strength[c])
        for c in range(32))
    if trump is Trump.ALL_TRUMP:
        trump_mask = 0xFFFFFFFF
    elif trump_suit >= 0:
        trump_mask = suit_mask[trump_suit]
    else:
        trump_mask = 0
    return CardTables(trump, tuple(strength), tuple(points), above, suit_mask, trump_mask,
                      trump_suit)


def tables(trump: Trump, rules: RuleSet | None = None) -> CardTables:
    """The cached lookup tables for a trump mode (the rule set only matters at tout-atout)."""
    spec = rules.tout_atout_points if rules is not None else RuleSet().tout_atout_points
    return _tables(trump, spec if trump is Trump.ALL_TRUMP else "")


def card_points(card: Card, trump: Trump, rules: RuleSet | None = None) -> int:
    """Points of one card under a trump mode (tout-atout points follow `rules`)."""
    return tables(trump, rules).points[card.index]


def beats(card: Card, other: Card, trump: Trump) -> bool:
    """Whether `card` played after `other` (which holds the trick) takes the trick from it."""
    t = tables(trump)
    return t.winning_position([other.index, card.index]) == 1


def trick_winner(plays: Sequence[tuple[Seat, Card]], trump: Trump) -> Seat:
    """The seat holding the trick (complete or not): highest trump, else highest of the lead."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    pos = tables(trump).winning_position([c.index for _, c in plays])
    return plays[pos][0]


@dataclass(frozen=True, slots=True)
class Trick:
    """A complete trick. `points` include the 10 of the last trick ("dix de der") when `last`."""

    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int
    last: bool = False

    @classmethod
    def from_plays(cls, plays: Sequence[tuple[Seat, Card]], trump: Trump,
                   rules: RuleSet | None = None, last: bool = False) -> Trick:
        """Judge four plays: winner and points under the trump mode."""
        if len(plays) != 4:
            raise ValueError(f"a trick has 4 plays, got {len(plays)}")
        t = tables(trump, rules)
        idx = [c.index for _, c in plays]
        winner = plays[t.winning_position(idx)][0]
        points = sum(t.points[i] for i in idx) + (LAST_TRICK_BONUS if last else 0)
        return cls(plays[0][0], tuple(plays), winner, points, last)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.plays)

    def to_json(self) -> dict[str, object]:
        return {"leader": str(self.leader), "winner": str(self.winner), "points": self.points}

    def __str__(self) -> str:
        body = " ".join(f"{s}:{c}" for s, c in self.plays)
        return f"[{body}] -> {self.winner} {self.points}"
