"""Cards, suits, ranks, seats and teams: small immutable values with a text form that round-trips.

>>> Card.from_str("JH")
Card.from_str('JH')
>>> str(Card.from_str("10S"))
'TS'
>>> Seat.N.partner
Seat.S
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache


class CardError(ValueError):
    """A card, suit, rank or seat written in a form we cannot read."""


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @classmethod
    def from_str(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise CardError(f"unknown suit {text!r}: expected one of S H D C") from None

    # Identity hash: members are singletons, and Enum's name-based hash is slow on the hot path.
    __hash__ = object.__hash__

    @property
    def french(self) -> str:
        return _FRENCH_SUITS[self]

    def __str__(self) -> str:
        return self._value_

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_FRENCH_SUITS = {
    Suit.SPADES: "pique",
    Suit.HEARTS: "cœur",
    Suit.DIAMONDS: "carreau",
    Suit.CLUBS: "trèfle",
}


class Rank(enum.Enum):
    """Ranks in sequence order (7 8 9 T J Q K A), the order used for annonces."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    __hash__ = object.__hash__

    @classmethod
    def from_str(cls, text: str) -> Rank:
        t = text.strip().upper()
        if t == "10":
            t = "T"
        try:
            return cls(t)
        except ValueError:
            raise CardError(f"unknown rank {text!r}: expected one of 7 8 9 T J Q K A") from None

    @property
    def sequence_index(self) -> int:
        """Position in 7 8 9 T J Q K A, for sequences (tierce, cinquante, cent)."""
        return _RANK_INDEX[self]

    @property
    def french(self) -> str:
        """French corner letter: V, D, R for jack, queen, king; As for the ace."""
        return _FRENCH_RANKS[self]

    def __str__(self) -> str:
        return self._value_

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_INDEX = {rank: i for i, rank in enumerate(Rank)}
_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_FRENCH_RANKS = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "V",
    Rank.QUEEN: "D",
    Rank.KING: "R",
    Rank.ACE: "As",
}


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One of the 32 cards of a belote deck."""

    rank: Rank
    suit: Suit
    # 0..31, suit-major in S H D C order; stable for bitsets. Computed once: it is on the hot path.
    index: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", _SUIT_INDEX[self.suit] * 8 + _RANK_INDEX[self.rank])

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Read `JH`, `TS`, `10S` (case-insensitive)."""
        if not isinstance(text, str):
            raise CardError(f"card must be a string like 'JH', got {text!r}")
        t = text.strip()
        if len(t) < 2:
            raise CardError(f"unknown card {text!r}: expected rank + suit such as 'JH' or '10S'")
        try:
            return _card_cache(Rank.from_str(t[:-1]), Suit.from_str(t[-1]))
        except CardError as exc:
            raise CardError(f"unknown card {text!r}: {exc}") from None

    @property
    def french(self) -> str:
        """Display name in French: 'V♥', 'As♠', '10♦'."""
        return f"{self.rank.french}{_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


@cache
def _card_cache(rank: Rank, suit: Suit) -> Card:
    return Card(rank, suit)


# The 32 cards, suit-major; DECK[c.index] is c.
DECK: tuple[Card, ...] = tuple(_card_cache(r, s) for s in Suit for r in Rank)
CARD_NAMES: tuple[str, ...] = tuple(str(c) for c in DECK)


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Read a list of card strings, rejecting duplicates."""
    cards = [Card.from_str(t) for t in texts]
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"card {c} appears twice")
        seen.add(c)
    return cards


class Team(enum.Enum):
    NS = "NS"
    EW = "EW"

    __hash__ = object.__hash__

    @property
    def other(self) -> Team:
        return Team.EW if self is Team.NS else Team.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Team.NS else (Seat.E, Seat.W)

    def __str__(self) -> str:
        return self._value_


class Seat(enum.Enum):
    """The four seats. N-S and E-W are partners."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    __hash__ = object.__hash__

    @classmethod
    def from_str(cls, text: str) -> Seat:
        if not isinstance(text, str):
            raise CardError(f"seat must be one of N E S W, got {text!r}")
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise CardError(f"unknown seat {text!r}: expected one of N E S W") from None

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def team(self) -> Team:
        return _TEAM[self]

    def next(self, clockwise: bool = False) -> Seat:
        """The seat that plays after this one. Counterclockwise (default): N → W → S → E."""
        order = _CLOCKWISE if clockwise else _COUNTERCLOCKWISE
        return order[(order.index(self) + 1) % 4]

    def order_from(self, clockwise: bool = False) -> Iterator[Seat]:
        """This seat and the three after it, in playing order."""
        seat = self
        for _ in range(4):
            yield seat
            seat = seat.next(clockwise)

    def __str__(self) -> str:
        return self._value_

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


_TEAM = {Seat.N: Team.NS, Seat.S: Team.NS, Seat.E: Team.EW, Seat.W: Team.EW}
_PARTNER = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}
_COUNTERCLOCKWISE = (Seat.N, Seat.W, Seat.S, Seat.E)
_CLOCKWISE = (Seat.N, Seat.E, Seat.S, Seat.W)
