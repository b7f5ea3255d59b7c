"""Invariants on random deals (hypothesis): 162 points, each card once, winners, audit equality."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK, Team
from engine.contract import Trump
from engine.deal import Deal
from engine.observe import ObservedDeal, audit
from engine.rules import PRESETS
from engine.tricks import tables

seeds = st.integers(min_value=0, max_value=2**32)
presets = st.sampled_from(sorted(PRESETS))


def _key(violations):
    return [(v.play, v.seat, v.card, v.rule) for v in violations]


@settings(max_examples=150, deadline=None)
@given(seed=seeds, preset=presets)
def test_complete_deal_holds_162_points_and_each_card_once(gen, seed, preset) -> None:
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset])
    deal = Deal(p.rules, p.contract, p.dealer, p.hands)
    for _, card in p.plays:
        deal.play(card)
    assert deal.is_over and deal.turn is None
    assert sorted(c.index for _, c in deal.plays) == list(range(32))
    assert sum(deal.card_points().values()) == 162
    assert sum(t.points for t in deal.tricks) == 162
    assert sum(deal.tricks_won().values()) == 8
    assert deal.card_points()[Team.NS] + deal.card_points()[Team.EW] == 162


@settings(max_examples=150, deadline=None)
@given(seed=seeds, preset=presets)
def test_winner_holds_the_highest_card(gen, seed, preset) -> None:
    """The winner played the highest trump, else the highest card of the suit led."""
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset])
    t = tables(p.contract.trump, p.rules)
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    for seat, card in p.plays:
        obs.play(seat, card)
    previous_winner = p.dealer.next(p.rules.clockwise)
    for trick in obs.tricks:
        assert trick.leader is previous_winner
        cards = trick.cards
        trumps = [c for c in cards if p.contract.trump.is_trump(c.suit)
                  and p.contract.trump is not Trump.ALL_TRUMP]
        pool = trumps or [c for c in cards if c.suit is cards[0].suit]
        best = max(pool, key=lambda c: t.strength[c.index])
        assert dict((c, s) for s, c in trick.plays)[best] is trick.winner
        previous_winner = trick.winner


@settings(max_examples=200, deadline=None)
@given(seed=seeds, preset=presets, rate=st.sampled_from([0.05, 0.2, 0.6]))
def test_observation_audit_equals_full_information_check(gen, seed, preset, rate) -> None:
    """With revokes injected, the camera's audit of a complete deal is exactly the hands' check."""
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset], revoke_rate=rate)
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    for seat, card in p.plays:
        obs.play(seat, card)
    assert obs.is_complete
    flagged = _key(obs.violations)
    assert flagged == _key(audit(p.rules, p.contract, p.dealer, p.plays))
    # The true hands are the reconstructed ones: every injected revoke is found, nothing else.
    assert flagged == _key(audit(p.rules, p.contract, p.dealer, p.plays, p.hands))
    assert [v.play for v in obs.violations] == p.revokes
    with_hands = ObservedDeal(p.rules, p.contract, p.dealer, p.hands)
    for seat, card in p.plays:
        with_hands.play(seat, card)
    assert _key(with_hands.violations) == flagged
    assert all(v.proven_by is None for v in with_hands.violations)


@settings(max_examples=200, deadline=None)
@given(seed=seeds, preset=presets, oddities=st.integers(1, 6))
def test_audit_equality_survives_camera_oddities(gen, seed, preset, oddities) -> None:
    """Out-of-turn plays, cards seen twice, swapped plays: still the full-information verdict."""
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset], revoke_rate=0.1)
    plays = gen.perturb(rng, p.plays, oddities)
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    for seat, card in plays:
        obs.play(seat, card)
    assert _key(obs.violations) == _key(audit(p.rules, p.contract, p.dealer, plays))


@settings(max_examples=100, deadline=None)
@given(seed=seeds, preset=presets)
def test_a_refined_rule_names_the_play_that_proves_it(gen, seed, preset) -> None:
    """`rule_proven_by`: the same seat's play, after `proven_by`, at which the rule named became
    the rule named (one play earlier the flag named a lesser rule); set only then."""
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset], revoke_rate=0.3)
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    named_at: dict[int, tuple[int, str]] = {}  # play -> (the play that set its rule, rule)
    for i, (seat, card) in enumerate(p.plays):
        for v in obs.play(seat, card):
            if named_at.get(v.play, (0, ""))[1] != v.rule:
                named_at[v.play] = (i, v.rule)
    for v in obs.violations:
        if v.rule_proven_by is None:
            assert named_at[v.play][0] == v.proven_by  # never refined
            continue
        assert named_at[v.play] == (v.rule_proven_by, v.rule)
        assert v.proven_by is not None and v.rule_proven_by > v.proven_by
        assert p.plays[v.rule_proven_by][0] is v.seat


@settings(max_examples=100, deadline=None)
@given(seed=seeds, preset=presets)
def test_proven_by_is_the_earliest_proof(gen, seed, preset) -> None:
    """A play is flagged at its proof and not one play earlier; proofs are later same-seat plays."""
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset], revoke_rate=0.3)
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    flagged_at: dict[int, int] = {}
    for i, (seat, card) in enumerate(p.plays):
        for v in obs.play(seat, card):
            flagged_at.setdefault(v.play, i)
    for v in obs.violations:
        assert v.proven_by == flagged_at[v.play]
        assert v.proven_by is not None and v.proven_by > v.play
        assert p.plays[v.proven_by][0] is v.seat


@settings(max_examples=100, deadline=None)
@given(seed=seeds, preset=presets, cut=st.integers(0, 32))
def test_possible_cards_always_contain_the_true_hand(gen, seed, preset, cut) -> None:
    """On legal play, what a camera infers never excludes a card the seat really holds."""
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset])
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    for seat, card in p.plays[:cut]:
        obs.play(seat, card)
    played = {c for _, c in p.plays[:cut]}
    for seat, hand in p.hands.items():
        remaining = set(hand) - played
        possible = obs.possible_cards(seat)
        assert remaining <= possible
        assert not possible & played
    assert len(DECK) == 32
