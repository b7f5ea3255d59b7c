"""Tricks gathered: a sweep, a lead that implies one, cards held until their trick closes, a
misread first trick corrected by the cards after it."""

from __future__ import annotations

import random

from tracker_script import (
    SPOT,
    dealt_by_referee,
    det,
    fixed,
    kinds,
    logged,
    lying_at,
    misread_first_trick,
    one_by_one,
    plays,
    run,
    started,
    with_fixes,
)

from vision.detections import UNNAMED, Detection
from vision.gathering import GAP_WAIT, LAST_WAIT


def test_a_card_read_where_a_swept_card_lay_is_the_next_lead_even_under_its_name() -> None:
    tr = started("E")  # N leads, then W, S, E
    # N's QH reads KH (QH a quarter of its votes); E's card is never read.
    lying = [det("KH", "N", 0.6, [("QH", 0.2)]), det("8H", "W"), det("9H", "S")]
    events, t = [], 0.0
    for k in range(1, 4):
        ev, t = run(tr, lambda t, k=k: lying[:k], t0=t, seconds=1.0)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.2)  # swept, all three gone 1.2 s
    events += ev
    assert "trick_gathered" not in kinds(events)  # (one seat unread: a sweep is not sure yet)
    # N's real KH lands where its QH lay: a new card (a swept trick does not come back), so
    # the trick was gathered, E unread, and N's first card was the misread one.
    ev, t = run(tr, lambda t: [det("KH", "N", 0.95)], t0=t, seconds=1.5)
    events += ev
    assert plays(events) == [("N", "KH"), ("W", "8H"), ("S", "9H"), ("E", None), ("N", "KH")]
    assert kinds(events).count("trick_gathered") == 1
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 0, "card": "QH", "before": "KH"}]
    assert tr.view.plays == [("N", "QH"), ("W", "8H"), ("S", "9H"), ("E", None), ("N", "KH")]


def test_a_lone_lead_hidden_while_the_next_card_lands_is_not_a_sweep() -> None:
    tr = started("E")  # N leads, then W
    events, t = one_by_one(tr, [("N", "7H")])
    # A hand covers N's card; half a second later W's card lands and settles, N's still hidden.
    ev, t = run(tr, lambda t: [], t0=t, seconds=0.5)
    ev1, t = run(tr, lambda t: [det("8H", "W")], t0=t, seconds=0.8)
    ev += ev1
    ev2, t = run(tr, lying_at({"N": "7H", "W": "8H"}), t0=t, seconds=0.6)
    events += ev + ev2
    assert plays(events) == [("N", "7H"), ("W", "8H")]
    assert "trick_gathered" not in kinds(events)


def test_a_held_card_that_slides_to_the_middle_does_not_break_the_gather() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    logged(tr, [("N", "7S"), ("W", "KS"), ("S", "KH"), ("E", None)])  # W or E leads next
    events, t = one_by_one(tr, [("S", "7D"), ("E", "8D")])  # both held: W's lead unread
    assert plays(events) == [] and tr.view.turn is None
    first = next(x for x in tr.tracks if x.held and x.zone == "S")
    first.zone = "trick"  # it was nudged into the middle while waiting
    ev, t = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept: no crash, nothing left waiting
    assert ("E", "8D") in plays(ev) and not any(x.held for x in tr.tracks)
    assert tr.view.lead_before("trick") == "trick"


def test_a_held_card_that_proves_a_misread_corrects_it_and_leads_at_once() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    events, t = misread_first_trick(tr, swept=False)
    assert plays(events)[0] == ("N", "QH") and tr.view.leaders() is None  # trick not gathered
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    events += ev
    assert tr.view.leaders() == {"N"}
    # W leads the real QH, read clearly: it is not held for N, it corrects N's card and leads.
    ev, t = run(tr, lambda t: [det("QH", "W")], t0=t, seconds=0.8)
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert tr.view.plays[4:] == [("W", "QH")] and tr.view.leaders() == {"W"}


