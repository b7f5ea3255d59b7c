"""Shared helpers for engine tests: random deals played out, with revokes and oddities on demand."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from engine import playout
from engine.cards import Card, Seat
from engine.contract import Contract, Trump
from engine.playout import PlayedDeal, deal_hands
from engine.rules import PRESETS, RuleSet


def random_contract(rng: random.Random, rules: RuleSet) -> Contract:
    return Contract(rng.choice(list(Seat)), 80, rng.choice(rules.trump_modes))


def play_out(rng: random.Random, rules: RuleSet | None = None, contract: Contract | None = None,
             revoke_rate: float = 0.0) -> PlayedDeal:
    """A random preset and contract unless given, then `engine.playout.play_out`."""
    rules = rules or rng.choice(list(PRESETS.values()))
    contract = contract or random_contract(rng, rules)
    return playout.play_out(rng, rules, contract, revoke_rate)


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
    return SimpleNamespace(play_out=play_out, perturb=perturb, random_hands=deal_hands,
                           random_contract=random_contract, Trump=Trump)
