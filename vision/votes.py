"""Tallies of a card's readings: each name's share of the votes, as tracks weigh them and as a
record's alternatives give them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def by_share(*tallies: Mapping[str, float]) -> list[tuple[str, float]]:
    """Card names by their share of the votes of `tallies` together, best first."""
    votes = tallies[0]  # (one tally, a track's own votes, read every frame: not copied)
    if len(tallies) > 1:
        summed: dict[str, float] = {}
        for tally in tallies:
            for card, v in tally.items():
                summed[card] = summed.get(card, 0.0) + v
        votes = summed
    total = sum(votes.values()) or 1.0
    return sorted(((c, v / total) for c, v in votes.items()), key=lambda cv: -cv[1])


def alternatives(readings: Iterable[tuple[str, float]], card: str) -> list[list[Any]]:
    """A record's `alternatives` for `card`: the other three best of `readings` (card, share,
    best first), each share to 3 places."""
    return [[c, round(v, 3)] for c, v in readings if c != card][:3]


def vote_shares(votes: Mapping[str, float]) -> dict[str, float]:
    """Each card's share of `votes`, best first, to 3 places: as a record's alternatives
    give them."""
    return {c: round(v, 3) for c, v in by_share(votes)}
