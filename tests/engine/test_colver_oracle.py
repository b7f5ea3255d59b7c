"""Outside oracle: colver (a Rust Belote-contrée engine) plays random deals; we must agree on all.

colver plays FFB coinche card play at suit contracts: for each deal we compare, at every play,
the legal set of the seat to play, then each trick's winner, the tricks and card points won.
COLVER_DEALS sets the number of deals (default 2000, about 2 s here).

Conventions mapped here: colver seats 0-3 play in order 0 -> 1 -> 2 -> 3 with 0-2 partners, i.e.
N W S E counterclockwise; its card index is suit * 8 + rank in 7 8 9 J Q K T A order. Its card
points already apply the FFB capot (252 for all eight tricks); ours are 162 and the capot bonus
belongs to scoring (`capot` knob), so a capot is compared as 162 + 90.

colver's scoring (`Env.rewards`, observed on random deals; not compared here) differs from the
ffb-coinche preset: no rounding (85 stays 85); made = card points + belote >= bid, with no need to
beat the defence (80-82 and 81-81 at 80 are made); made scores points + bid (+ belote), the
defence its points (+ its belote); failed gives the defence 162 + bid + every belote (the takers
lose theirs); coinched, the winner scores 162 + bid x 2 (x 3 at colver's surcoinche level, not
x 4) + every belote, the loser 0, where the preset multiplies (160 + bid + annonces); a capot
counts 252 card points, a capot bid is worth 250; there are no annonces, SA, TA nor générale.
"""

from __future__ import annotations

import os
import random

import pytest

from engine.cards import Card, Seat, Team
from engine.contract import Contract, Trump
from engine.deal import Deal
from engine.rules import find_rules

colver = pytest.importorskip("colver")

SEATS = (Seat.N, Seat.W, Seat.S, Seat.E)
_COLVER_RANKS = "789JQKTA"
TRUMPS = (Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS)


def from_colver(i: int) -> Card:
    return Card.from_str(_COLVER_RANKS[i % 8] + "SHDC"[i // 8])


def test_card_mapping_matches_colver_names() -> None:
    names = [colver.Env.card_name(i) for i in range(32)]
    for i, name in enumerate(names):
        card = from_colver(i)
        assert name == card.french.replace("V", "J").replace("D", "Q").replace("R", "K") \
            .replace("As", "A"), (i, name, card)


def test_random_deals_agree_with_colver() -> None:
    n = int(os.environ.get("COLVER_DEALS", "2000"))
    rules = find_rules("ffb-coinche")
    rng = random.Random(2024)
    checked_plays = 0
    for d in range(n):
        dealer = rng.randrange(4)
        env = colver.Env.deal(dealer=dealer, seed=rng.randrange(2**31))
        trump_i = rng.randrange(4)
        team = rng.randrange(2)
        env.set_contract(trump_i, 80, team, 0)
        env.set_phase_playing()
        hands = {SEATS[p]: [from_colver(c) for c in h] for p, h in enumerate(env.get_hands())}
        taker = SEATS[team]
        deal = Deal(rules, Contract(taker, 80, TRUMPS[trump_i]), SEATS[dealer], hands)
        while not env.is_terminal():
            seat = SEATS[env.current_player()]
            assert deal.turn is seat, f"deal {d}: colver has {seat} to play, we have {deal.turn}"
            theirs = {from_colver(a) for a in env.legal_actions()}
            ours = deal.legal_cards()
            assert ours == theirs, (
                f"deal {d} play {len(deal.plays)} ({seat}, trump {TRUMPS[trump_i]}, trick "
                f"{[str(c) for _, c in deal.current_trick]}): ours {sorted(map(str, ours))}, "
                f"colver {sorted(map(str, theirs))}")
            action = rng.choice(env.legal_actions())
            env.step(action)
            deal.play(from_colver(action))
            checked_plays += 1
            if len(deal.plays) % 4 == 0 and not env.is_terminal():
                assert SEATS[env.get_trick_lead()] is deal.tricks[-1].winner, (
                    f"deal {d} trick {len(deal.tricks)}: {deal.tricks[-1]}, colver says "
                    f"{SEATS[env.get_trick_lead()]}")
        assert deal.is_over
        tricks = deal.tricks_won()
        assert list(env.get_tricks_won()) == [tricks[Team.NS], tricks[Team.EW]], f"deal {d}"
        points = deal.card_points()
        expected = [points[Team.NS], points[Team.EW]]
        for i, team_ in enumerate((Team.NS, Team.EW)):
            if tricks[team_] == 8:
                expected[i] += 90
        assert list(env.get_points()) == expected, f"deal {d}: points {expected}"
    assert checked_plays == 32 * n
