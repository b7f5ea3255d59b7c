"""Annonces (tierce, cinquante, cent, carrés) and belote-rebelote: values, comparison, resolution.

>>> from engine.cards import parse_cards
>>> a = annonce_of(parse_cards(["QD", "KD", "AD"]), Trump.HEARTS, RuleSet())
>>> a.kind, a.points
('tierce', 20)
>>> [str(x) for x in best_annonces(parse_cards(["JS", "JH", "JD", "JC", "7H", "8H", "9H", "AS"]),
...                                Trump.HEARTS, RuleSet())]
['carré J (200)', 'tierce 7H8H9H (20)']

Rules (docs/rules.md §2 "Annonces"): a sequence of 3/4/5 cards of one suit in the order
7 8 9 T J Q K A is worth 20/50/100 (a run of 6 or more is one cent); a carré at a suit or
tout-atout contract: J 200, 9 150, A T K Q 100; at sans-atout: A 200, T 150, K Q J 100 and nines
100 only with `carre_nines_at_sa`. A card counts in one annonce only. Only the team with the best
annonce scores, and then all of its annonces; equal best annonces → none count.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.cards import Card, Rank, Seat, Suit, Team
from engine.contract import Trump
from engine.rules import RuleSet


class AnnonceError(ValueError):
    """Cards that do not form a tierce, cinquante, cent or carré under the contract."""


_SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100}
_SEQUENCE_KIND = {3: "tierce", 4: "cinquante", 5: "cent"}
# Carré values by rank at suit and tout-atout contracts, then at sans-atout (nines: a knob).
_CARRE_TRUMP = {Rank.JACK: 200, Rank.NINE: 150, Rank.ACE: 100, Rank.TEN: 100, Rank.KING: 100,
                Rank.QUEEN: 100}
_CARRE_SA = {Rank.ACE: 200, Rank.TEN: 150, Rank.KING: 100, Rank.QUEEN: 100, Rank.JACK: 100}
BELOTE_POINTS = 20


@dataclass(frozen=True, slots=True)
class Annonce:
    """One annonce: a sequence (tierce, cinquante, cent) or a carré, with its value."""

    kind: str  # "tierce" | "cinquante" | "cent" | "carré"
    cards: tuple[Card, ...]  # sequences in rank order; carrés in S H D C order
    points: int

    @property
    def is_carre(self) -> bool:
        return self.kind == "carré"

    @property
    def top(self) -> Rank:
        """The highest card of a sequence (in 7..A order); the rank of a carré."""
        return max((c.rank for c in self.cards), key=lambda r: r.sequence_index)

    @property
    def suit(self) -> Suit | None:
        """The suit of a sequence; None for a carré."""
        return None if self.is_carre else self.cards[0].suit

    def strength(self, trump: Trump) -> tuple[int, int, int, int, int]:
        """Sort key: points, carré over sequence, length, top card, trump sequence (suit only)."""
        in_trump = int(trump.suit is not None and self.suit is trump.suit)
        return (self.points, int(self.is_carre), len(self.cards), self.top.sequence_index,
                in_trump)

    def __str__(self) -> str:
        if self.is_carre:
            return f"carré {self.top} ({self.points})"
        return f"{self.kind} {''.join(str(c) for c in self.cards)} ({self.points})"


def carre_points(rank: Rank, trump: Trump, rules: RuleSet) -> int:
    """Value of a carré of `rank` under the contract; 0 when it is not an annonce."""
    if trump is Trump.NO_TRUMP:
        if rank is Rank.NINE:
            return 100 if rules.carre_nines_at_sa else 0
        return _CARRE_SA.get(rank, 0)
    return _CARRE_TRUMP.get(rank, 0)


def annonce_of(cards: Sequence[Card], trump: Trump, rules: RuleSet) -> Annonce:
    """The annonce these cards form (a declared annonce), or AnnonceError saying why not."""
    shown = " ".join(str(c) for c in cards)
    if len(set(cards)) != len(cards):
        raise AnnonceError(f"annonce [{shown}] repeats a card")
    if len(cards) == 4 and len({c.rank for c in cards}) == 1:
        points = carre_points(cards[0].rank, trump, rules)
        if points == 0:
            raise AnnonceError(f"a carré of {cards[0].rank} is not an annonce at {trump}")
        return Annonce("carré", tuple(sorted(cards, key=lambda c: c.index)), points)
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        raise AnnonceError(f"[{shown}] is neither a sequence of 3+ cards of one suit nor a carré")
    ordered = sorted(cards, key=lambda c: c.rank.sequence_index)
    idx = [c.rank.sequence_index for c in ordered]
    if idx != list(range(idx[0], idx[0] + len(idx))):
        raise AnnonceError(f"[{shown}] is not a sequence (order 7 8 9 T J Q K A)")
    return _sequence(ordered)


def _sequence(ordered: Sequence[Card]) -> Annonce:
    n = min(len(ordered), 5)  # a run of six or more is one cent
    return Annonce(_SEQUENCE_KIND[n], tuple(ordered), _SEQUENCE_POINTS[n])


def _runs(cards: Iterable[Card]) -> list[Annonce]:
    """Maximal runs of 3+ cards in each suit (each run is one annonce)."""
    out: list[Annonce] = []
    by_suit: dict[Suit, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c)
    for suit_cards in by_suit.values():
        suit_cards.sort(key=lambda c: c.rank.sequence_index)
        run: list[Card] = []
        for c in suit_cards:
            if run and c.rank.sequence_index != run[-1].rank.sequence_index + 1:
                if len(run) >= 3:
                    out.append(_sequence(run))
                run = []
            run.append(c)
        if len(run) >= 3:
            out.append(_sequence(run))
    return out


def best_annonces(hand: Iterable[Card], trump: Trump, rules: RuleSet) -> list[Annonce]:
    """The annonces a hand should declare: disjoint, most points, then the strongest best one."""
    cards = set(hand)
    ranks = {c.rank for c in cards}
    carres = [Annonce("carré", tuple(sorted((c for c in cards if c.rank is r),
                                            key=lambda c: c.index)), carre_points(r, trump, rules))
              for r in ranks
              if sum(1 for c in cards if c.rank is r) == 4 and carre_points(r, trump, rules) > 0]
    best: list[Annonce] = []
    best_key: tuple[int, tuple[int, ...]] = (-1, ())
    # A card counts once: try every subset of carrés, the rest of the hand gives sequences.
    for k in range(len(carres) + 1):
        for chosen in itertools.combinations(carres, k):
            used = {c for a in chosen for c in a.cards}
            found = list(chosen) + _runs(cards - used)
            top = max((a.strength(trump) for a in found), default=())
            key = (sum(a.points for a in found), top)
            if key > best_key:
                best, best_key = found, key
    return sorted(best, key=lambda a: a.strength(trump), reverse=True)


@dataclass(frozen=True, slots=True)
class Declared:
    """An annonce declared by a seat."""

    seat: Seat
    annonce: Annonce

    def __str__(self) -> str:
        return f"{self.seat}: {self.annonce}"


@dataclass(frozen=True, slots=True)
class Resolution:
    """Which team's annonces count, and the reason (for a score sheet)."""

    team: Team | None  # the team that scores its annonces; None when none count
    counted: tuple[Declared, ...]
    points: Mapping[Team, int]
    reason: str


