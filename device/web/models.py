"""Request bodies of the referee API: strict pydantic models (no coercion, no unknown fields)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from engine.cards import Card, CardError

SeatName = Literal["N", "E", "S", "W"]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
CardText = Annotated[str, StringConstraints(pattern=r"^(?:[789TJQKAtjqka]|10)[SHDCshdc]$")]


def _card(text: str) -> str:
    """Canonical card text ('10s' → 'TS'); a ValueError naming the card otherwise."""
    try:
        return str(Card.from_str(text))
    except CardError as exc:
        raise ValueError(str(exc)) from None


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class GameStart(_Body):
    """Start a game: a preset name, or {"preset": name, knob: value...}; names of players/teams."""

    rules: Annotated[str, StringConstraints(min_length=1, max_length=40)] | dict[str, Any] = (
        "ffb-coinche")
    players: dict[SeatName, Name] = Field(default_factory=dict)
    teams: dict[Literal["NS", "EW"], Name] = Field(default_factory=dict)
    dealer: SeatName | None = Field(None, description="Start the first deal with this dealer.")


class DealStart(_Body):
    dealer: SeatName


class ContractIn(_Body):
    """The final contract of the auction, as the referee heard it."""

    taker: SeatName
    bid: Annotated[int, Field(ge=1, le=1000)] | Literal["capot", "generale"]
    trump: Literal["S", "H", "D", "C", "SA", "TA"]
    coinche: Literal[1, 2, 4] = 1


class AuctionIn(_Body):
    """The calls of the auction in order from the first speaker; the contract is derived."""

    calls: Annotated[list[Annotated[str, StringConstraints(min_length=1, max_length=20)]],
                     Field(min_length=1, max_length=60)]
    turned: CardText | None = Field(None, description="The turned card (belote prise).")


class CoincheIn(_Body):
    """Change only the coinche level of the deal's contract."""

    coinche: Literal[1, 2, 4]


class AnnounceIn(_Body):
    seat: SeatName
    cards: Annotated[list[CardText], Field(min_length=3, max_length=8)]

    @field_validator("cards")
    @classmethod
    def _cards(cls, v: list[str]) -> list[str]:
        cards = [_card(c) for c in v]
        if len(set(cards)) != len(cards):
            raise ValueError("a card appears twice in the announce")
        return cards


class BeloteIn(_Body):
    seat: SeatName


class PlayIn(_Body):
    """A card the camera missed, entered by hand."""

    seat: SeatName
    card: CardText

    @field_validator("card")
    @classmethod
    def _card(cls, v: str) -> str:
        return _card(v)


class CorrectionIn(_Body):
    """Replace the card read at play `play` of the current deal."""

    play: Annotated[int, Field(ge=0, le=63)]
    card: CardText

    @field_validator("card")
    @classmethod
    def _card(cls, v: str) -> str:
        return _card(v)


class RulingIn(_Body):
    play: Annotated[int, Field(ge=0, le=63)]
    rule: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    decision: Literal["accepted", "dismissed"]


class UndoIn(_Body):
    """Cancel one event (default: the last one still in effect)."""

    seq: Annotated[int, Field(ge=1)] | None = None


class Done(BaseModel):
    """What a referee action wrote to the log."""

    seq: int
    type: str
    data: dict[str, Any]
