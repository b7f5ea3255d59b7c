"""Random deals played out to the end: for property tests, benchmarks and simulations.

Each seat in turn plays a uniformly random legal card (bitmask legality, the winner of a trick
leads the next). With `revoke_rate`, a seat holding a card it may not play sometimes plays one on
purpose; those play indices are listed in `revokes`. Randomness comes only from the `rng` given,
so a seed gives one deal.

    deal = play_out(random.Random(7), PRESETS["ffb"], Contract(Seat.NORTH, 80, Trump.HEARTS))
    deal.plays   # 32 (seat, card) pairs, the first by the seat after deal.dealer
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import DECK, Card, Seat
from engine.contract import Contract
from engine.legality import legal_mask
from engine.rules import RuleSet
from engine.tricks import tables


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A generated deal: who held what, and the 32 plays in order."""

    rules: RuleSet
    contract: Contract
    dealer: Seat
    hands: dict[Seat, list[Card]]
    plays: list[tuple[Seat, Card]]
    revokes: list[int]  # indices of plays chosen illegal on purpose


def deal_hands(rng: random.Random) -> dict[Seat, list[Card]]:
    """Eight cards to each seat from a shuffled deck."""
    cards = list(DECK)
    rng.shuffle(cards)
    return {seat: cards[8 * i : 8 * i + 8] for i, seat in enumerate(Seat)}


def play_out(
    rng: random.Random, rules: RuleSet, contract: Contract, revoke_rate: float = 0.0
) -> PlayedDeal:
    """Pick a dealer, deal, and play the eight tricks at random (see the module doc)."""
    dealer = rng.choice(list(Seat))
    hands = deal_hands(rng)
    t = tables(contract.trump, rules)
    left = {s: sum(1 << c.index for c in h) for s, h in hands.items()}
    plays: list[tuple[Seat, Card]] = []
    revokes: list[int] = []
    leader = dealer.next(rules.clockwise)
    for _ in range(8):
        trick: list[int] = []
        seats: list[Seat] = []
        seat = leader
        for _ in range(4):
            legal = legal_mask(left[seat], trick, t, rules)
            pool = legal
            if left[seat] & ~legal and rng.random() < revoke_rate:
                pool = left[seat] & ~legal
                revokes.append(len(plays))
            card = rng.choice([i for i in range(32) if pool >> i & 1])
            left[seat] &= ~(1 << card)
            trick.append(card)
            seats.append(seat)
            plays.append((seat, DECK[card]))
            seat = seat.next(rules.clockwise)
        leader = seats[t.winning_position(trick)]
    return PlayedDeal(rules, contract, dealer, hands, plays, revokes)