def test_cards_landing_before_the_expected_leader_correct_the_trick_before() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    events, t = misread_first_trick(tr)
    assert plays(events)[0] == ("N", "QH") and tr.view.leaders() == {"N"}
    # W, S and E put their clubs down, then N: N cannot have led, so N did not win the trick.
    ev, t = one_by_one(tr, [("W", "7C"), ("S", "8C"), ("E", "9C"), ("N", "TC")], t=t)
    assert fixed(ev[0]) == {"play": 0, "card": "QD",
                                                               "before": "QH"}
    assert plays(ev) == [("W", "7C"), ("S", "8C"), ("E", "9C"), ("N", "TC")]


def test_a_late_card_of_the_expected_leader_without_another_reading_changes_nothing() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    _, t = one_by_one(tr, [("N", "QH"), ("W", "KD"), ("S", "8D"), ("E", "9D")])
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    assert tr.view.leaders() == {"N"}
    # Nothing read in doubt: N's card was there first, not seen (the order of the seats holds):
    # N gets an unread play, which its card fills when it shows; no earlier play changes.
    ev, t = one_by_one(tr, [("W", "7C"), ("S", "8C"), ("N", "TC")], t=t)
    ev1, t = run(tr, lying_at({"W": "7C", "S": "8C", "N": "TC", "E": "9C"}), t0=t, seconds=1.0)
    ev2, _ = run(tr, lambda t: [], t0=t, seconds=3.0)
    ev2 = ev1 + ev2
    fixes = [e["data"] for e in ev + ev2 if e["type"] == "correction"]
    assert [(f["play"], f["before"], f["card"]) for f in fixes] == [(4, None, "TC")]
    assert plays(ev + ev2) == [("N", None), ("W", "7C"), ("S", "8C"), ("E", "9C")]
    assert tr.view.plays[4:] == [("N", "TC"), ("W", "7C"), ("S", "8C"), ("E", "9C")]


def test_the_last_seats_card_closes_the_trick_without_waiting_for_the_sweep() -> None:
    tr = started("E")  # N leads, then W, S, E
    # S's card is never read; E (who plays last) puts down AH, held for S's turn.
    events, t = one_by_one(tr, [("N", "7H"), ("W", "8H"), ("E", "AH")])
    lying = lying_at({"N": "7H", "W": "8H", "E": "AH"})
    ev, t = run(tr, lying, t0=t, seconds=1.5)  # the trick still lies there
    events += ev
    assert plays(events) == [("N", "7H"), ("W", "8H"), ("S", None), ("E", "AH")]
    recorded = [e["data"]["t"] for e in events if e["type"] == "card_played"][-1]
    assert recorded - 1.2 <= 0.3 + LAST_WAIT + 0.15  # E's card landed at 1.2 s
    assert "trick_gathered" not in kinds(events)  # gathered when swept, as always
    # S's card is read at last, the trick still there: it fills S's play, no new trick.
    ev, t = run(tr, lying_at({"N": "7H", "W": "8H", "S": "9H", "E": "AH"}), t0=t, seconds=1.0)
    ((kind, fill),) = [(e["type"], e["data"]) for e in ev]
    assert kind == "correction"
    assert fill == {"play": 2, "card": "9H", "before": None, "t": fill["t"], "alternatives": []}
    assert t - 1.0 < fill["t"] < t
    assert tr.view.plays == [("N", "7H"), ("W", "8H"), ("S", "9H"), ("E", "AH")]
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev2, _ = run(tr, lying_at({"E": "7C"}), t0=t, seconds=0.8)  # E won with AH and leads
    assert kinds(ev) == ["trick_gathered"] and plays(ev2) == [("E", "7C")]


