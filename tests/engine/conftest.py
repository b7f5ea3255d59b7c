"""Shared helpers for engine tests: random deals played out, with revokes and oddities on demand."""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from engine.cards import DECK, Card, Seat
from engine.contract import Contract, Trump
from engine.legality import legal_mask
from engine.rules import PRESETS, RuleSet
from engine.tricks import tables


@dataclass
class Played:
    """A generated deal: who held what, and the plays in order."""

    rules: RuleSet
    contract: Contract
    dealer: Seat
    hands: dict[Seat, list[Card]]
    plays: list[tuple[Seat, Card]]
    revokes: list[int]  # indices of plays chosen illegal on purpose


def random_hands(rng: random.Random) -> dict[Seat, list[Card]]:
    cards = list(DECK)
    rng.shuffle(cards)
    return {seat: cards[8 * i:8 * i + 8] for i, seat in enumerate(Seat)}


def random_contract(rng: random.Random, rules: RuleSet) -> Contract:
    return Contract(rng.choice(list(Seat)), 80, rng.choice(rules.trump_modes))


def play_out(rng: random.Random, rules: RuleSet | None = None, contract: Contract | None = None,
             revoke_rate: float = 0.0) -> Played:
    """Deal at random and play in turn; with `revoke_rate`, sometimes play an illegal card."""
    rules = rules or rng.choice(list(PRESETS.values()))
    contract = contract or random_contract(rng, rules)
    dealer = rng.choice(list(Seat))
    hands = random_hands(rng)
    t = tables(contract.trump, rules)
    left = {s: sum(1 << c.index for c in h) for s, h in hands.items()}
    plays: list[tuple[Seat, Card]] = []
    revokes: list[int] = []
    leader = dealer.next(rules.clockwise)
    for _ in range(8):
        trick: list[int] = []
        seat = leader
        seats = []
        for _ in range(4):
            legal = legal_mask(left[seat], trick, t, rules)
            illegal = left[seat] & ~legal
            pool = legal
            if illegal and rng.random() < revoke_rate:
                pool = illegal
                revokes.append(len(plays))
            choices = [i for i in range(32) if pool >> i & 1]
            card = rng.choice(choices)
            left[seat] &= ~(1 << card)
            trick.append(card)
            seats.append(seat)
            plays.append((seat, DECK[card]))
            seat = seat.next(rules.clockwise)
        leader = seats[t.winning_position(trick)]
    return Played(rules, contract, dealer, hands, plays, revokes)


def perturb(rng: random.Random, plays: list[tuple[Seat, Card]], n: int) -> list[tuple[Seat, Card]]:
    """Camera-like oddities: a play credited to another seat, a card seen twice, plays swapped."""
    out = list(plays)
    for _ in range(n):
        i = rng.randrange(len(out))
        kind = rng.randrange(3)
        if kind == 0:
            out[i] = (rng.choice(list(Seat)), out[i][1])
        elif kind == 1:
            out[i] = (out[i][0], out[rng.randrange(len(out))][1])
        else:
            j = rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
    return out


@pytest.fixture(scope="session")
def gen() -> SimpleNamespace:
    """Generators for tests (session scope so hypothesis tests may use them)."""
    return SimpleNamespace(play_out=play_out, perturb=perturb, random_hands=random_hands,
                           random_contract=random_contract, Trump=Trump)
