"""Plays the camera saw but could not read: their cards deduced from the rest of the deal.

A record may give a play's card as null: someone played there (the seat is known from where the
card landed) and nobody could read the card. Once all 32 plays are in, the unread cards are
exactly the cards never seen; only which unread play holds which of them is open. Every
assignment is judged by the full-information check (`engine.observe.audit`) and the ones that
break the fewest rules are kept (players follow the rules far more often than not): when one
is left, the cards are deduced. A single unread play needs no judging at all.

>>> import random
>>> from engine.playout import play_out
>>> from engine.rules import find_rules
>>> rules = find_rules("ffb-coinche")
>>> deal = play_out(random.Random(1), rules, Contract.from_json({"taker": "N", "bid": 80,
...                                                             "trump": "H"}))
>>> plays: list[Play] = list(deal.plays); seat, card = plays[5]; plays[5] = (seat, None)
>>> found = deduce(rules, deal.contract, deal.dealer, plays)
>>> found.plays[5] == (seat, card), found.deduced, found.unread
(True, (5,), ())
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from math import perm

from engine.cards import DECK, Card, Seat
from engine.contract import Contract
from engine.observe import ObservedDeal, Violation, audit
from engine.rules import RuleSet
from engine.tricks import tables

MAX_UNREAD = 6  # at most 6! = 720 assignments to judge
MAX_FILLINGS = 1500  # judging past open unread plays: ~0.2 ms per filling

Play = tuple[Seat, Card | None]


@dataclass(frozen=True, slots=True)
class Deduction:
    """The plays with every card the deal proves filled in; `unread` lists those still open."""

    plays: tuple[Play, ...]
    deduced: tuple[int, ...] = ()
    unread: tuple[int, ...] = ()
    # When several assignments break the fewest rules: each of them, cards filled in (the
    # referee scores the deal when they all give the same score).
    ties: tuple[tuple[tuple[Seat, Card], ...], ...] = ()


def deduce(rules: RuleSet, contract: Contract, dealer: Seat, plays: Sequence[Play],
           hands: Mapping[Seat, Iterable[Card]] | None = None) -> Deduction:
    """Fill the unread cards (None) of `plays` where the deal leaves exactly one answer."""
    unread = [i for i, (_seat, card) in enumerate(plays) if card is None]
    if not unread:
        return Deduction(tuple(plays))
    unseen = _unseen(plays)
    # Before the deal is over the unseen cards include the hands: nothing is proven yet.
    if len(plays) < 32 or len(unseen) != len(unread) or len(unread) > MAX_UNREAD:
        return Deduction(tuple(plays), (), tuple(unread))
    best: list[tuple[tuple[Seat, Card], ...]] = []
    fewest = None
    for trial in _fillings(plays, unread, unseen, hands):
        if len(unread) == 1:
            best = [trial]
            break
        broken = len(audit(rules, contract, dealer, trial, hands))
        if fewest is None or broken < fewest:
            fewest, best = broken, [trial]
        elif broken == fewest:
            best.append(trial)
    if len(best) != 1:
        return Deduction(tuple(plays), (), tuple(unread), tuple(best))
    return Deduction(best[0], tuple(unread), ())


def _unseen(plays: Sequence[Play]) -> list[Card]:
    """The cards seen nowhere in `plays`: what the unread plays (and the hands) may hold."""
    known = {card for _seat, card in plays if card is not None}
    return [c for c in DECK if c not in known]


def _fillings(plays: Sequence[Play], unread: Sequence[int], pool: Sequence[Card],
              hands: Mapping[Seat, Iterable[Card]] | None,
              ) -> Iterator[tuple[tuple[Seat, Card], ...]]:
    """`plays` with the `unread` ones given distinct cards of `pool` in every possible way (each
    card in its seat's hand, when the hands are given)."""
    held = None if hands is None else {s: set(hands.get(s, ())) for s in Seat}
    for order in permutations(pool, len(unread)):
        if held is not None and any(c not in held[plays[i][0]]
                                    for i, c in zip(unread, order, strict=True)):
            continue
        fill = dict(zip(unread, order, strict=True))
        yield tuple((seat, card if card is not None else fill[i])
                    for i, (seat, card) in enumerate(plays))


def least_broken(rules: RuleSet, contract: Contract, dealer: Seat, plays: Sequence[Play],
                 index: int, limit: int = MAX_FILLINGS) -> frozenset[Card] | None:
    """The cards unread play `index` of a deal so far may hold that break the fewest rules
    (`audit`), each counted at its best filling of the other unread plays with cards seen
    nowhere: what the rules allow there as well as anything. None when `index` is read, or over
    `limit` fillings would have to be judged."""
    unread = [i for i, (_seat, card) in enumerate(plays) if card is None]
    if index not in unread:
        return None
    pool = _unseen(plays)
    if perm(len(pool), len(unread)) > limit:
        return None
    least: dict[Card, int] = {}
    for trial in _fillings(plays, unread, pool, None):
        card, broken = trial[index][1], len(audit(rules, contract, dealer, trial))
        if broken < least.get(card, broken + 1):
            least[card] = broken
    fewest = min(least.values(), default=None)
    return None if fewest is None else frozenset(c for c, n in least.items() if n == fewest)


def violations_past_unread(rules: RuleSet, contract: Contract, dealer: Seat, plays: Sequence[Play],
                           hands: Mapping[Seat, Iterable[Card]] | None = None,
                           ) -> list[Violation] | None:
    """The violations of read plays that every possible card of the unread plays leads to.

    An unread card can change who won its trick (so who should lead the next) and what its trick
    asked for; a violation that holds whatever it was is proven all the same. Each filling of the
    unread plays with cards seen nowhere else is judged as the camera would (`ObservedDeal`) and
    only the violations found in all of them are kept, with the latest proof any of them needed.
    None when there are more than `MAX_FILLINGS` fillings to judge, or none fits the hands.
    """
    unread = [i for i, (_seat, card) in enumerate(plays) if card is None]
    pool = _unseen(plays)
    if perm(len(pool), len(unread)) > MAX_FILLINGS:
        return None
    blank = set(unread)
    common: dict[int, Violation] | None = None
    for trial in _fillings(plays, unread, pool, hands):
        obs = ObservedDeal(rules, contract, dealer, hands)
        for seat, card in trial:
            obs.play(seat, card)
        found = {v.play: v for v in obs.violations if v.play not in blank}
        if common is None:
            common = found
        else:
            common = {i: _later_proof(v, found[i]) for i, v in common.items()
                      if i in found and found[i].rule == v.rule}
        if not common:
            return []
    if common is None:
        return None  # no filling fits the hands given: judge up to the first unread play only
    return sorted(common.values(), key=lambda v: v.play)


def _later_proof(a: Violation, b: Violation) -> Violation:
    """Of one violation proven in two fillings, the later proof (the one both fillings have)."""
    if a.proven_by is None:  # the hands prove it in one filling: the other's proof holds
        return b
    if b.proven_by is None:
        return a
    return a if a.proven_by >= b.proven_by else b


def possible_leaders(rules: RuleSet, contract: Contract, dealer: Seat,
                     plays: Sequence[Play]) -> frozenset[Seat]:
    """The seats that may lead the trick after `plays` (whole tricks): the last trick's winner,
    whichever card each of its unread plays was (any card seen nowhere in `plays`). With more
    than `MAX_FILLINGS` ways to try (three or four unread), any seat of the trick."""
    if len(plays) % 4:
        raise ValueError(f"{len(plays)} plays: the next trick starts after a whole trick")
    if not plays:
        return frozenset({dealer.next(rules.clockwise)})
    trick = plays[-4:]
    t = tables(contract.trump, rules)
    blanks = [i for i, (_seat, card) in enumerate(trick) if card is None]
    pool = [c.index for c in _unseen(plays)]
    if perm(len(pool), len(blanks)) > MAX_FILLINGS:
        return frozenset(seat for seat, _card in trick)  # too many to try: any of them
    winners = set()
    for fill in permutations(pool, len(blanks)):
        cards = [c.index if c is not None else 0 for _seat, c in trick]
        for i, ci in zip(blanks, fill, strict=True):
            cards[i] = ci
        winners.add(trick[t.winning_position(cards)][0])
        if len(winners) == 4:
            break
    return frozenset(winners)
