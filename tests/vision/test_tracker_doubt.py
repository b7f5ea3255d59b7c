"""Cards named in doubt from weak readings, and judged again when a plainer reading or the deal's
end comes."""

from __future__ import annotations

import random

import pytest
from tracker_script import (
    SPOT,
    det,
    fixed,
    kinds,
    last_trick_swept,
    logged,
    lying_at,
    one_by_one,
    plays,
    run,
    second_trick_with_w_unread,
    seven_tricks_logged,
    started,
    tracker,
    with_fixes,
)

from vision.detections import Detection
from vision.gathering import LAST_WAIT


@pytest.mark.parametrize("hinted", [True, False])
def test_weak_readings_name_unread_cards_the_rules_cannot_tell_apart(hinted: bool) -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # W's 9S and S's TC are never read: either could be either card by the rules. W's card is
    # read too weakly to name, frame after frame: 9S 0.4, TC 0.1.
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     (("9S", 0.4), ("TC", 0.1)))
    lying = lying_at(dict(last[:2]))
    events, t = run(tr, lambda t: [*lying(t), *([weak] if hinted else [])], seconds=2.0)
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept
    events += ev
    assert plays(events) == [("E", "9H"), ("N", "KC"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if not hinted:  # the rules alone leave two ways: both stay unread
        assert fixes == [] and tr.view.unread == [30, 31]
        return
    hinted = {"before": None, "uncertain": True}
    assert fixes == [{"play": 30, "card": "9S", **hinted, "alternatives": [["TC", 0.2]]},
                     {"play": 31, "card": "TC", **hinted, "alternatives": []}]
    assert tr.view.plays[30:] == [("W", "9S"), ("S", "TC")] and kinds(events)[-1] == "deal_over"


@pytest.mark.parametrize(("weak", "named"), [
    ((("9C", 0.4), ("TC", 0.05)), True),   # one card clearly favoured (8 votes in 9)
    ((("9C", 0.3), ("TC", 0.25)), False),  # two nearly alike: left unread
    ((("8D", 0.4), ("TC", 0.05)), False),  # a card played already (a misread there?)
])
def test_an_unread_card_read_weakly_is_named_in_doubt_while_its_trick_lies(weak, named) -> None:
    tr, events, _t = second_trick_with_w_unread(weak)
    assert plays(events) == [("E", "7C"), ("N", "8C"), ("W", None), ("S", "AC")]
    fixes = [e for e in events if e["type"] == "correction"]
    if not named:
        assert fixes == [] and tr.view.unread == [6] and tr.view.turn is None
        return
    gathered = next(e for e in events if e["type"] == "trick_gathered")
    unread = next(e for e in events if e["type"] == "card_played" and e["data"]["card"] is None)
    assert [fixed(e) for e in fixes] == [{"play": 6, "card": "9C", "before": None,
                                          "uncertain": True, "alternatives": [["TC", 0.111]]}]
    # Named as soon as its play is written in (S's card came), not when the trick goes, nor at
    # the deal's end; the engine then knows who won the trick: S with AC, who leads next.
    assert fixes[0]["data"]["t"] == unread["data"]["t"] < gathered["data"]["t"]
    assert tr.view.plays[6] == ("W", "9C") and tr.view.turn == "S"


def test_an_unread_card_of_a_trick_gone_is_named_once_its_rival_reading_is_played() -> None:
    # W's card read 9C 0.3 / TC 0.25: too close to name while its trick lay there. S then leads
    # the TC, read surely: a deck holds one TC, so W's readings favour the 9C alone (seed 2145
    # deal 19: N's QS read QS / JS, named when the JS was played, not at the deal's end).
    tr, events, t = second_trick_with_w_unread((("9C", 0.3), ("TC", 0.25)))
    assert [e for e in events if e["type"] == "correction"] == [] and tr.view.unread == [6]
    ev, _ = run(tr, lying_at({"S": "TC"}), t0=t, seconds=1.0)
    assert plays(ev) == [("S", "TC")]
    fixes = [fixed(e) for e in ev if e["type"] == "correction"]
    assert fixes == [{"play": 6, "card": "9C", "before": None, "uncertain": True,
                      "alternatives": []}]
    assert tr.view.plays[6] == ("W", "9C") and tr.view.unread == []


def test_a_weak_reading_that_would_make_its_seat_a_revoker_is_not_named_early() -> None:
    # W did not follow clubs in the first trick: W holding TC would be a revoke. Read weakly
    # as TC, W's unread card stays unread (the deal's end judges it with the rest).
    first = (("N", "QC"), ("W", "8H"), ("S", "JC"), ("E", "KC"))  # E won, as before
    tr, events, _t = second_trick_with_w_unread((("TC", 0.4), ("9H", 0.05)), first)
    assert [e for e in events if e["type"] == "correction"] == [] and tr.view.unread == [6]
    fit = tr.view.least_broken(6)
    assert fit is not None and "9H" in fit and "TC" not in fit


def test_readings_of_a_card_the_rules_rule_out_do_not_keep_another_from_being_named() -> None:
    # W did not follow clubs in the first trick; its unread card reads 9H 0.3, TC 0.25: 9H has
    # only 55% of the readings, but all those of the cards W may hold.
    first = (("N", "QC"), ("W", "8H"), ("S", "JC"), ("E", "KC"))
    tr, events, _t = second_trick_with_w_unread((("9H", 0.3), ("TC", 0.25)), first)
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes == [{"play": 6, "card": "9H", "before": None, "uncertain": True,
                      "alternatives": []}] and tr.view.plays[6] == ("W", "9H")


def test_a_card_named_early_is_corrected_when_it_lands_elsewhere_clearly() -> None:
    tr, _events, t = second_trick_with_w_unread((("9C", 0.4), ("KC", 0.2)))
    assert tr.view.plays[6] == ("W", "9C")
    # S leads the third trick: 9C, read surely. W's weak readings' next card was KC.
    ev, _ = run(tr, lying_at({"S": "9C"}), t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 6, "card": "KC", "before": "9C"}
    assert plays(ev) == [("S", "9C")] and tr.view.plays[6] == ("W", "KC")


def test_a_card_named_early_is_judged_again_at_the_deals_end() -> None:
    """A play of the seventh trick unread, read weakly as the card that is truly the unread
    last card of another seat: named so when its trick goes; at the deal's end the rules
    prove both cards the other way round, and the early name gives way."""

    from engine.contract import Contract
    from engine.deduce import deduce
    from engine.playout import play_out
    from engine.rules import find_rules
    from vision.detections import UNNAMED

    rules = find_rules("ffb-coinche")
    contract = Contract.from_json({"taker": "N", "bid": 80, "trump": "H"})
    for seed in range(200):  # a deal where the rules prove which unread card was which
        deal = play_out(random.Random(seed), rules, contract)
        i, j = 25, 30  # the second card of trick 7, the third of trick 8
        blank = [(s, None if k in (i, j) else c) for k, (s, c) in enumerate(deal.plays)]
        if set(deduce(rules, contract, deal.dealer, blank).deduced) == {i, j}:
            break
    else:
        pytest.fail("no deal where the rules prove both cards")
    plays_ = [(str(s), str(c)) for s, c in deal.plays]
    tr = started(str(deal.dealer), contract.to_json())
    for k, (seat, card) in enumerate(plays_[:24]):
        tr.observe({"type": "card_played", "data": {"seat": seat, "card": card}})
        if k % 4 == 3:
            tr.observe({"type": "trick_gathered", "data": {}})
    wrong = plays_[j][1]  # what the weak readings of play i say
    events: list = []
    t = 0.0
    for start in (24, 28):
        unread = i if start == 24 else j
        trick = [p for k, p in enumerate(plays_[start:start + 4], start) if k != unread]
        x, y = SPOT[plays_[unread][0]]
        weak = [Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                          ((wrong, 0.4),))] if unread == i else []
        lying = lying_at(dict(trick))
        ev, t = run(tr, lambda t, lying=lying, weak=weak: [*lying(t), *weak], t0=t, seconds=3.0)
        ev2, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # swept
        events += ev + ev2
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes[0] == {"play": i, "card": wrong, "before": None, "uncertain": True,
                        "alternatives": []}
    assert {"play": i, "card": plays_[i][1], "before": wrong, "uncertain": True} in fixes[1:]
    assert tr.view.plays == plays_ and kinds(events)[-1] == "deal_over"


@pytest.mark.parametrize("late", ["9C", "TC"])
def test_a_card_named_early_then_read_plainly_in_its_place_is_that_play(late: str) -> None:
    # W's card, named 9C from its weak readings, is then read plainly: as 9C, the play stands
    # (and is no longer in doubt at the deal's end); as TC, the play is corrected to TC.
    tr, events, _t = second_trick_with_w_unread((("9C", 0.4), ("TC", 0.05)), late=late)
    assert plays(events) == [("E", "7C"), ("N", "8C"), ("W", None), ("S", "AC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes[0] == {"play": 6, "card": "9C", "before": None, "uncertain": True,
                        "alternatives": [["TC", 0.111]]}
    # Either way it is no longer in doubt (renamed, it fills the play: with its other readings).
    assert fixes[1:] == [{"play": 6, "card": late, "before": "9C", "uncertain": False,
                          **({} if late == "9C" else {"alternatives": []})}]
    assert tr.view.plays[6] == ("W", late) and tr._provisional() == {}
    assert kinds(events).count("trick_gathered") == 1


def test_after_a_restart_a_card_named_early_is_still_open_to_its_plain_reading() -> None:
    from vision.detections import UNNAMED

    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    logged(tr, [("N", "7D"), ("W", "8D"), ("S", "9D"), ("E", "AD")])  # E won
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44), (("9C", 0.4),))
    lying = lying_at({"E": "7C", "N": "8C", "S": "AC"})
    events, t = one_by_one(tr, [("E", "7C"), ("N", "8C")])
    # (two frames in three: too seldom for a sighting, `vision.weak_streaks`)
    ev, t = run(tr, lambda t: [*lying(t), *([weak] if round(t * 10) % 3 else [])], t0=t,
                seconds=LAST_WAIT + 1.0)
    events += ev
    assert tr.view.plays[4:] == [("E", "7C"), ("N", "8C"), ("W", "9C"), ("S", "AC")]
    # The process restarts with the trick still on the table; W's card is then read plainly.
    stored = [{"type": "deal_started", "data": {"dealer": "E"}},
              {"type": "contract", "data": {"taker": "N", "bid": 80, "trump": "S"}},
              *({"type": "card_played", "data": {"seat": s, "card": c}}
                for s, c in [("N", "7D"), ("W", "8D"), ("S", "9D"), ("E", "AD")]),
              {"type": "trick_gathered", "data": {}}, *events]
    again = tracker()
    again.restore(stored)
    assert again._provisional() == {6: "9C"}
    ev, _ = run(again, lambda t: [*lying(t), det("TC", "W")], t0=100.0, seconds=1.0)
    assert kinds(ev) == ["correction"]
    assert fixed(ev[0]) == {"play": 6, "card": "TC", "before": "9C", "uncertain": False,
                            "alternatives": []}


