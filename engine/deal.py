"""A deal played with the hands known: strict play/undo/peek with legality as a view.

>>> from engine.cards import DECK
>>> from engine.contract import Contract
>>> from engine.rules import find_rules
>>> hands = {seat: DECK[8 * i:8 * i + 8] for i, seat in enumerate(Seat)}
>>> deal = Deal(find_rules("ffb-coinche"), Contract(Seat.N, 80, Trump.HEARTS), Seat.E, hands)
>>> deal.turn  # next to the dealer, counterclockwise: E -> N
Seat.N
>>> deal.play(Card.from_str("AS"))
>>> deal.turn, len(deal.legal_cards())
(Seat.W, 8)
>>> deal.play(Card.from_str("AS"))
Traceback (most recent call last):
...
engine.deal.IllegalPlay: W cannot play AS: card-already-played
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.cards import Card, Seat, Team
from engine.contract import Contract, Trump
from engine.legality import cards_of, forbidding, legal_mask, mask_of, reason_from
from engine.rules import RuleSet
from engine.tricks import LAST_TRICK_BONUS, Trick, tables

OUT_OF_TURN = "out-of-turn"
CARD_ALREADY_PLAYED = "card-already-played"
NOT_IN_HAND = "not-in-hand"


class IllegalPlay(ValueError):
    """A play the rules refuse; `.rule` names the rule (e.g. 'follow-suit', 'out-of-turn')."""

    def __init__(self, seat: Seat, card: Card, rule: str) -> None:
        super().__init__(f"{seat} cannot play {card}: {rule}")
        self.seat = seat
        self.card = card
        self.rule = rule


class DealError(ValueError):
    """Hands that cannot start a deal (wrong count, a card twice)."""


class Deal:
    """Eight tricks with the hands known. `play` refuses anything illegal; `undo` takes back."""

    def __init__(self, rules: RuleSet, contract: Contract, dealer: Seat,
                 hands: Mapping[Seat, Iterable[Card]]) -> None:
        self.rules = rules
        self.contract = contract
        self.dealer = dealer
        self._tables = tables(contract.trump, rules)
        self._hands: dict[Seat, int] = {}
        seen = 0
        for seat in Seat:
            cards = list(hands.get(seat, ()))
            m = mask_of(cards)
            if len(cards) != 8 or m.bit_count() != 8:
                raise DealError(f"hand of {seat} must hold 8 distinct cards, got {len(cards)}")
            if m & seen:
                raise DealError(f"hand of {seat} repeats a card of another hand: "
                                f"{' '.join(map(str, cards_of(m & seen)))}")
            seen |= m
            self._hands[seat] = m
        self.initial_hands: dict[Seat, frozenset[Card]] = {s: cards_of(m)
                                                           for s, m in self._hands.items()}
        self._plays: list[tuple[Seat, Card]] = []
        self._tricks: list[Trick] = []
        self._played = 0
        self._turn: Seat | None = dealer.next(rules.clockwise)

    @property
    def trump(self) -> Trump:
        return self.contract.trump

    @property
    def turn(self) -> Seat | None:
        """The seat to play next; None when the deal is over."""
        return self._turn

    @property
    def plays(self) -> list[tuple[Seat, Card]]:
        return list(self._plays)

    @property
    def tricks(self) -> list[Trick]:
        """Complete tricks, in order."""
        return list(self._tricks)

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        """Plays of the trick in progress."""
        return self._plays[4 * len(self._tricks):]

    @property
    def is_over(self) -> bool:
        return len(self._plays) == 32

    def hand(self, seat: Seat) -> frozenset[Card]:
        """The cards `seat` still holds."""
        return cards_of(self._hands[seat])

    def legal_cards(self) -> frozenset[Card]:
        """The cards the seat to play may play (empty when the deal is over)."""
        if self._turn is None:
            return frozenset()
        trick = [c.index for _, c in self.current_trick]
        return cards_of(legal_mask(self._hands[self._turn], trick, self._tables, self.rules))

    def illegal_reason(self, card: Card, seat: Seat | None = None) -> str | None:
        """Why `card` cannot be played now (by `seat`, default the seat to play), or None."""
        turn = self._turn
        seat = turn if seat is None else seat
        if turn is None or seat is None or seat is not turn:
            return OUT_OF_TURN
        ci = card.index
        if self._played >> ci & 1:
            return CARD_ALREADY_PLAYED
        hand = self._hands[seat]
        if not hand >> ci & 1:
            return NOT_IN_HAND
        trick = [c.index for _, c in self.current_trick]
        return reason_from(hand, forbidding(ci, trick, self._tables, self.rules))

    def play(self, card: Card, seat: Seat | None = None) -> None:
        """Play `card` for the seat to play (checked against `seat` if given), or IllegalPlay."""
        rule = self.illegal_reason(card, seat)
        if rule is not None:
            who = seat if seat is not None else self._turn
            raise IllegalPlay(who if who is not None else self.dealer, card, rule)
        assert self._turn is not None
        player = self._turn
        ci = card.index
        self._hands[player] &= ~(1 << ci)
        self._played |= 1 << ci
        self._plays.append((player, card))
        if len(self._plays) % 4:
            self._turn = player.next(self.rules.clockwise)
            return
        trick = Trick.from_plays(self._plays[-4:], self.trump, self.rules,
                                 last=len(self._plays) == 32)
        self._tricks.append(trick)
        self._turn = None if trick.last else trick.winner

    def undo(self) -> tuple[Seat, Card]:
        """Take back the last play and return it."""
        if not self._plays:
            raise IndexError("no play to undo")
        seat, card = self._plays.pop()
        ci = card.index
        if len(self._plays) // 4 < len(self._tricks):
            self._tricks.pop()
        self._hands[seat] |= 1 << ci
        self._played &= ~(1 << ci)
        self._turn = seat
        return seat, card

    def peek(self) -> tuple[Seat, Card]:
        """The last play."""
        if not self._plays:
            raise IndexError("no play yet")
        return self._plays[-1]

    def card_points(self) -> dict[Team, int]:
        """Card points won by each team so far (the last trick counts its 10)."""
        out = {Team.NS: 0, Team.EW: 0}
        for trick in self._tricks:
            out[trick.winner.team] += trick.points
        return out

    def tricks_won(self) -> dict[Team, int]:
        out = {Team.NS: 0, Team.EW: 0}
        for trick in self._tricks:
            out[trick.winner.team] += 1
        return out


__all__ = ["CARD_ALREADY_PLAYED", "LAST_TRICK_BONUS", "NOT_IN_HAND", "OUT_OF_TURN", "Deal",
           "DealError", "IllegalPlay"]