def resolve(declared: Sequence[Declared], trump: Trump) -> Resolution:
    """Only the team with the best annonce scores, all of its annonces; equal best → none count."""
    best: dict[Team, Declared] = {}
    for d in declared:
        team = d.seat.team
        if team not in best or d.annonce.strength(trump) > best[team].annonce.strength(trump):
            best[team] = d
    zero = {Team.NS: 0, Team.EW: 0}
    if not best:
        return Resolution(None, (), zero, "no annonce")
    if len(best) == 1:
        team = next(iter(best))
        reason = f"{team} alone declared (best {best[team].annonce})"
    else:
        ns, ew = best[Team.NS], best[Team.EW]
        kn, ke = ns.annonce.strength(trump), ew.annonce.strength(trump)
        if kn == ke:
            return Resolution(None, (), zero,
                              f"equal best annonces {ns.annonce} and {ew.annonce}: none count")
        team = Team.NS if kn > ke else Team.EW
        reason = f"{best[team]} beats {best[team.other]}"
    counted = tuple(d for d in declared if d.seat.team is team)
    points = dict(zero)
    points[team] = sum(d.annonce.points for d in counted)
    return Resolution(team, counted, points, reason)


def belote_suits(trump: Trump, rules: RuleSet) -> tuple[Suit, ...]:
    """Suits whose king and queen make a belote: the trump suit; each suit at TA; none at SA."""
    if trump is Trump.NO_TRUMP:
        return ()
    if trump is Trump.ALL_TRUMP:
        return tuple(Suit) if rules.belote_in_ta else ()
    assert trump.suit is not None
    return (trump.suit,)


def belotes_from_plays(plays: Sequence[tuple[Seat, Card]], trump: Trump,
                       rules: RuleSet) -> list[tuple[Seat, Suit]]:
    """Belote-rebelote seen in the plays: the same player played the king and the queen of trump.

    A card seen twice counts for its first player (the second play is card-already-played).
    """
    who = {c.index: s for s, c in reversed(plays)}  # by Card.index: the first play wins
    out: list[tuple[Seat, Suit]] = []
    for suit in belote_suits(trump, rules):
        k, q = who.get(Card(Rank.KING, suit).index), who.get(Card(Rank.QUEEN, suit).index)
        if k is not None and k is q:
            out.append((k, suit))
    return out


def belotes_from_hands(hands: Mapping[Seat, Iterable[Card]], trump: Trump,
                       rules: RuleSet) -> list[tuple[Seat, Suit]]:
    """Belote-rebelote held in the hands: one player holds the king and the queen of trump."""
    plays = [(s, c) for s, cards in hands.items() for c in cards]
    return belotes_from_plays(plays, trump, rules)