def test_a_card_named_early_does_not_take_the_same_card_put_down_by_a_later_seat() -> None:
    from vision.detections import UNNAMED

    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    logged(tr, [("N", "7D"), ("W", "8D"), ("S", "9D"), ("E", "AD")])  # E won: E, N, W, S
    x, y = SPOT["N"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     (("9C", 0.4), ("KC", 0.05)))
    events, t = run(tr, lying_at({"E": "7C"}), seconds=0.6)
    lying = lying_at({"E": "7C", "W": "8C"})  # (N's weak box two frames in three)
    ev, t = run(tr, lambda t: [*lying(t), *([weak] if round(t * 10) % 3 else [])], t0=t,
                seconds=LAST_WAIT + 1.0)
    events += ev
    assert tr.view.plays[4:] == [("E", "7C"), ("N", "9C"), ("W", "8C")]  # N named 9C, in doubt
    # S puts down the real 9C, read plainly: N's weak name gives way, S's card is S's play.
    lying = lying_at({"E": "7C", "W": "8C", "S": "9C"})
    ev, _ = run(tr, lambda t: [*lying(t), weak], t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"] and plays(ev) == [("S", "9C")]
    assert fixed(ev[0]) == {"play": 5, "card": "KC", "before": "9C"}
    assert tr.view.plays[4:] == [("E", "7C"), ("N", "KC"), ("W", "8C"), ("S", "9C")]


@pytest.mark.parametrize("later", ["TD", "9D"])
def test_a_doubtful_card_read_alike_since_it_settled_is_recorded_at_once_then_judged_again(
        later: str) -> None:
    tr = tracker(max_wait=0.6)
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}})  # N leads
    # N's card reads 9D over TD, never clearly; after 0.6 s its picture reads `later`.
    first = det("9D", "N", 0.55, [("TD", 0.4)])
    then = det(later, "N", 0.7, [("9D" if later == "TD" else "TD", 0.2)])
    events, _ = run(tr, lambda t: [first if t < 0.55 else then], seconds=1.5)
    assert plays(events) == [("N", "9D")]
    data = events[0]["data"]
    assert data["uncertain"] is True and data["t"] <= 0.45  # not held max_wait for its name
    fixes = [e for e in events if e["type"] == "correction"]
    if later == "9D":  # read clearly by then: the doubt is lifted (as if it had waited)
        assert [fixed(e) for e in fixes] == [{"play": 0, "card": "9D", "before": "9D",
                                              "uncertain": False}]
        assert tr.view.plays == [("N", "9D")]
        return
    # When it would have been recorded after waiting (steady_s + max_wait), its votes say TD.
    assert [fixed(e) for e in fixes] == [{"play": 0, "card": "TD", "before": "9D"}]
    assert fixes[0]["data"]["t"] == pytest.approx(0.9)
    assert tr.view.plays == [("N", "TD")]


