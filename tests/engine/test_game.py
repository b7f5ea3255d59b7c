"""Games: running score, dealer rotation, thrown-in deals, the reserve, and the end per preset."""

from __future__ import annotations

import pytest

from engine.cards import Seat, Team
from engine.contract import Contract, Trump
from engine.game import Game, GameError
from engine.rules import PRESETS, RuleSet, find_rules
from engine.scoring import DealResult, score_points

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
MIXED = [N, E, S, W] * 2


def deal(rules: RuleSet, taker: Seat, ns: int, *, bid: int = 80,
         belote: tuple[Seat, ...] = (), winners: list[Seat] | None = None) -> DealResult:
    return score_points(rules, Contract(taker, bid, Trump.HEARTS), {Team.NS: ns, Team.EW: 162 - ns},
                        winners or MIXED, belote=belote)


def rules(preset: str, **knobs: object) -> RuleSet:
    return find_rules({"preset": preset, **knobs})


def test_running_score_and_dealer_rotation() -> None:
    r = rules("ffb-coinche", target=1000)
    g = Game(r, dealer=N)
    g.add(deal(r, N, 92))  # NS 90 + 80 = 170, EW 70
    g.add_thrown_in()
    g.add(deal(r, E, 40))  # EW 120 + 80 = 200, NS 40
    assert g.score == {Team.NS: 210, Team.EW: 270}
    assert [d.dealer for d in g.deals] == [N, W, S] and g.dealer is E
    assert [d.score[Team.NS] for d in g.deals] == [170, 170, 210]
    assert g.deals[1].result is None and not g.is_over


def test_clockwise_rotation() -> None:
    g = Game(PRESETS["gameduell-contree"], dealer=N)
    g.add_thrown_in()
    assert g.dealer is E


def test_first_team_over_the_target_wins() -> None:
    r = rules("ffb-coinche", target=300)
    g = Game(r)
    g.add(deal(r, N, 120))  # NS 120 + 80 = 200
    assert not g.is_over
    g.add(deal(r, N, 120))  # NS 400, EW 84 (2 x 40 → 40 + 40)
    assert g.is_over and g.winner is Team.NS
    with pytest.raises(GameError, match="over"):
        g.add(deal(r, N, 120))


def test_both_over_the_higher_wins() -> None:
    r = rules("ffb-coinche", target=150, no_end_on_belote=False)
    g = Game(r)
    g.add(deal(r, N, 100))  # NS 100 + 80 = 180, EW 62 → 60
    g2 = Game(r)
    g2.score = {Team.NS: 100, Team.EW: 140}
    g2.add(deal(r, N, 100))  # NS 280, EW 200: both over, NS higher
    assert g.winner is Team.NS and g2.winner is Team.NS


def test_exact_tie_over_the_target_plays_one_more_deal() -> None:
    r = rules("ffb-coinche", target=200)
    g = Game(r)
    g.score = {Team.NS: 120, Team.EW: 250}
    g.add(deal(r, N, 100))  # NS 120 + (100 + 80) = 300, EW 250 + 60 = 310: EW higher
    assert g.winner is Team.EW
    g = Game(r)
    g.score = {Team.NS: 190, Team.EW: 310}
    g.add(deal(r, N, 100))  # NS 190 + 180 = 370, EW 310 + 60 = 370: tie → one more deal
    assert not g.is_over and "one more deal" in g.notes[-1]
    g.add(deal(r, E, 50))  # EW 110 + 80 = 190 more, NS 50: EW 560 - NS 420
    assert g.winner is Team.EW


@pytest.mark.parametrize("no_end,over", [(True, False), (False, True)])
def test_no_end_on_belote(no_end: bool, over: bool) -> None:
    r = rules("ffb-coinche", target=500, no_end_on_belote=no_end)
    g = Game(r)
    g.score = {Team.NS: 490, Team.EW: 0}
    # NS take and fail: they score only their belote 20 → 510, reached only through the belote
    g.add(deal(r, N, 60, belote=(S,)))
    assert g.is_over is over
    if not over:
        assert "only through its belote" in g.notes[-1]
        g.add(deal(r, E, 20))  # NS lose again (20) but were over the target before it: won
        assert g.winner is Team.NS


