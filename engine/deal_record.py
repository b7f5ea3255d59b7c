"""A game record in memory: deals (dealer, contract, plays as seen, hands, annonces) and rules.

`engine.record` reads and writes the JSON form (docs/record-format.md); `engine.referee` judges
it. A camera's record may hold plays nobody read (card None, `engine.deduce`) and plays read in
doubt (`DealRecord.doubts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from engine.annonces import Declared, annonce_of
from engine.cards import Card, Seat
from engine.contract import Contract
from engine.deduce import deduce
from engine.rules import PRESETS, RuleSet

RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class Announce:
    """An annonce as declared in a record: the seat and the cards it says it holds."""

    seat: Seat
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, object]:
        return {"seat": str(self.seat), "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal: contract None means thrown in (four passes) or cancelled (prise)."""

    dealer: Seat
    contract: Contract | None
    plays: tuple[tuple[Seat, Card], ...] = ()
    hands: Mapping[Seat, tuple[Card, ...]] | None = None
    announces: tuple[Announce, ...] = ()
    belote: tuple[Seat, ...] = ()
    auction: tuple[str, ...] | None = None
    turned: Card | None = None
    # Plays whose card nobody could read (null in the record, `engine.deduce`): `deduced` were
    # proven by the rest of the deal; from the first that was not (`unread`), the plays are kept
    # in `rest` and not judged.
    deduced: tuple[int, ...] = ()
    unread: tuple[int, ...] = ()
    rest: tuple[tuple[Seat, Card | None], ...] = ()
    # A complete deal whose unread cards stay open: the fillings that tie for the fewest broken
    # rules (`engine.deduce.Deduction.ties`), for the referee to score it if they all agree.
    ties: tuple[tuple[tuple[Seat, Card], ...], ...] = ()
    # Plays a camera read in doubt: (index in `seen`, the other cards it may have been).
    doubts: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @property
    def seen(self) -> tuple[tuple[Seat, Card | None], ...]:
        """Every play the record has: those judged, then from the first open unread one on."""
        return (*self.plays, *self.rest)

    @property
    def as_read(self) -> tuple[tuple[Seat, Card | None], ...]:
        """Every play as the camera read it: deduced cards back to unread (None)."""
        blank = set(self.deduced)
        return tuple((s, None if i in blank else c) for i, (s, c) in enumerate(self.seen))

    def with_reading(self, rules: RuleSet, index: int, card: Card) -> DealRecord:
        """This record had play `index` (of `seen`) been read as `card`: the unread plays are
        deduced again, and no play is in doubt any more."""
        read = list(self.as_read)
        read[index] = (read[index][0], card)
        plays, deduced, unread, rest, ties = unread_plays(
            read, rules, self.contract, self.dealer, self.hands)
        return replace(self, plays=tuple(plays), deduced=deduced, unread=unread, rest=rest,
                       ties=ties, doubts=())

    def declared(self, rules: RuleSet) -> list[Declared]:
        """The announces as annonces (the record reader has checked that each forms one)."""
        assert self.contract is not None
        trump = self.contract.trump
        return [Declared(a.seat, annonce_of(a.cards, trump, rules)) for a in self.announces]

    def to_json(self, rules: RuleSet | None = None) -> dict[str, object]:
        out: dict[str, object] = {}
        if rules is not None:
            out["version"] = RECORD_VERSION
            out["rules"] = _rules_json(rules)
        out["dealer"] = str(self.dealer)
        if self.auction is not None:
            out["auction"] = list(self.auction)
        if self.turned is not None:
            out["turned"] = str(self.turned)
        out["contract"] = None if self.contract is None else self.contract.to_json()
        if self.hands is not None:
            out["hands"] = {str(s): [str(c) for c in self.hands[s]] for s in Seat}
        others = dict(self.doubts)  # deduced cards written as read: null, deduced again
        out["plays"] = [[str(s), None if c is None else str(c)]
                        + ([[str(o) for o in others[i]]] if i in others else [])
                        for i, (s, c) in enumerate(self.as_read)]
        if self.announces:
            out["announces"] = [a.to_json() for a in self.announces]
        if self.belote:
            out["belote"] = [str(s) for s in self.belote]
        return out


@dataclass(frozen=True, slots=True)
class Record:
    """A deal record (`game` False, one deal) or a game record (`game` True)."""

    rules: RuleSet
    deals: tuple[DealRecord, ...]
    game: bool = False
    errors: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        """The record in the version-1 JSON form it was read from (deal or game)."""
        if not self.game and len(self.deals) == 1:
            return self.deals[0].to_json(self.rules)
        deals = [d.to_json() for d in self.deals]
        return {"version": RECORD_VERSION, "rules": _rules_json(self.rules),
                "dealer": str(self.deals[0].dealer) if self.deals else "N", "deals": deals}


def _rules_json(rules: RuleSet) -> object:
    """A preset name, or the preset plus the knobs that differ from it."""
    if rules.name not in PRESETS:  # a custom rule set: every knob, over the default preset
        return {"preset": "ffb-coinche", **{k: v for k, v in rules.to_json().items()
                                             if k != "name"}}
    diff = rules.overrides()
    return rules.name if not diff else {"preset": rules.name, **diff}


def unread_plays(
    read: Sequence[tuple[Seat, Card | None]], rules: RuleSet, contract: Contract | None,
    dealer: Seat, hands: Mapping[Seat, tuple[Card, ...]] | None,
) -> tuple[list[tuple[Seat, Card]], tuple[int, ...], tuple[int, ...],
           tuple[tuple[Seat, Card | None], ...], tuple[tuple[tuple[Seat, Card], ...], ...]]:
    """Split the plays into those that can be judged (unread cards deduced) and the rest; with
    the fillings that tie when the unread cards stay open (`Deduction.ties`)."""
    if all(c is not None for _s, c in read) or contract is None:
        return [(s, c) for s, c in read if c is not None], (), (), (), ()
    found = deduce(rules, contract, dealer, read, hands)
    stop = found.unread[0] if found.unread else len(found.plays)
    judged = [(s, c) for s, c in found.plays[:stop] if c is not None]
    return judged, found.deduced, found.unread, found.plays[stop:], found.ties