def test_a_doubtful_glimpse_waits_and_vanishes_unrecorded() -> None:
    tr = started("E")
    glimpse = det("JH", "N", 0.5, [("JD", 0.4)])
    events, _ = run(tr, lambda t: [glimpse] if t < 0.25 else [], seconds=2.0)
    assert plays(events) == []


def test_a_card_recorded_in_doubt_at_once_is_misnamed_not_moved_when_read_at_another_seat(
        ) -> None:
    tr = started("E")  # N leads, then W
    doubtful = det("JH", "N", 0.5, [("JD", 0.4)])
    events, t = run(tr, lambda t: [doubtful] if t < 0.35 else [], seconds=1.0)
    assert plays(events) == [("N", "JH")] and events[0]["data"]["uncertain"] is True
    # N's card is no longer read (a hand, a weak box); W puts down the real JH, read plainly.
    ev, _ = run(tr, lambda t: [det("JH", "W")], t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"] and plays(ev) == [("W", "JH")]
    assert fixed(ev[0]) == {"play": 0, "card": "JD", "before": "JH"}
    assert tr.view.plays == [("N", "JD"), ("W", "JH")]


def test_a_card_recorded_in_doubt_is_not_renamed_to_a_card_its_seat_is_proven_not_to_hold(
        ) -> None:
    tr = tracker(max_wait=0.6)
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}})
    tr.observe({"type": "contract", "data": {"taker": "N", "bid": 80, "trump": "S"}})
    logged(tr, [("N", "7D"), ("W", "7S"), ("S", "9D"), ("E", "AD")])  # W trumped: no diamonds
    # W leads: its card reads 8C over 8D at first, then 8D over 8C, never clearly.
    early = det("8C", "W", 0.55, [("8D", 0.4)])
    later = det("8D", "W", 0.55, [("8C", 0.4)])
    events, _ = run(tr, lambda t: [early if t < 0.35 else later], seconds=1.5)
    assert plays(events) == [("W", "8C")] and events[0]["data"]["t"] <= 0.45
    # By the time it would have been recorded after waiting its votes favour 8D (52%), which W
    # cannot hold: the rules keep 8C, as they would have chosen it then.
    assert [e for e in events if e["type"] == "correction"] == []
    assert tr.view.plays[4:] == [("W", "8C")]


