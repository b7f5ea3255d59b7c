"""Judging a deal from what a camera sees: every play is recorded, none refused; plays prove hands.

Without the hands, a play is flagged as soon as a later play by the same seat shows a card that
seat held at the time and that made the play illegal; `proven_by` is that later play's index.
With the hands given, violations are known at once (`proven_by` None). Conventions:

- Tricks are consecutive groups of 4 plays. The seat expected at each position is the previous
  trick's winner (the seat that played the winning card; first trick: next to the dealer), then
  direction order. A play by another seat is `out-of-turn`; a card seen before is
  `card-already-played`. Both are proven by the play itself: `proven_by` is its own index.
- A play carries at most one violation: card-already-played, else not-in-hand (hands given),
  else out-of-turn, else a play rule. Plays after an irregular play (out-of-turn,
  card-already-played, not-in-hand) in the same trick are not judged on play rules, since
  "partner holds the trick" no longer has a meaning there.
- The rule named is the one a full-information check names: if a later play reveals a more
  important broken rule (follow-suit before must-overtrump...), the violation's rule is updated
  while `proven_by` keeps the earliest proof, and `rule_proven_by` names the play that proves the
  rule now named (a revoke first proven a failure to trump by a trump, then by a card of the suit
  led: shown to a player, the proof must be of the rule named).

`audit` is the full-information check: on a complete deal, `ObservedDeal.violations` flags exactly
the plays it flags, with the same rules (tests/engine/test_play_properties.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.annonces import belotes_from_plays
from engine.cards import DECK, Card, Seat, Suit
from engine.contract import Contract, Trump
from engine.deal import CARD_ALREADY_PLAYED, NOT_IN_HAND, OUT_OF_TURN
from engine.legality import (
    PLAY_RULES,
    Forbidding,
    cards_of,
    forbidding,
    legal_mask,
    mask_of,
    reason_from,
)
from engine.rules import RuleSet
from engine.tricks import Trick, tables

ALL_CARDS = (1 << 32) - 1
SEATS = tuple(Seat)  # iterating the Enum class itself is slow on this hot path
_NEXT = {clockwise: {seat: seat.next(clockwise) for seat in SEATS} for clockwise in (False, True)}


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal play: `play` and `proven_by` index the deal's plays (None: the hands prove it)."""

    play: int
    seat: Seat
    card: Card
    rule: str
    proven_by: int | None
    # A camera's record: one other reading (play index, card) of a play read in doubt that
    # would clear this violation (`engine.referee`); the referee checks that card first.
    unless: tuple[int, Card] | None = None
    # When the rule was refined by a play after `proven_by`: that play, which proves `rule`.
    rule_proven_by: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"play": self.play, "seat": str(self.seat),
                                  "card": str(self.card), "rule": self.rule,
                                  "proven_by": self.proven_by}
        if self.rule_proven_by is not None:
            out["rule_proven_by"] = self.rule_proven_by
        if self.unless is not None:
            out["unless"] = {"play": self.unless[0], "card": str(self.unless[1])}
        return out


@dataclass(slots=True)
class _Judged:
    """A play judged on the play rules, waiting for later plays to prove it illegal."""

    play: int
    seat: Seat
    card: int
    parts: Forbidding
    rank: int = len(PLAY_RULES)  # index in `parts` of the rule broken so far; len: none yet