def test_a_card_held_for_one_seat_never_read_is_recorded_after_it() -> None:
    tr = started("E")
    # W's card is never read; S (third) is held for W: S's card says W has played.
    events, t = one_by_one(tr, [("N", "7H"), ("S", "9H")])
    ev, t = run(tr, lying_at({"N": "7H", "S": "9H"}), t0=t, seconds=1.0)
    assert plays(events + ev) == [("N", "7H"), ("W", None), ("S", "9H")]
    s_time = [e["data"]["t"] for e in events + ev if e["type"] == "card_played"][-1]
    assert s_time - 0.6 <= 0.3 + GAP_WAIT + 0.15  # S's card landed at 0.6 s
    ev, t = run(tr, lying_at({"N": "7H", "S": "9H", "E": "AH"}), t0=t, seconds=1.0)
    assert plays(ev) == [("E", "AH")]  # E's turn, in turn


def test_a_card_held_for_a_seat_whose_card_lay_there_read_weakly_is_recorded_at_once() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S
    # Seed 2100 deal 2: W's card lies in its place before S's comes, read too weakly to name
    # (at 0.55 now and then, never steadily); S's, read plainly, is held for W. Something lay
    # in W's place before S's card came: W has played. Its play is recorded unread and S's
    # after it, without waiting for W's doubtful box to be lost from sight.
    def w_weak(t):
        if round(t * 10) % 4:
            return det(UNNAMED, "W", 0.0, [("8H", 0.45), ("9H", 0.2)])
        return det("8H", "W", 0.55, [("9H", 0.3)])

    events, t = run(tr, lying_at({"N": "7H"}), seconds=0.6)
    ev, t = run(tr, lambda t: [*lying_at({"N": "7H"})(t), w_weak(t)], t0=t, seconds=0.4)
    events += ev
    ev, t = run(tr, lambda t: [*lying_at({"N": "7H", "S": "9H"})(t), w_weak(t)], t0=t,
                seconds=1.5)
    events += ev
    s_time = [e["data"]["t"] for e in events if e["type"] == "card_played"][-1]
    assert s_time - 1.0 <= 0.3 + GAP_WAIT + 0.15  # S's card landed at 1.0 s
    # W's readings, weak ones included, name its play in doubt: recorded so (its weak boxes
    # show it lying there, `_steady`), or recorded unread and named.
    assert with_fixes(events, 0) == [("N", "7H"), ("W", "8H"), ("S", "9H")]
    w_play = [e["data"] for e in events if e["type"] == "card_played"][1]
    named = [fixed(e) for e in events if e["type"] == "correction"]
    assert (w_play["card"] == "8H" and w_play["uncertain"] and not named) or (
        w_play["card"] is None and named == [{"play": 1, "card": "8H", "uncertain": True}])


def test_a_card_held_for_two_seats_never_read_waits_for_the_sweep() -> None:
    tr = started("E")
    # W's and S's cards are never read; E (last) is held: a wrong leader is likelier.
    events, t = one_by_one(tr, [("N", "7H"), ("E", "AH")])
    ev, t = run(tr, lying_at({"N": "7H", "E": "AH"}), t0=t, seconds=3.0)
    assert plays(events + ev) == [("N", "7H")]


def test_a_card_held_for_two_unread_seats_and_the_lead_gone_together_are_a_sweep() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # Seed 2097 deal 19: W's and S's cards never read, E's held; all swept, and 1.6 s later W
    # (who may have won) leads the next trick: two cards went, a sweep, not the lead hidden.
    events, t = one_by_one(tr, [("N", "7H"), ("E", "AH")])
    ev, t = run(tr, lying_at({"N": "7H", "E": "AH"}), t0=t, seconds=2.0)
    ev2, t = run(tr, lambda t: [], t0=t, seconds=1.6)
    ev3, t = run(tr, lying_at({"W": "KC"}), t0=t, seconds=1.0)
    assert plays(events + ev + ev2 + ev3) == [("N", "7H"), ("W", None), ("S", None), ("E", "AH"),
                                               ("W", "KC")]
    assert tr.view.gathered == 1