@pytest.mark.parametrize("sure", [False, True])
def test_a_card_recorded_with_its_name_in_doubt_is_misnamed_not_moved_when_read_at_a_seat_to_play(
        sure) -> None:
    tr = started("N")  # W leads, then S, E, N
    # W's 8C reads 9C, never surely (`sure`: the same picture read surely, 9C).
    w_card = det("9C", "W", 0.9 if sure else 0.52, [("8C", 0.3)])
    events, t = run(tr, lambda t: [w_card], seconds=1.2)
    assert plays(events) == [("W", "9C")]
    assert events[-1]["data"]["uncertain"] is (not sure)
    ev, t = run(tr, lambda t: [w_card, det("QC", "S")], t0=t, seconds=1.2)
    events += ev
    # A hand hides W's card while E plays; then N, still to play, puts down the real 9C.
    ev, t = run(tr, lambda t: [det("QC", "S"), det("TC", "E")], t0=t, seconds=1.2)
    events += ev
    ev, _ = run(tr, lambda t: [det("QC", "S"), det("TC", "E"), det("9C", "N", 0.85)], t0=t,
                seconds=1.5)
    events += ev
    if sure:  # read surely, W's 9C has moved there (nudged, or the camera lost it): no new play
        assert plays(events) == [("W", "9C"), ("S", "QC"), ("E", "TC")]
        assert "correction" not in kinds(events)
        return
    assert plays(events) == [("W", "9C"), ("S", "QC"), ("E", "TC"), ("N", "9C")]
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 0, "card": "8C", "before": "9C"}]
    assert tr.view.plays == [("W", "8C"), ("S", "QC"), ("E", "TC"), ("N", "9C")]