class ObservedDeal:
    """A deal as seen: plays in order, tricks, what each seat is proven to hold, violations."""

    def __init__(self, rules: RuleSet, contract: Contract, dealer: Seat,
                 hands: Mapping[Seat, Iterable[Card]] | None = None) -> None:
        self.rules = rules
        self.contract = contract
        self.dealer = dealer
        self._tables = tables(contract.trump, rules)
        self._next = _NEXT[rules.clockwise]
        self._hands = None if hands is None else {s: mask_of(hands.get(s, ())) for s in SEATS}
        self._reset()

    def _reset(self) -> None:
        self._plays: list[tuple[Seat, Card]] = []
        self._idx: list[int] = []  # Card.index of each play, for the trick tables
        self._tricks: list[Trick] = []
        self._played = 0
        self._held = dict.fromkeys(SEATS, 0)  # cards each seat is proven to have held
        self._judged: dict[Seat, list[_Judged]] = {s: [] for s in SEATS}
        self._watch = dict.fromkeys(SEATS, 0)  # cards that would prove one of a seat's plays
        self._violations: dict[int, Violation] = {}
        self._leader = self.dealer.next(self.rules.clockwise)
        self._expected: Seat | None = self._leader
        self._trick_regular = True

    # --- views ------------------------------------------------------------------------------
    @property
    def trump(self) -> Trump:
        return self.contract.trump

    @property
    def plays(self) -> list[tuple[Seat, Card]]:
        return list(self._plays)

    @property
    def played(self) -> frozenset[Card]:
        return cards_of(self._played)

    @property
    def tricks(self) -> list[Trick]:
        """Complete tricks (groups of 4 plays), the eighth counting the 10 of the last trick."""
        return list(self._tricks)

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        return self._plays[4 * len(self._tricks):]

    @property
    def is_complete(self) -> bool:
        return len(self._plays) >= 32

    @property
    def turn(self) -> Seat | None:
        """The seat expected to play next; None once 32 plays are seen."""
        return self._expected

    @property
    def violations(self) -> list[Violation]:
        return [self._violations[i] for i in sorted(self._violations)]

    def held(self, seat: Seat) -> frozenset[Card]:
        """Cards `seat` is proven to have held: its given hand, else the cards it played."""
        if self._hands is not None:
            return cards_of(self._hands[seat])
        return cards_of(self._held[seat])

    def possible_cards(self, seat: Seat) -> frozenset[Card]:
        """Cards `seat` may still hold: unplayed, and not excluded by its legal plays."""
        if self._hands is not None:
            return cards_of(self._hands[seat] & ~self._played)
        possible = ALL_CARDS & ~self._played
        for j in self._judged[seat]:
            if j.play not in self._violations:
                for mask, _ in j.parts:
                    possible &= ~mask
        return cards_of(possible)

    def who_played(self, card: Card) -> tuple[int, Seat] | None:
        """The index and seat of the first play of `card`, if seen."""
        for i, (seat, c) in enumerate(self._plays):
            if c == card:
                return i, seat
        return None

    def belotes(self) -> list[tuple[Seat, Suit]]:
        """Belote-rebelote seen in the plays: a seat that played both king and queen of a trump."""
        return belotes_from_plays(self._plays, self.trump, self.rules)

    # --- recording --------------------------------------------------------------------------
    def play(self, seat: Seat, card: Card) -> list[Violation]:
        """Record a play as seen; return the violations it flags or refines (never refuses)."""
        index = len(self._plays)
        expected = self._expected
        trick = self._idx[index & ~3:]
        ci = card.index
        self._plays.append((seat, card))
        self._idx.append(ci)
        bit = 1 << ci
        found: list[Violation] = []
        rule: str | None = None
        if self._played & bit:
            rule = CARD_ALREADY_PLAYED
        elif self._hands is not None and not self._hands[seat] & bit:
            rule = NOT_IN_HAND
        elif seat is not expected:
            rule = OUT_OF_TURN
        if rule is not None:
            self._trick_regular = False
            found.append(self._flag(Violation(index, seat, card, rule, index)))
        if self._hands is None and rule != CARD_ALREADY_PLAYED and self._watch[seat] & bit:
            found += self._prove(seat, ci, index)
        if rule != CARD_ALREADY_PLAYED:
            self._held[seat] |= bit
        self._played |= bit
        if rule is None and self._trick_regular:
            parts = forbidding(ci, trick, self._tables, self.rules)
            if self._hands is not None:
                hand = self._hands[seat] & ~(self._held[seat] & ~bit)
                broken = reason_from(hand, parts)
                if broken is not None:
                    found.append(self._flag(Violation(index, seat, card, broken, None)))
            elif parts:
                self._judged[seat].append(_Judged(index, seat, ci, parts))
                for mask, _ in parts:
                    self._watch[seat] |= mask
        if len(self._plays) % 4 == 0:
            self._close_trick()
        elif expected is not None:
            self._expected = self._next[expected]
        return found

    def _prove(self, seat: Seat, card: int, index: int) -> list[Violation]:
        """`seat` showed `card`: flag (or refine) its earlier plays that this card makes illegal."""
        found = []
        for j in self._judged[seat]:
            for rank, (mask, rule) in enumerate(j.parts[:j.rank]):
                if mask >> card & 1:
                    old = self._violations.get(j.play)
                    proof = index if old is None else old.proven_by
                    j.rank = rank
                    found.append(self._flag(Violation(j.play, seat, DECK[j.card], rule, proof,
                                                      rule_proven_by=None if old is None
                                                      else index)))
                    break
        return found

    def _flag(self, v: Violation) -> Violation:
        self._violations[v.play] = v
        return v

    def _close_trick(self) -> None:
        plays = tuple(self._plays[-4:])
        idx = self._idx[-4:]
        t = self._tables
        last = len(self._tricks) == 7
        points = t.points[idx[0]] + t.points[idx[1]] + t.points[idx[2]] + t.points[idx[3]]
        winner = plays[t.winning_position(idx)][0]
        self._tricks.append(Trick(plays[0][0], plays, winner, points + 10 * last, last))
        self._leader = winner
        self._expected = None if len(self._plays) >= 32 else winner
        self._trick_regular = True

    def undo(self) -> tuple[Seat, Card]:
        """Forget the last play (everything is recomputed from the plays before it)."""
        if not self._plays:
            raise IndexError("no play to undo")
        plays = self._plays
        self._reset()
        for seat, card in plays[:-1]:
            self.play(seat, card)
        return plays[-1]


