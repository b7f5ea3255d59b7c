"""Scene layouts: the piles of close-ups (cards dropped on one another at any angle)."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
from tiny_deck import tiny_design

from vision.detections import CLASS_NAMES
from vision.render import TableScene
from vision.scene import _Deck, closeup_layout

SIZE = (320, 320)
CARD_HEIGHT = 120.0


def _layout(seed: int, piles: float):
    rng = random.Random(seed)
    scene = TableScene(tiny_design(), np.zeros((8, 8, 3), np.uint8), SIZE, seed=seed,
                       card_height=CARD_HEIGHT)
    placements, _ = closeup_layout(scene, _Deck(tiny_design(), rng), rng, piles)
    return placements


def _turn(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def test_a_pile_is_two_to_four_cards_each_landing_near_the_last():
    for seed in range(30):
        pile = _layout(seed, piles=1.0)
        assert 2 <= len(pile) <= 4
        assert [p.z for p in pile] == sorted(p.z for p in pile)  # each lands on the ones before
        for below, above in itertools.pairwise(pile):
            # Under two thirds of a card away (the picture's edge only pulls it closer): always
            # partly on the card before it.
            assert math.dist(below.center, above.center) <= 0.66 * CARD_HEIGHT
            assert _turn(below.angle, above.angle) <= 50.0001
        assert all(0.15 * SIZE[0] <= p.center[0] <= 0.85 * SIZE[0] for p in pile)


def test_piles_turn_cards_further_than_fans_and_rows_do():
    """What the other close-ups never make: neighbours turned 25-50 degrees from each other."""
    def wide_turns(piles):
        turns = []
        for seed in range(40):
            pile = _layout(seed, piles)
            turns += [_turn(a.angle, b.angle) for a, b in itertools.pairwise(pile)
                      if math.dist(a.center, b.center) < 0.66 * CARD_HEIGHT]
        return sum(t > 25 for t in turns)

    assert wide_turns(1.0) >= 20 and wide_turns(0.0) <= 3


def test_a_pile_holds_each_belote_card_once():
    for seed in range(20):
        names = [p.card for p in _layout(seed, piles=1.0) if p.card in CLASS_NAMES]
        assert len(names) == len(set(names))
