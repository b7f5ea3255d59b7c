"""Unread plays (card null): deduced by elimination when the deal proves them, never guessed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.deduce import (
    MAX_FILLINGS,
    MAX_UNREAD,
    deduce,
    least_broken,
    violations_past_unread,
)
from engine.observe import ObservedDeal
from engine.record import judge, load_record
from engine.rules import PRESETS

seeds = st.integers(min_value=0, max_value=2**32)
presets = st.sampled_from(sorted(PRESETS))


def _blank(plays, indices):
    return [(s, None if i in indices else c) for i, (s, c) in enumerate(plays)]


@settings(max_examples=100, deadline=None)
@given(seed=seeds, preset=presets)
def test_one_unread_play_of_a_complete_deal_is_always_deduced(gen, seed, preset) -> None:
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset], revoke_rate=0.1)  # revokes do not matter here
    i = rng.randrange(32)
    found = deduce(p.rules, p.contract, p.dealer, _blank(p.plays, {i}))
    assert list(found.plays) == p.plays
    assert found.deduced == (i,) and found.unread == ()


@settings(max_examples=60, deadline=None)
@given(seed=seeds, preset=presets, k=st.integers(min_value=2, max_value=3))
def test_several_unread_plays_of_a_legal_deal_are_right_or_left_open(gen, seed, preset, k) -> None:
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset])
    blanks = set(rng.sample(range(32), k))
    found = deduce(p.rules, p.contract, p.dealer, _blank(p.plays, blanks))
    if found.deduced:  # the only assignment breaking no rule: the true one
        assert list(found.plays) == p.plays and found.unread == ()
    else:
        assert set(found.unread) == blanks
        assert [c for _s, c in found.plays].count(None) == k


def test_two_unread_plays_are_mostly_deduced(gen) -> None:
    rng = random.Random(7)
    done = 0
    for _ in range(40):
        p = gen.play_out(rng, PRESETS["ffb-coinche"])
        blanks = set(rng.sample(range(32), 2))
        found = deduce(p.rules, p.contract, p.dealer, _blank(p.plays, blanks))
        done += bool(found.deduced)
        assert not found.deduced or list(found.plays) == p.plays
    assert done >= 20  # suits and trumps usually leave one legal way; the rest stay open


def test_nothing_is_deduced_before_the_deal_is_over(gen) -> None:
    p = gen.play_out(random.Random(3), PRESETS["ffb-coinche"])
    plays = _blank(p.plays[:20], {4})
    found = deduce(p.rules, p.contract, p.dealer, plays)
    assert found.plays == tuple(plays) and found.unread == (4,) and found.deduced == ()


def test_the_hands_narrow_the_candidates(gen) -> None:
    p = gen.play_out(random.Random(5), PRESETS["ffb-coinche"])
    blanks = {0, 1, 2, 3}  # a whole trick unread: only the hands can tell
    found = deduce(p.rules, p.contract, p.dealer, _blank(p.plays, blanks), p.hands)
    assert list(found.plays) == p.plays and found.deduced == (0, 1, 2, 3)


def test_six_unread_plays_are_judged(gen) -> None:
    # Seed 2113 deal 7: six cards of an unseen design never read (queens and kings), four of
    # them proven by the rest of the deal and the weak readings where they lay; with five as
    # the most judged, the whole deal stayed open.
    rng = random.Random(11)
    for _ in range(4):
        p = gen.play_out(rng, PRESETS["ffb-coinche"])
        blanks = set(rng.sample(range(32), 6))
        found = deduce(p.rules, p.contract, p.dealer, _blank(p.plays, blanks))
        if found.deduced:
            assert list(found.plays) == p.plays
        else:  # the true way is among the ways that break no rule
            assert tuple(p.plays) in found.ties


def test_too_many_unread_plays_stay_open(gen) -> None:
    p = gen.play_out(random.Random(9), PRESETS["ffb-coinche"])
    blanks = set(range(MAX_UNREAD + 1))
    assert deduce(p.rules, p.contract, p.dealer, _blank(p.plays, blanks)).unread == tuple(blanks)


def _record(p, plays):
    return {"rules": "ffb-coinche", "dealer": str(p.dealer), "contract": p.contract.to_json(),
            "plays": [[str(s), None if c is None else str(c)] for s, c in plays]}


def test_a_record_with_an_unread_card_is_scored_as_the_deal_proves_it(gen) -> None:
    p = gen.play_out(random.Random(11), PRESETS["ffb-coinche"])
    full = judge(load_record(_record(p, p.plays)))
    seen = judge(load_record(_record(p, _blank(p.plays, {9}))))
    assert seen["score"] == full["score"] and seen["tricks"] == full["tricks"]
    assert seen["deduced"] == [9] and "unread" not in full


def test_an_open_unread_card_stops_the_judging_there(gen) -> None:
    p = gen.play_out(random.Random(13), PRESETS["ffb-coinche"])
    record = load_record(_record(p, _blank(p.plays[:14], {6})))
    deal = record.deals[0]
    assert len(deal.plays) == 6 and deal.unread == (6,)
    verdict = judge(record)
    assert verdict["unread"] == [6] and verdict["score"] is None
    assert load_record(record.to_json()).to_json() == record.to_json()  # nothing lost


@pytest.mark.parametrize("bad", [["N"], ["N", None, 3], [None, "JH"]])
def test_a_play_without_a_seat_is_still_an_error(bad) -> None:
    with pytest.raises(ValueError, match=r"plays\[0\]"):
        load_record({"rules": "ffb-coinche", "dealer": "N",
                     "contract": {"taker": "N", "bid": 80, "trump": "H"}, "plays": [bad]})


def test_the_score_sheet_says_which_cards_were_deduced_or_left_unread(gen) -> None:
    from engine.sheet import score_sheet

    p = gen.play_out(random.Random(11), PRESETS["ffb-coinche"])
    sheet = score_sheet(load_record(_record(p, _blank(p.plays, {9}))))
    assert f"play 9 ({p.plays[9][0]}): not read, deduced {p.plays[9][1]}" in sheet
    open_one = score_sheet(load_record(_record(p, _blank(p.plays[:14], {6}))))
    assert "plays 6: not read, and the deal does not tell which cards: violations judged on " \
        "every play" in open_one


def _true_violations(p, plays, blanks):
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    for seat, card in plays:
        obs.play(seat, card)
    return {(v.play, v.rule): v for v in obs.violations if v.play not in blanks}


@settings(max_examples=80, deadline=None)
@given(seed=seeds, n=st.sampled_from([12, 20, 28, 32]), k=st.integers(min_value=1, max_value=3))
def test_judging_past_unread_plays_never_flags_what_the_true_cards_do_not(gen, seed, n, k) -> None:
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS["ffb-coinche"], revoke_rate=0.15)
    blanks = set(rng.sample(range(n), k))
    found = violations_past_unread(p.rules, p.contract, p.dealer, _blank(p.plays[:n], blanks))
    if found is None:
        return  # too many fillings: the verdict stops at the first unread play instead
    truth = _true_violations(p, p.plays[:n], blanks)
    for v in found:
        assert (v.play, v.rule) in truth and v.play not in blanks
        true_proof = truth[v.play, v.rule].proven_by
        assert (v.proven_by is None) == (true_proof is None)
        assert v.proven_by is None or v.proven_by >= true_proof


def test_most_violations_are_still_flagged_past_an_unread_play(gen) -> None:
    rng = random.Random(1)
    flagged = total = 0
    for _ in range(60):
        p = gen.play_out(rng, PRESETS["ffb-coinche"], revoke_rate=0.15)
        n = rng.choice([20, 32])
        blanks = {rng.randrange(n)}
        found = violations_past_unread(p.rules, p.contract, p.dealer, _blank(p.plays[:n], blanks))
        assert found is not None  # one unread play: at most 25 fillings
        truth = _true_violations(p, p.plays[:n], blanks)
        total += len(truth)
        flagged += len({(v.play, v.rule) for v in found} & set(truth))
    assert total >= 30 and flagged >= 0.6 * total  # lost only where the unread card matters


def test_a_revoke_after_an_open_unread_play_is_flagged_with_its_proof(gen) -> None:
    rng = random.Random(21)
    for _ in range(200):  # a deal whose first violation comes after trick 2
        p = gen.play_out(rng, PRESETS["ffb-coinche"], revoke_rate=0.2)
        truth = _true_violations(p, p.plays[:24], set())
        late = [v for v in truth.values() if 8 <= v.play and v.proven_by is not None]
        if late and min(v for v, _rule in truth) >= 8:
            break
    record = load_record(_record(p, _blank(p.plays[:24], {1})))
    verdict = judge(record)
    assert verdict["unread"] == [1] and verdict["judged_past_unread"] is True
    assert len(verdict["tricks"]) == 0  # tricks stop at the unread play
    flagged = {(v["play"], v["rule"]) for v in verdict["violations"]}
    assert (late[0].play, late[0].rule) in flagged


def test_too_many_ways_to_fill_stop_the_judging_at_the_first_unread_play(gen) -> None:
    p = gen.play_out(random.Random(13), PRESETS["ffb-coinche"], revoke_rate=0.3)
    blanks = {2, 5, 6}  # 3 of 12 plays unread: 23 * 22 * 21 ways
    assert 23 * 22 * 21 > MAX_FILLINGS
    plays = _blank(p.plays[:12], blanks)
    assert violations_past_unread(p.rules, p.contract, p.dealer, plays) is None
    verdict = judge(load_record(_record(p, plays)))
    assert verdict["judged_past_unread"] is False
    assert all(v["play"] < 2 for v in verdict["violations"])


@settings(max_examples=100, deadline=None)
@given(seed=seeds, k=st.integers(min_value=0, max_value=2))
def test_the_next_leader_is_among_the_possible_ones(gen, seed, k) -> None:
    from engine.deduce import possible_leaders
    from engine.observe import ObservedDeal

    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS["ffb-coinche"])
    n = 4 * rng.randrange(1, 8)
    last = range(n - 4, n)
    blanks = set(rng.sample(last, k))
    leaders = possible_leaders(p.rules, p.contract, p.dealer, _blank(p.plays[:n], blanks))
    obs = ObservedDeal(p.rules, p.contract, p.dealer)
    for seat, card in p.plays[:n]:
        obs.play(seat, card)
    assert obs.turn in leaders
    if k == 0:
        assert leaders == {obs.turn}


def test_possible_leaders_of_a_trick_with_an_unread_play() -> None:
    from engine.cards import Card, Seat
    from engine.contract import Contract
    from engine.deduce import possible_leaders

    rules = PRESETS["ffb-coinche"]
    spades = Contract.from_json({"taker": "N", "bid": 80, "trump": "S"})
    c = Card.from_str
    trick = [(Seat.W, c("7S")), (Seat.S, c("KS")), (Seat.E, None), (Seat.N, c("KH"))]
    # E's unread card beats KS (a higher trump) or not: S or E leads next, never W or N.
    assert possible_leaders(rules, spades, Seat.E, trick) == {Seat.S, Seat.E}
    assert possible_leaders(rules, spades, Seat.E, []) == {Seat.N}  # counterclockwise from E
    with pytest.raises(ValueError, match="whole trick"):
        possible_leaders(rules, spades, Seat.E, trick[:3])


def test_a_deal_left_open_is_scored_when_every_way_gives_the_same_score(gen) -> None:
    rng = random.Random(5)
    scored = open_ = 0
    for _ in range(60):
        p = gen.play_out(rng, PRESETS["ffb-coinche"])
        blanks = set(rng.sample(range(32), 3))
        found = deduce(p.rules, p.contract, p.dealer, _blank(p.plays, blanks))
        if not found.ties:
            continue
        assert tuple(p.plays) in found.ties  # a legal deal: the truth breaks no rule either
        open_ += 1
        verdict = judge(load_record(_record(p, _blank(p.plays, blanks))))
        truth = judge(load_record(_record(p, p.plays)))
        if verdict["score"] is not None:
            scored += 1
            assert verdict["score"] == truth["score"] and verdict["result"] == truth["result"]
            assert verdict["scored_over"] == len(found.ties)
            assert verdict["card_points"] in (None, truth["card_points"])
    assert open_ >= 5 and scored >= 1


def test_the_score_sheet_names_a_proof_played_after_an_unread_card(gen) -> None:
    from engine.sheet import score_sheet

    rng = random.Random(21)
    for _ in range(300):
        p = gen.play_out(rng, PRESETS["ffb-coinche"], revoke_rate=0.3)
        truth = _true_violations(p, p.plays[:24], {1})
        late = [v for v in truth.values() if v.play >= 4 and (v.proven_by or 0) >= 8]
        if late:
            break
    sheet = score_sheet(load_record(_record(p, _blank(p.plays[:24], {1}))))
    v = late[0]
    assert f"play {v.play} (trick {v.play // 4 + 1}): {v.seat} {v.card} - {v.rule}" in sheet
    assert f"proven by play {v.proven_by}" in sheet


def test_a_trick_mostly_unread_may_be_won_by_any_of_its_seats() -> None:
    from engine.cards import Card, Seat
    from engine.contract import Contract
    from engine.deduce import possible_leaders

    rules = PRESETS["ffb-coinche"]
    hearts = Contract.from_json({"taker": "N", "bid": 80, "trump": "H"})
    trick = [(Seat.N, Card.from_str("7S")), (Seat.W, None), (Seat.S, None), (Seat.E, None)]
    assert 29 * 28 * 27 > MAX_FILLINGS  # too many ways to try: every seat stays possible
    assert possible_leaders(rules, hearts, Seat.E, trick) == set(Seat)


def test_no_filling_that_fits_the_hands_leaves_the_judging_where_it_was(gen) -> None:
    p = gen.play_out(random.Random(8), PRESETS["ffb-coinche"])
    _seat, card = p.plays[5]
    hands = {s: [c for c in p.hands[s] if c != card] for s in p.hands}  # a wrong hand given
    plays = _blank(p.plays, {5})
    assert violations_past_unread(p.rules, p.contract, p.dealer, plays, hands) is None
    assert violations_past_unread(p.rules, p.contract, p.dealer, plays, p.hands) == []


@settings(max_examples=40, deadline=None)
@given(seed=seeds, preset=presets, k=st.integers(min_value=1, max_value=2))
def test_an_unread_card_of_a_legal_deal_so_far_is_among_those_breaking_fewest_rules(
        gen, seed, preset, k) -> None:
    rng = random.Random(seed)
    p = gen.play_out(rng, PRESETS[preset])
    n = rng.randrange(20, 33)  # a deal so far
    blanks = set(rng.sample(range(n), k))
    i = min(blanks)
    plays = _blank(p.plays[:n], blanks)
    fit = least_broken(p.rules, p.contract, p.dealer, plays, i, limit=10_000)
    seen = {c for _s, c in plays if c is not None}
    assert fit is not None and p.plays[i][1] in fit and not fit & seen
    assert least_broken(p.rules, p.contract, p.dealer, plays, i, limit=0) is None
    assert least_broken(p.rules, p.contract, p.dealer, p.plays[:n], i) is None  # read