def test_a_video_ending_in_the_last_trick_completes_the_deal() -> None:

    from engine.contract import Contract
    from engine.playout import play_out
    from engine.rules import find_rules

    contract = Contract.from_json({"taker": "N", "bid": 80, "trump": "H"})
    deal = play_out(random.Random(4), find_rules("ffb-coinche"), contract)
    tr = started(str(deal.dealer), contract.to_json())
    logged(tr, [(str(s), str(c)) for s, c in deal.plays[:28]], gathered=False)
    for _ in range(7):
        tr.observe({"type": "trick_gathered", "data": {}})
    last = [(str(s), str(c)) for s, c in deal.plays[28:]]
    events, _ = one_by_one(tr, last[:3])  # the last seat's card is never read; the video ends
    assert plays(events) == last[:3]
    end = tr.finish()
    assert plays(end) == [(last[3][0], None)]  # in the last trick every seat plays
    assert kinds(end)[-3:] == ["trick_gathered", "correction", "deal_over"]
    assert tr.view.plays[31] == last[3]  # the one card never seen: deduced


def test_the_last_seats_card_alone_does_not_close_a_trick_with_two_seats_unread() -> None:
    tr = started("E")  # N leads, then W, S, E
    events, t = one_by_one(tr, [("N", "7H"), ("E", "AH")])  # W's and S's cards never read
    ev, t = run(tr, lying_at({"N": "7H", "E": "AH"}), t0=t, seconds=3.0)
    assert plays(events + ev) == [("N", "7H")]  # held: a wrong leader is likelier
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept: now the sweep says it
    assert plays(ev) == [("W", None), ("S", None), ("E", "AH")]


def test_a_card_lost_under_a_hand_keeps_its_place_in_the_order() -> None:
    tr = dealt_by_referee("E")  # N leads, then W
    # N's card is seen for two frames, then hidden by a hand for 0.75 s (over forget_s);
    # W's card lands meanwhile. N's card, seen again, is the one that came first: it leads.
    def script(t):
        dets = lying_at({"W": "8H"})(t) if t >= 0.5 else []
        if t < 0.15 or t >= 0.9:
            dets += lying_at({"N": "7H"})(t)
        return dets

    events, _ = run(tr, script, seconds=2.5)
    assert plays(events) == [("N", "7H"), ("W", "8H")]
    assert "correction" not in kinds(events)  # no unread play for N, filled later


def test_a_card_held_after_a_glimpse_is_forgotten_once_out_of_sight() -> None:
    tr = dealt_by_referee("E")  # N leads: a card in front of W is held for N
    glimpse = lambda t: lying_at({"W": "7D"})(t) if t < 0.5 else []  # noqa: E731
    run(tr, glimpse, seconds=2.0)  # steady and held after 0.3 s, seen 5 frames, then gone
    assert [o for o in tr.tracks if o.zone == "W"] == []  # (a hand's shadow read as a card)
    # A card seen for a second before a hand covers it stays held for its turn (S's: N and W
    # play before it).
    lying = lambda t: lying_at({"S": "8H"})(t) if t < 3.0 else []  # noqa: E731
    events, _ = run(tr, lying, t0=2.0, seconds=2.0)
    (held,) = [o for o in tr.tracks if o.zone == "S"]
    assert held.held and held.readings()[0][0] == "8H" and plays(events) == []


def test_a_box_held_beside_a_seat_that_has_played_goes_with_the_trick() -> None:
    tr = started("S", {"taker": "N", "bid": 80, "trump": "S"})  # E leads, then N, W, S
    first = [("E", "7H"), ("N", "AH"), ("W", "8H"), ("S", "9H")]  # N wins: N leads next
    # Beside E's card, once E has played, a box (a patch of the felt, part of a card) reads 8S
    # while the trick lies there: out of E's turn, it is held. It goes with the trick.
    beside = det("8S", (530, 400), 0.7, [("7S", 0.3)])
    cards = [det(card, seat) for seat, card in first]
    events, t = [], 0.0
    for k in range(1, 5):
        ev, t = run(tr, lambda t, k=k: [*cards[:k], *([beside] if k > 1 and t < 3.5 else [])],
                    t0=t, seconds=1.0)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=2.0)  # swept
    events += ev
    second = [("N", "KC"), ("W", "7C"), ("S", "8C"), ("E", "9C")]
    ev, _ = one_by_one(tr, second, t=t, pace=1.0)
    assert plays(events + ev) == first + second