@pytest.mark.parametrize("n_conf", [0.55, 0.9])
def test_a_card_read_surely_takes_its_name_from_a_play_recorded_in_doubt_at_the_deals_end(
        n_conf) -> None:
    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC reads 9S with no other reading, W's real 9S reads 9S surely: a deck holds one 9S,
    # so W's card stays unread and is deduced KC at the deal's end. Read in doubt (0.55), N's
    # is the misread and gives 9S up, though its picture never read KC; read surely, the
    # pictures cannot tell which is wrong, and the deduction stands.
    first = lambda t: [det("9H", "E"), det("9S", "N", n_conf)]  # noqa: E731
    events = last_trick_swept(tr, first, [det("9S", "W", 0.9), det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if n_conf < 0.6:
        assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                         {"play": 30, "card": "9S", "before": None, "deduced": True,
                          "uncertain": True}]
        assert with_fixes(events, 28) == last
    else:
        assert fixes == [{"play": 30, "card": "KC", "before": None, "deduced": True}]


@pytest.mark.parametrize(("weak", "card"), [
    ((("9C", 0.45), ("TC", 0.2), ("KC", 0.15)), "9C"),
    ((("TC", 0.45), ("9C", 0.25), ("KC", 0.1)), "TC"),
])
def test_an_unread_card_read_in_doubt_at_last_is_named_with_its_weak_readings(weak, card) -> None:
    # W's card was read weakly 2.6 s, too evenly to be named early (9C 56% of the votes), then
    # plainly a second, in doubt, as TC: the weak readings were that card, and they favour 9C
    # over the 10 frames of TC at 0.55 (as they favour TC in the second case).
    late = det("TC", "W", 0.55, [("KC", 0.3)])
    tr, events, _t = second_trick_with_w_unread(weak, late=late)
    assert plays(events) == [("E", "7C"), ("N", "8C"), ("W", None), ("S", "AC")]
    # Its other readings, weak ones and its own together, go with it (a revoke one of them
    # would clear is in doubt).
    other = "TC" if card == "9C" else "9C"
    fix, = [fixed(e) for e in events if e["type"] == "correction"]
    assert fix == {"play": 6, "card": card, "before": None, "alternatives": fix["alternatives"]}
    assert [c for c, _share in fix["alternatives"]] == [other, "KC"]
    assert 0.2 < fix["alternatives"][0][1] < 0.35
    assert tr.view.plays[6] == ("W", card)


@pytest.mark.parametrize("seconds", [2.0, 0.2])
def test_weak_readings_outweigh_a_deduction_that_explains_a_revoke_away(seconds: float) -> None:
    # Set 2041 deal 17: E's 9D and W's QH never read; the rules dealt them QH to E and 9D to W,
    # the one way in which E had not revoked earlier; E's place read 9D weakly, W's QH.
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(8)
    assert last == [("E", "QD"), ("N", "9H"), ("W", "9S"), ("S", "TC")]
    # Truly W put down TC and S 9S (W kept TC when clubs were led at play 27: a revoke). Both
    # are read too weakly to name, frame after frame, each as its own card.
    both = [det(UNNAMED, "W", 0.0, (("TC", 0.4), ("9S", 0.1))),
            det(UNNAMED, "S", 0.0, (("9S", 0.4), ("TC", 0.1)))]
    lying = lying_at(dict(last[:2]))
    events, t = run(tr, lambda t: [*lying(t), *both], seconds=seconds)
    ev, t = run(tr, lying, t0=t, seconds=2.0 - seconds)
    events += ev
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept
    events += ev
    assert plays(events) == [("E", "QD"), ("N", "9H"), ("W", None), ("S", None)]
    assert kinds(events)[-1] == "deal_over"
    fixes = {f["play"]: f for f in (fixed(e) for e in events if e["type"] == "correction")}
    if seconds < 1.0:  # a glimpse: the rules' way stands, proven
        assert tr.view.plays[30:] == [("W", "9S"), ("S", "TC")]
        assert fixes[30]["deduced"] and fixes[31]["deduced"]
        return
    assert tr.view.plays[30:] == [("W", "TC"), ("S", "9S")]
    assert fixes[30]["uncertain"] and fixes[31]["uncertain"] and "deduced" not in fixes[30]
    flagged = tr.view.engine().violations  # as the record's verdict flags them
    assert [(v.play, v.rule) for v in flagged] == [(27, "follow-suit")]  # W's revoke


def test_weak_readings_outweigh_the_rules_tie_that_explains_a_revoke_away() -> None:
    # Seed 2101 deal 2: four plays never read; the rules left ways to deal their cards (a tie)
    # and the weak readings chose among those, each of which explained W's revoke away, though
    # W's place read 9S, N's 8C, frame after frame.
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(8)
    assert last == [("E", "QD"), ("N", "9H"), ("W", "9S"), ("S", "TC")]
    # Truly W put down TC and S 9S (W kept TC when clubs were led at play 27: a revoke); N's
    # 9H and W's and S's cards are read too weakly to name; N's place reads 9S nearly as often.
    weak = [det("QD", "E"),
            det(UNNAMED, "N", 0.0, (("9H", 0.4), ("9S", 0.3))),
            det(UNNAMED, "W", 0.0, (("TC", 0.4), ("9S", 0.1))),
            det(UNNAMED, "S", 0.0, (("9S", 0.4), ("TC", 0.1)))]
    events, t = run(tr, lambda t: weak, seconds=2.0)
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept
    events += ev
    assert plays(events) == [("E", "QD"), ("N", None), ("W", None), ("S", None)]
    assert tr.view.rules_broken([*tr.view.plays[:30], ("W", "9S"), ("S", "TC")]) == 0
    assert tr.view.plays[29:] == [("N", "9H"), ("W", "TC"), ("S", "9S")]
    fixes = {f["play"]: f for f in (fixed(e) for e in events if e["type"] == "correction")}
    assert all(fixes[i]["uncertain"] and "deduced" not in fixes[i] for i in (29, 30, 31))
    assert [(v.play, v.rule) for v in tr.view.engine().violations] == [(27, "follow-suit")]