def test_no_end_on_belote_does_not_stop_a_team_that_won_the_deal() -> None:
    r = PRESETS["coinchepassion-belote"]
    g = Game(r)
    g.score = {Team.NS: 900, Team.EW: 0}
    g.add(score_points(r, Contract(N, 82, Trump.HEARTS), {Team.NS: 90, Team.EW: 72}, MIXED,
                       belote=(N,)))  # NS 90 + 20 = 110: they made it, 1010
    assert g.winner is Team.NS


@pytest.mark.parametrize("before,ns,winner", [
    ((900, 1000), 120, Team.NS),  # NS 120 + 80 → 1100, EW 42 → 40 → 1040
    ((920, 1100), 100, Team.EW),  # NS 100 + 80 → 1100, EW 62 → 60 → 1160
    ((940, 1080), 110, Team.NS),  # NS 110 + 80 → 1130, EW 52 → 50 → 1130: tie, NS won the deal
    ((960, 1080), 60, Team.EW),   # NS fail: EW 160 + 80 → 1320
])
def test_004_ends_after_the_deal_highest_wins_tie_to_the_deal_winner(
        before: tuple[int, int], ns: int, winner: Team) -> None:
    r = PRESETS["coinche-1000"]
    g = Game(r)
    g.score = {Team.NS: before[0], Team.EW: before[1]}
    g.add(deal(r, N, ns))
    assert g.is_over and g.winner is winner


def test_004_does_not_end_below_the_target() -> None:
    r = PRESETS["coinche-1000"]
    g = Game(r)
    g.add(deal(r, N, 120))
    assert not g.is_over


def test_litige_reserve_goes_to_the_winner_of_the_next_deal() -> None:
    r = PRESETS["belote-501"]
    g = Game(r)
    g.add(deal(r, N, 81, bid=82))  # litige: EW 81, NS 0, 81 in reserve
    assert g.reserve == 81 and g.score == {Team.NS: 0, Team.EW: 81}
    g.add(deal(r, N, 81, bid=82))  # another litige: the reserve grows to 162
    assert g.reserve == 162 and g.score == {Team.NS: 0, Team.EW: 162}
    g.add_thrown_in()  # a cancelled deal keeps the reserve
    assert g.reserve == 162
    g.add(deal(r, E, 60, bid=82))  # EW make 102: EW 102 + the reserve 162, NS 60
    assert g.reserve == 0 and g.score == {Team.NS: 60, Team.EW: 426}
    assert g.deals[-1].points == {Team.NS: 60, Team.EW: 264}


def test_game_to_json() -> None:
    r = rules("ffb-coinche", target=300)
    g = Game(r, dealer=S)
    g.add(deal(r, N, 162, winners=[N, S] * 4))
    j = g.to_json()
    assert j["score"] == {"NS": 330, "EW": 0} and j["winner"] == "NS" and j["is_over"] is True
    assert j["running"] == [{"NS": 330, "EW": 0}] and j["next_dealer"] == "E"


def test_no_end_on_belote_is_only_for_a_failed_or_capot_team() -> None:
    r = rules("ffb-coinche", target=500)
    g = Game(r)
    g.score = {Team.NS: 430, Team.EW: 0}
    # NS defend: EW make it, NS score their 62 → 60 + belote 20 = 80 → 510: not only the belote
    g.add(deal(r, E, 62, belote=(N,)))
    assert g.winner is Team.NS
    g = Game(r)
    g.score = {Team.NS: 490, Team.EW: 0}
    # NS capot as defence: only their belote 20 → 510, not won yet
    g.add(deal(r, E, 0, winners=[E, W] * 4, belote=(N,)))
    assert not g.is_over