def test_a_card_held_for_its_turn_that_went_long_before_its_trick_is_not_the_next_lead() -> None:
    # Seed 2124 deal 10 (filmed at 1280x960, names read on the small picture): a box on part
    # of E's 9D (recorded TD), read 8D plainly for 1.5 s, was held for E's next lead (E won
    # the trick). It went 3 s before the trick was swept, and was recorded as E's lead of the
    # next trick, closed at once with three unread plays.
    tr = started("W", {"taker": "S", "bid": 80, "trump": "S"})  # S leads, then E, N, W
    cards = {"S": "AH", "E": "7S", "N": "7H", "W": "8H"}  # E trumps: E leads next
    events, t = one_by_one(tr, list(cards.items())[:2])
    x, y = SPOT["E"]  # a box on part of E's card (wholly inside it, 0.77 of it), not reading 7S
    echo = Detection("8D", 0.82, (x - 17, y - 37, x + 17, y + 31), (("7D", 0.07),))
    ev, t = run(tr, lambda t: [*lying_at(cards)(t)[:2], echo], t0=t, seconds=2.5)
    assert [o.held for o in tr.tracks if o.card is None] == [True]  # held for E's next lead
    events += ev
    ev, t = one_by_one(tr, list(cards.items()), t=t)  # N's and W's land; the box is gone
    events += ev
    ev, t = run(tr, lying_at(cards), t0=t, seconds=3.0)
    events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=2.0)  # swept
    events += ev
    assert plays(events) == list(cards.items())
    assert kinds(events).count("trick_gathered") == 1


def test_a_box_that_lay_through_a_trick_beside_a_seat_that_played_is_not_its_next_card() -> None:
    # Seed 2165 deal 17: a patch of the felt beside E's card, read 9S weakly in every other
    # frame from when E played until the sweep, was recorded as E's next card, S's lead unread.
    tr = started("W", {"taker": "N", "bid": 80, "trump": "S"})  # S leads, then E, N, W
    ghost = det("9S", (560, 400), 0.55)
    flicker = lambda t: [ghost] if round(t * 10) % 2 else []  # noqa: E731
    events, t = one_by_one(tr, [("S", "AD")])
    lying = {"S": "AD", "E": "7D"}
    ev, t = run(tr, lambda t: [*lying_at(lying)(t), *flicker(t)], t0=t, seconds=0.6)
    events += ev
    for seat, card in (("N", "8D"), ("W", "9D")):
        lying[seat] = card
        ev, t = run(tr, lambda t: [*lying_at(lying)(t), *flicker(t)], t0=t,
                    seconds=2.0 if seat == "W" else 0.6)
        events += ev
    trick = [("S", "AD"), ("E", "7D"), ("N", "8D"), ("W", "9D")]
    assert tr._zone(ghost) == "E" and plays(events) == trick
    ev, t = run(tr, flicker, t0=t, seconds=0.6)  # swept; the patch a moment longer
    events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=2.0)
    events += ev
    assert kinds(events).count("trick_gathered") == 1
    assert plays(events) == trick  # S won: nobody has led the next trick yet
    # S leads; E's card, put down where the patch was, is E's next card.
    events, t = one_by_one(tr, [("S", "KD")], t=t)
    ev, t = run(tr, lambda t: [det("KD", "S"), det("AS", (560, 400))], t0=t, seconds=1.0)
    events += ev
    assert plays(events) == [("S", "KD"), ("E", "AS")]
