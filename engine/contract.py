"""The contract a deal is played under: who took, for how much, in which trump, coinched or not.

>>> Contract.from_json({"taker": "N", "bid": 90, "trump": "H", "coinche": 2})
Contract(taker=Seat.N, bid=90, trump=Trump.HEARTS, coinche=2)
>>> str(Contract.from_json({"taker": "E", "bid": "capot", "trump": "SA"}))
'E capot SA'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from engine.cards import CardError, Seat, Suit


class ContractError(ValueError):
    """A contract that cannot exist (unknown trump, bad bid, bad coinche level)."""


class Trump(enum.Enum):
    """A trump mode: one of the four suits, sans-atout (no trump) or tout-atout (all trump)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    NO_TRUMP = "SA"
    ALL_TRUMP = "TA"

    __hash__ = object.__hash__

    @classmethod
    def from_str(cls, text: str) -> Trump:
        if not isinstance(text, str):
            raise ContractError(f"trump must be one of S H D C SA TA, got {text!r}")
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ContractError(f"unknown trump {text!r}: expected one of S H D C SA TA") from None

    @property
    def suit(self) -> Suit | None:
        """The trump suit of a suit contract; None at SA and TA."""
        return None if self in (Trump.NO_TRUMP, Trump.ALL_TRUMP) else Suit(self.value)

    def is_trump(self, suit: Suit) -> bool:
        """Whether cards of `suit` are trumps under this mode."""
        return self is Trump.ALL_TRUMP or self.value == suit.value

    def __str__(self) -> str:
        return self._value_

    def __repr__(self) -> str:
        return f"Trump.{self.name}"


Bid = int | Literal["capot", "generale"]


@dataclass(frozen=True, slots=True)
class Contract:
    taker: Seat
    bid: Bid
    trump: Trump
    coinche: int = 1  # 1 plain, 2 coinché (contré), 4 surcoinché (surcontré)

    def __post_init__(self) -> None:
        if self.coinche not in (1, 2, 4):
            raise ContractError(f"coinche must be 1, 2 or 4, got {self.coinche!r}")
        if isinstance(self.bid, bool) or not (
            isinstance(self.bid, int) or self.bid in ("capot", "generale")
        ):
            raise ContractError(f"bid must be an integer, 'capot' or 'generale', got {self.bid!r}")
        if isinstance(self.bid, int) and self.bid <= 0:
            raise ContractError(f"bid must be positive, got {self.bid}")

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Contract:
        if not isinstance(data, Mapping):
            raise ContractError(f"contract must be an object, got {data!r}")
        for key in ("taker", "bid", "trump"):
            if key not in data:
                raise ContractError(f"contract is missing {key!r}")
        unknown = set(data) - {"taker", "bid", "trump", "coinche"}
        if unknown:
            raise ContractError(f"contract has unknown field(s) {sorted(unknown)}")
        try:
            taker = Seat.from_str(str(data["taker"]))
        except CardError as exc:
            raise ContractError(f"contract.taker: {exc}") from None
        bid = data["bid"]
        if isinstance(bid, str) and bid.lower() in ("capot", "generale", "générale"):
            bid = "generale" if bid.lower() != "capot" else "capot"
        coinche = data.get("coinche", 1)
        if not isinstance(coinche, int) or isinstance(coinche, bool):
            raise ContractError(f"coinche must be 1, 2 or 4, got {coinche!r}")
        return cls(taker, bid, Trump.from_str(str(data["trump"])), coinche)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, object]:
        return {"taker": str(self.taker), "bid": self.bid, "trump": str(self.trump),
                "coinche": self.coinche}

    @property
    def takers(self) -> tuple[Seat, Seat]:
        return (self.taker, self.taker.partner)

    def __str__(self) -> str:
        level = {1: "", 2: " coinché", 4: " surcoinché"}[self.coinche]
        return f"{self.taker} {self.bid} {self.trump}{level}"