def audit(rules: RuleSet, contract: Contract, dealer: Seat, plays: Sequence[tuple[Seat, Card]],
          hands: Mapping[Seat, Iterable[Card]] | None = None) -> list[Violation]:
    """Full-information check of plays against hands (default: each seat's hand = what it played).

    Independent of `ObservedDeal`'s incremental proofs: each play is judged against the hand its
    seat held at that moment. Legality violations have `proven_by` None.
    """
    t = tables(contract.trump, rules)
    seat_i = {seat: i for i, seat in enumerate(Seat)}  # hands as a list by seat number
    who = [seat_i[seat] for seat, _ in plays]
    idx = [card.index for _, card in plays]
    played = 0
    if hands is None:
        given = [0, 0, 0, 0]
        for s, ci in zip(who, idx, strict=True):
            if not played >> ci & 1:
                given[s] |= 1 << ci
            played |= 1 << ci
        played = 0
    else:
        given = [mask_of(hands.get(s, ())) for s in Seat]
    hand = list(given)
    out: list[Violation] = []
    nxt = _NEXT[rules.clockwise]
    leader = dealer.next(rules.clockwise)
    expected: Seat | None = leader
    regular = True
    trick: list[int] = []
    for i, (seat, card) in enumerate(plays):
        pos = i % 4
        if pos == 0:
            regular = True
            trick = []
            expected = leader if i < 32 else None
        ci = idx[i]
        s = who[i]
        bit = 1 << ci
        rule: str | None = None
        proof: int | None = i
        if played & bit:
            rule = CARD_ALREADY_PLAYED
        elif not given[s] & bit:
            rule = NOT_IN_HAND
        elif seat is not expected:
            rule = OUT_OF_TURN
        elif regular and not legal_mask(hand[s], trick, t, rules) & bit:
            rule = reason_from(hand[s], forbidding(ci, trick, t, rules))
            proof = None
        if rule in (CARD_ALREADY_PLAYED, NOT_IN_HAND, OUT_OF_TURN):
            regular = False
        if rule is not None:
            out.append(Violation(i, seat, card, rule, proof))
        played |= bit
        hand[s] &= ~bit
        trick.append(ci)
        if pos == 3:
            leader = plays[i - 3 + t.winning_position(trick)][0]
        elif expected is not None:
            expected = nxt[expected]
    return out

