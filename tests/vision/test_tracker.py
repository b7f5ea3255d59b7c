"""The table tracker on scripted detections: steadiness, flicker, hands, nudges, sweeps."""

from __future__ import annotations

import random
import time

import pytest

from engine.cards import Seat
from vision.deal_view import OTHER_SHARE
from vision.detections import Detection
from vision.gathering import DOUBT_WAIT, GAP_WAIT, LAST_WAIT
from vision.geometry import TableGeometry
from vision.reading_fixes import LONE_SHARE
from vision.seen_twice import BESIDE_SHARE
from vision.tracker import TableTracker, TrackerSettings

FPS = 10.0
PX = 10.0  # pixels per cm: an 80 cm felt filling an 800 px picture
SPOT = {"S": (400, 485), "N": (400, 315), "E": (485, 400), "W": (315, 400), "C": (400, 400)}


def det(card: str, where: str | tuple[float, float], conf: float = 0.9, alts=()) -> Detection:
    x, y = SPOT[where] if isinstance(where, str) else where
    return Detection(card, conf, (x - 28.5, y - 44, x + 28.5, y + 44), tuple(alts))


def tracker(rules: str = "ffb-coinche", **kw) -> TableTracker:
    return TableTracker(TableGeometry.full((800, 800)), TrackerSettings(**kw), rules)


def run(tr: TableTracker, script, t0: float = 0.0, seconds: float | None = None):
    """script(t) -> detections; feeds frames at FPS and returns (events, end time)."""
    events, t = [], t0
    end = t0 + (seconds if seconds is not None else 1.0)
    while t < end - 1e-9:
        events += tr.update(t, script(t))
        t = round(t + 1 / FPS, 6)
    return events, t


def kinds(events):
    return [e["type"] for e in events]


def plays(events):
    return [(e["data"]["seat"], e["data"]["card"]) for e in events if e["type"] == "card_played"]


def fixed(event) -> dict:
    """A correction the camera wrote, without the frame time it carries (checked here)."""
    assert event["type"] == "correction"
    data = dict(event["data"])
    assert isinstance(data.pop("t"), float)
    return data


def started(dealer: str = "E", contract=None) -> TableTracker:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": dealer}})
    if contract:
        tr.observe({"type": "contract", "data": contract})
    return tr


def test_empty_table_starts_a_deal_then_a_steady_card_is_played() -> None:
    tr = tracker()
    events, t = run(tr, lambda t: [], seconds=1.2)
    assert kinds(events) == ["deal_started"]
    assert events[0]["data"] == {"dealer": "S"}
    more, _ = run(tr, lambda t: [det("JH", "E")], t0=t, seconds=1.0)
    assert plays(more) == [("E", "JH")]
    play = more[0]["data"]
    assert play["uncertain"] is False and play["confidence"] == pytest.approx(0.9)
    assert 0.3 - 1e-6 <= play["t"] - t <= 0.45  # recorded soon after it settled, not before
    assert more[0]["box"] == pytest.approx([456.5, 356, 513.5, 444])


def test_a_card_still_moving_is_not_played_until_it_stops() -> None:
    tr = started()
    slide = lambda t: [det("7S", (400, 800 - 300 * t if t < 1 else 500))]  # noqa: E731
    events, _ = run(tr, slide, seconds=2.0)
    assert plays(events) == [("S", "7S")]
    assert events[0]["data"]["t"] >= 1.3 - 1e-6


def test_flicker_neither_creates_nor_loses_plays() -> None:
    tr = started()
    rng = random.Random(3)

    def script(t: float):
        out = []
        if rng.random() < 0.8:  # the real card drops out of one frame in five
            out.append(det("QS", "N"))
        if rng.random() < 0.1:  # a one-frame ghost somewhere else
            out.append(det("AD", "W", conf=0.5))
        return out

    events, _ = run(tr, script, seconds=4.0)
    assert plays(events) == [("N", "QS")]


def test_a_card_the_detector_sees_one_frame_in_two_is_still_played() -> None:
    tr = started()
    rng = random.Random(5)
    events, _ = run(tr, lambda t: [det("QS", "N")] if rng.random() < 0.5 else [], seconds=3.0)
    assert plays(events) == [("N", "QS")]
    assert events[0]["data"]["t"] <= 1.5


def test_a_hand_covering_cards_loses_and_duplicates_nothing() -> None:
    tr = started()

    def script(t: float):
        if 0.15 <= t < 0.35 or 1.0 <= t < 2.2:  # covered while landing, then for 1.2 s
            return []
        return [det("KC", "W"), *([det("9D", "S")] if t >= 0.6 else [])]

    events, _ = run(tr, script, seconds=3.5)
    assert plays(events) == [("W", "KC"), ("S", "9D")]  # S plays after W (counterclockwise)


def test_a_card_nudged_after_it_landed_is_the_same_play() -> None:
    tr = started()

    def script(t: float):
        if t < 1.0:
            return [det("TS", "S")]
        if t < 2.0:
            return [det("TS", (415, 495))]  # straightened a little
        if t < 2.4:
            return []  # under the hand
        return [det("TS", (400, 560))]  # pushed far away

    events, _ = run(tr, script, seconds=3.5)
    assert plays(events) == [("S", "TS")]


def _trick(cards: dict[str, str]):
    return lambda t: [det(card, seat) for seat, card in cards.items()]


def test_a_trick_gathered_in_one_sweep_and_the_next_one_follows() -> None:
    tr = started("E")
    order = {"N": "7H", "W": "8H", "S": "9H", "E": "AH"}
    events, t = [], 0.0
    for seat, _card in order.items():  # one card every 0.6 s, the earlier ones stay
        shown = dict(list(order.items())[: list(order).index(seat) + 1])
        ev, t = run(tr, _trick(shown), t0=t, seconds=0.6)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.2)  # swept away together
    events += ev
    assert plays(events) == list(order.items())
    assert kinds(events)[-1] == "trick_gathered"
    ev, t = run(tr, _trick({"E": "7C"}), t0=t, seconds=0.6)
    assert plays(ev) == [("E", "7C")]
    assert tr.view.gathered == 1 and len(tr.view.trick_plays) == 1


def test_next_lead_implies_the_trick_was_gathered_even_if_never_seen_empty() -> None:
    tr = started("E")
    cards = {"N": "7H", "W": "8H", "S": "9H", "E": "AH"}
    events, t = run(tr, _trick(cards), seconds=0.8)
    assert sorted(plays(events)) == sorted(cards.items())
    ev, t = run(tr, _trick({"E": "7C"}), t0=t, seconds=0.8)  # cards swapped between frames
    assert kinds(ev) == ["trick_gathered", "card_played"]


def test_a_trick_covered_for_long_is_not_played_again_when_uncovered() -> None:
    tr = started("E")
    cards = {"N": "7H", "W": "8H", "S": "9H", "E": "AH"}
    events, t = run(tr, _trick(cards), seconds=0.8)
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # a forearm over everything
    ev2, t = run(tr, _trick(cards), t0=t, seconds=1.5)
    assert len(plays(events)) == 4 and plays(ev + ev2) == []


def test_second_best_reading_when_the_best_card_is_already_on_the_table() -> None:
    tr = started("E")
    _events, t = run(tr, lambda t: [det("JH", "N")], seconds=0.8)
    confused = det("JH", "W", conf=0.7, alts=[("JD", 0.25)])
    ev, _ = run(tr, lambda t: [det("JH", "N"), confused], t0=t, seconds=0.8)
    assert plays(ev) == [("W", "JD")]
    data = ev[0]["data"]
    assert data["uncertain"] is True
    assert data["alternatives"][0][0] == "JH"


def test_a_misread_play_is_corrected_when_its_card_really_comes() -> None:
    tr = started("E")
    # N's card reads TH while it lands, then KD for good; W plays the real TH before N's is
    # judged again from its own votes (`_recheck_sure`, 1.5 s after it came to rest).
    events, t = run(tr, lambda t: [det("TH" if t < 0.4 else "KD", "N")], seconds=1.2)
    assert plays(events) == [("N", "TH")]
    ev, _ = run(tr, lambda t: [det("KD", "N"), det("TH", "W")], t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 0, "card": "KD", "before": "TH"}
    assert tr.view.plays == [("N", "KD"), ("W", "TH")]


def test_a_weak_reading_is_marked_uncertain_with_alternatives() -> None:
    tr = started("E")
    weak = det("8C", "N", conf=0.4, alts=[("8S", 0.3), ("9C", 0.1)])
    events, _ = run(tr, lambda t: [weak], seconds=1.5)  # a doubtful name waits a little
    assert plays(events) == [("N", "8C")]
    data = events[0]["data"]
    assert data["uncertain"] is True
    assert [c for c, _ in data["alternatives"]] == ["8S", "9C"]


def test_mixed_readings_vote_for_the_card_most_often_seen() -> None:
    tr = started("E")
    events, _ = run(tr, lambda t: [det("QH" if int(t * FPS) % 4 else "QD", "S")], seconds=0.8)
    assert plays(events) == [("S", "QH")]


def test_a_card_in_the_middle_belongs_to_whoever_has_the_turn() -> None:
    tr = started("E")  # counterclockwise: N leads, then W
    events, t = run(tr, lambda t: [det("7D", "N")], seconds=0.6)
    ev, _ = run(tr, lambda t: [det("7D", "N"), det("8D", "C")], t0=t, seconds=0.6)
    assert plays(events + ev) == [("N", "7D"), ("W", "8D")]
    assert ev[0]["data"]["uncertain"] is False


def test_the_engine_gives_the_turn_after_the_first_trick() -> None:
    contract = {"taker": "N", "bid": 80, "trump": "S", "coinche": 1}
    tr = started("E", contract)
    cards = {"N": "7H", "W": "8H", "S": "9S", "E": "AH"}  # S trumps and wins
    _events, t = run(tr, _trick(cards), seconds=0.8)
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev2, _ = run(tr, lambda t: [det("TD", "C")], t0=t, seconds=0.6)
    assert kinds(ev) == ["trick_gathered"]
    assert plays(ev2) == [("S", "TD")]


@pytest.mark.parametrize("where", ["C", "S"])
def test_turned_card_of_the_belote_prise_is_not_a_play(where: str) -> None:
    tr = tracker("belote-501")
    tr.observe({"type": "deal_started", "data": {"dealer": "S"}})
    events, t = run(tr, lambda t: [det("JS", where)], seconds=0.8)
    assert kinds(events) == ["turned_card"] and events[0]["data"] == {"card": "JS"}
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # the taker picks it up
    tr.observe({"type": "contract", "data": {"taker": "E", "bid": 80, "trump": "S"}})
    ev2, _ = run(tr, lambda t: [det("JS", "E")], t0=t, seconds=0.8)
    assert ev == [] and plays(ev2) == [("E", "JS")]


def test_restore_expects_the_cards_on_the_table_back() -> None:
    tr = started("E")
    events, _t = run(tr, lambda t: [det("7D", "N"), det("8D", "W")], seconds=0.8)
    stored = [{"type": "deal_started", "data": {"dealer": "E"}}, *events]
    again = tracker()
    again.restore(stored)
    ev, _ = run(again, lambda t: [det("7D", "N"), det("8D", (300, 410)), det("9D", "S")],
                t0=100.0, seconds=0.8)
    assert plays(ev) == [("S", "9D")]


def test_referee_undo_of_a_play_is_not_recorded_again() -> None:
    tr = started("E")
    events, t = run(tr, lambda t: [det("7D", "N")], seconds=0.8)
    events[0]["seq"] = 7  # the loop writes the stored seq back into the event it appended
    tr.observe({"type": "undo", "seq": 8, "data": {"seq": 7}})
    assert tr.view.plays == []
    ev, _ = run(tr, lambda t: [det("7D", "N")], t0=t, seconds=1.0)
    assert plays(ev) == []


def test_referee_correction_renames_the_card_on_the_table() -> None:
    tr = started("E")
    _events, t = run(tr, lambda t: [det("7D", "N")], seconds=0.8)
    tr.observe({"type": "correction", "data": {"play": 0, "card": "7H", "before": "7D"}})
    assert tr.view.plays == [("N", "7H")] and tr.on_table == ["7H"]
    ev, _ = run(tr, lambda t: [det("7D", "N"), det("8D", "W")], t0=t, seconds=1.0)
    assert plays(ev) == [("W", "8D")]


# --- a whole simulated deal: the simulator's timeline seen by a perfect, hand-blind detector ------


def _scene_detections(scene, rng: random.Random):
    from vision.deal_script import CARD_CM

    out = []
    for pose in scene.cards:
        x, y = 400 + pose.x * PX, 400 + pose.y * PX
        covered = any(abs(h.x - pose.x) < 5 and abs(h.y - pose.y) < 7 for h in scene.hands)
        if covered or rng.random() < 0.1:
            continue
        half = max(CARD_CM) * PX / 2
        out.append(Detection(str(pose.card), rng.uniform(0.6, 0.99),
                             (x - half, y - half, x + half, y + half)))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_simulated_deal_is_recorded_exactly_and_promptly(seed: int) -> None:
    deal_script = pytest.importorskip("vision.deal_script")
    deal = deal_script.play_deal(random.Random(seed), "ffb-coinche", n_illegal=1)
    timeline = deal_script.build_timeline(deal, random.Random(seed), nudges=0.5, passes=0.5)
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": str(deal.dealer)}})
    tr.observe({"type": "contract", "data": deal.contract.to_json()})
    rng, events, t, n = random.Random(seed), [], 0.0, 0
    start = time.perf_counter()
    while t < timeline.duration + 1.5:
        events += tr.update(t, _scene_detections(timeline.scene_at(t), rng))
        t += 1 / FPS
        n += 1
    cost_ms = (time.perf_counter() - start) / n * 1000
    assert plays(events) == [(str(s), str(c)) for s, c in deal.plays]
    k = kinds(events)
    assert k.count("trick_gathered") == 8
    assert k[k.index("deal_over") - 1 :] == ["trick_gathered", "deal_over", "deal_started"]
    recorded = [e["data"]["t"] for e in events if e["type"] == "card_played"]
    late = [r - s for r, s in zip(recorded, timeline.t_settled, strict=True)]
    late.sort()
    print(f"seed {seed}: {n} frames, tracker+scene {cost_ms:.3f} ms/frame, recorded after "
          f"settling: median {late[16]:.2f} s, worst {late[-1]:.2f} s")
    # Settled means the placing hand has drawn back; another hand may still hide the card, so
    # only the typical delay is tight here (the benchmark measures the real detector's).
    assert late[16] <= 0.35 and late[-1] <= 1.2, late
    assert cost_ms < 20  # including the simulator's own scene computation
    assert {s for s, _ in plays(events)} == {str(s) for s in Seat}


def _one_by_one(tr, order, t=0.0, pace=0.6):
    """Cards land one every `pace` s and stay; returns (events, t)."""
    events = []
    for k in range(len(order)):
        ev, t = run(tr, _trick(dict(order[: k + 1])), t0=t, seconds=pace)
        events += ev
    return events, t


def test_a_card_never_read_becomes_an_unread_play_in_its_place() -> None:
    tr = started("E")  # counterclockwise from E: N leads, then W, S, E
    # S's card is never read; E plays after it: held for S GAP_WAIT, then recorded after an
    # unread play for S, not out of turn.
    events, t = _one_by_one(tr, [("N", "7H"), ("W", "8H"), ("E", "AH")], pace=0.6)
    assert plays(events) == [("N", "7H"), ("W", "8H"), ("S", None), ("E", "AH")]
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # the trick is swept away
    ev2, t = run(tr, _trick({"E": "7C"}), t0=t, seconds=0.8)  # and E leads the next
    events += ev + ev2
    assert plays(events) == [("N", "7H"), ("W", "8H"), ("S", None), ("E", "AH"), ("E", "7C")]
    unread = [e["data"] for e in events if e["type"] == "card_played"][2]
    assert unread["uncertain"] is True and unread["evidence"] is None
    assert kinds(events).count("trick_gathered") == 1
    assert tr.view.gathered == 1 and tr.view.unread == [2]


def test_a_late_card_keeps_the_order_of_the_seats() -> None:
    tr = started("E")
    # S's card shows after E's: E's card waits GAP_WAIT, then S gets an unread play, which
    # S's card fills when it shows. The order of the seats holds.
    events, t = _one_by_one(tr, [("N", "7H"), ("W", "8H"), ("E", "AH")])
    ev, _ = run(tr, _trick({"N": "7H", "W": "8H", "E": "AH", "S": "9H"}), t0=t, seconds=1.0)
    assert plays(events + ev) == [("N", "7H"), ("W", "8H"), ("S", None), ("E", "AH")]
    assert tr.view.plays == [("N", "7H"), ("W", "8H"), ("S", "9H"), ("E", "AH")]


def _seven_tricks_logged(seed: int, tricks: int = 7
                         ) -> tuple[TableTracker, list[tuple[str, str]]]:
    """A tracker whose log holds the first seven tricks (or `tricks`) of a random deal (N takes,
    hearts), and the plays of the rest, still to be seen."""
    import random

    from engine.contract import Contract
    from engine.playout import play_out
    from engine.rules import find_rules

    contract = Contract.from_json({"taker": "N", "bid": 80, "trump": "H"})
    deal = play_out(random.Random(seed), find_rules("ffb-coinche"), contract)
    tr = started(str(deal.dealer), contract.to_json())
    for i, (seat, card) in enumerate(deal.plays[: 4 * tricks]):
        tr.observe({"type": "card_played", "data": {"seat": str(seat), "card": str(card)}})
        if i % 4 == 3:
            tr.observe({"type": "trick_gathered", "data": {}})
    return tr, [(str(s), str(c)) for s, c in deal.plays[4 * tricks:]]


def _last_trick_swept(tr: TableTracker, first, rest) -> list:
    """The first cards of the last trick lie 1.2 s, the `rest` join them for 2 s, then all are
    swept (3 s): the events."""
    events, t = run(tr, first, seconds=1.2)
    ev, t = run(tr, lambda t: [*first(t), *rest], t0=t, seconds=2.0)
    events += ev
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)
    return events + ev


def _with_fixes(events, start: int) -> list[tuple[str, str | None]]:
    """The plays recorded from play `start` on, with the corrections written in."""
    record = plays(events)
    for fix in (e["data"] for e in events if e["type"] == "correction"):
        record[fix["play"] - start] = (record[fix["play"] - start][0], fix["card"])
    return record


def test_at_the_end_of_the_deal_an_unread_card_is_deduced() -> None:
    tr, last = _seven_tricks_logged(4)
    missing = last[2]  # the third card of the last trick is never read
    events, t = _one_by_one(tr, [p for p in last if p != missing])
    ev, _ = run(tr, lambda t: [], t0=t, seconds=1.5)
    events += ev
    assert kinds(events)[-3:] == ["trick_gathered", "correction", "deal_over"]
    fix = fixed(events[-2])
    assert fix == {"play": 30, "card": missing[1], "before": None, "deduced": True}
    # Named when the deal ended (its last trick gathered): the record gives the play that time.
    assert events[-2]["data"]["t"] == events[-3]["data"]["t"]
    assert tr.view.plays[30] == missing and tr.view.unread == []


@pytest.mark.parametrize("hinted", [False, True])
def test_the_view_names_unread_plays_or_gives_the_ways_the_rules_leave(hinted: bool) -> None:
    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H recorded 9S and N's KC recorded TC; W's and S's cards unread: 9H and KC are left,
    # and the rules break as few either way round.
    _logged(tr, [("E", "9S"), ("N", "TC"), ("W", None), ("S", None)], gathered=False)
    hints = {30: {"KC": 3.0}} if hinted else {}
    proven, named, ways = tr.view.deduced(hints)
    assert proven == []
    if hinted:  # (W's weak readings choose a way: no ways left open)
        assert [(i, card) for i, card, _shares in named] == [(30, "KC"), (31, "9H")]
        assert ways == []
        return
    assert named == [] and sorted(ways, key=lambda w: w[30]) == [
        {30: "9H", 31: "KC"}, {30: "KC", 31: "9H"}]


def test_a_first_lead_never_read_is_an_unread_play_when_the_referee_gave_the_dealer() -> None:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}, "actor": "referee"})
    assert tr.view.dealer_known
    # N leads (counterclockwise from E) but its card is never read: W's card waits GAP_WAIT
    # for it, then N gets an unread play and W's card follows.
    events, t = _one_by_one(tr, [("W", "8H")], pace=0.3 + GAP_WAIT - 0.05)
    assert plays(events) == []
    ev, t = _one_by_one(tr, [("W", "8H"), ("S", "9H"), ("E", "AH")], t=t)
    events += ev
    assert plays(events) == [("N", None), ("W", "8H"), ("S", "9H"), ("E", "AH")]
    assert [e["data"]["t"] for e in events if e["type"] == "card_played"][1] <= 0.3 + GAP_WAIT + 0.1
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev2, t = run(tr, _trick({"E": "7C"}), t0=t, seconds=0.8)
    events += ev + ev2
    assert plays(events) == [("N", None), ("W", "8H"), ("S", "9H"), ("E", "AH"), ("E", "7C")]


def _dealt_by_referee(dealer: str) -> TableTracker:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": dealer}, "actor": "referee"})
    return tr


def test_a_card_under_a_hand_fills_its_unread_play_when_it_shows() -> None:
    tr = _dealt_by_referee("E")  # N leads, then W, S, E
    # N's card lies under a hand (not seen) while W plays: W is recorded after GAP_WAIT with an
    # unread play for N; N's card, seen at last, fills that play and is not a new lead.
    events, t = _one_by_one(tr, [("W", "8H")], pace=1.0)
    assert plays(events) == [("N", None), ("W", "8H")]
    ev, t = run(tr, _trick({"W": "8H", "N": "7H"}), t0=t, seconds=1.0)
    events += ev
    fills = [e["data"] for e in events if e["type"] == "correction"]
    assert len(fills) == 1 and fills[0]["play"] == 0 and fills[0]["card"] == "7H"
    assert fills[0]["before"] is None and 1.0 < fills[0]["t"] < 2.0
    assert tr.view.plays == [("N", "7H"), ("W", "8H")] and tr.view.turn == "S"


def test_a_card_held_waits_while_something_unread_lies_before_the_missing_seat() -> None:
    tr = _dealt_by_referee("E")
    # Something lies in front of N (read too poorly to be a card yet): W's card waits for it.
    def script(t):
        dets = _trick({"W": "8H"})(t)
        if round(t * FPS) % 4 == 0:  # seen one frame in four: never steady
            dets += _trick({"N": "7H"})(t)
        return dets

    events, _ = run(tr, script, seconds=2.0)
    assert plays(events) == []


def test_a_dealer_the_tracker_guessed_does_not_hold_the_first_cards() -> None:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}})  # not the referee's word
    assert not tr.view.dealer_known
    events, _ = _one_by_one(tr, [("W", "8H")])
    assert plays(events) == [("W", "8H")]


def test_the_known_dealer_passes_round_with_the_deals() -> None:
    from vision.deal_view import DealView

    view = DealView()
    view.apply({"type": "deal_started", "data": {"dealer": "E"}, "actor": "referee"})
    view.apply({"type": "deal_over", "data": {}})
    view.apply({"type": "deal_started", "data": {"dealer": view.next_dealer()}})
    assert view.dealer == "N" and view.dealer_known  # counterclockwise: E then N
    view.apply({"type": "deal_over", "data": {}})
    view.apply({"type": "deal_started", "data": {"dealer": "S"}})  # not the next one: a guess
    assert not view.dealer_known


def test_a_lead_from_the_seat_never_read_opens_the_next_trick() -> None:
    tr = started("E")  # N leads, then W, S, E
    events, t = _one_by_one(tr, [("N", "7H"), ("W", "8H"), ("S", "9H")])  # E's card never read
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # the trick is swept away
    # E won the trick and leads the next one: its card lands where E's unread one lay, in E's
    # turn by the rotation of the old trick; it must not close the old trick.
    ev2, t = run(tr, _trick({"E": "AC"}), t0=t, seconds=1.0)
    events += ev + ev2
    assert plays(events) == [("N", "7H"), ("W", "8H"), ("S", "9H"), ("E", None), ("E", "AC")]
    assert kinds(events).count("trick_gathered") == 1


def _logged(tr, plays_, gathered=True):
    for seat, card in plays_:
        tr.observe({"type": "card_played", "data": {"seat": seat, "card": card}})
    if gathered:
        tr.observe({"type": "trick_gathered", "data": {}})


def test_after_a_trick_with_an_unread_card_its_possible_winners_may_lead() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # E's card was never read: it beat W's KS (a higher spade) or not, so W or E leads next.
    _logged(tr, [("N", "7S"), ("W", "KS"), ("S", "KH"), ("E", None)])
    assert tr.view.leaders() == {"W", "E"}
    # N's card lands first: N cannot lead, so E led and was not read; W and S come after N.
    events, t = _one_by_one(tr, [("N", "7D"), ("W", "8D")])
    assert plays(events) == []  # held: W may have led, or E (then two seats are missing)
    ev, t = _one_by_one(tr, [("N", "7D"), ("W", "8D"), ("S", "9D")], t=t)
    events += ev
    assert plays(events) == [("E", None), ("N", "7D"), ("W", "8D"), ("S", "9D")]  # one missing
    ev, t = run(tr, lambda t: [], t0=t, seconds=3.0)
    events += ev
    assert plays(events) == [("E", None), ("N", "7D"), ("W", "8D"), ("S", "9D")]


def test_a_possible_leader_that_lands_first_leads() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    _logged(tr, [("N", "7S"), ("W", "KS"), ("S", "KH"), ("E", None)])
    events, _ = _one_by_one(tr, [("W", "7D"), ("S", "8D")])
    assert plays(events) == [("W", "7D"), ("S", "8D")]  # recorded at once


def test_cards_held_when_the_video_ends_are_recorded_in_their_places() -> None:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}, "actor": "referee"})
    events, _ = _one_by_one(tr, [("S", "9H")], pace=2.0)  # N's lead and W's card never read
    assert plays(events) == []  # held for N and W (two seats missing: a wrong leader is likelier)
    assert plays(tr.finish()) == [("N", None), ("W", None), ("S", "9H")]
    assert tr.finish() == []




def test_the_lead_is_the_possible_leader_nearest_before_the_first_card() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    _logged(tr, [("N", "7S"), ("W", "KS"), ("S", "KH"), ("E", None)])  # W or E leads next
    # S's card lands first (S cannot lead): W, just before S, led and was not read.
    events, t = _one_by_one(tr, [("S", "7D"), ("E", "8D"), ("N", "9D")])
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)
    assert plays(events + ev) == [("W", None), ("S", "7D"), ("E", "8D"), ("N", "9D")]


def test_a_card_seen_twice_corrects_the_less_sure_reading_to_its_second_one() -> None:
    tr = started("E")
    # N's card reads JD three frames in five and JH the rest: recorded JD, JH a contender.
    events, t = run(tr, lambda t: [det("JD" if round(t * 10) % 5 < 3 else "JH", "N")],
                    seconds=2.0)
    assert plays(events) == [("N", "JD")]
    mixed = lambda t: det("JD" if round(t * 10) % 5 < 3 else "JH", "N")  # noqa: E731
    ev, _ = run(tr, lambda t: [mixed(t), det("JD", "W")], t0=t, seconds=1.0)  # the real JD
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 0, "card": "JH", "before": "JD"}
    assert tr.view.plays == [("N", "JH"), ("W", "JD")]


def test_a_sure_reading_is_not_corrected_by_a_less_sure_one() -> None:
    tr = started("E")
    _, t = run(tr, lambda t: [det("JD", "N")], seconds=2.0)
    ev, _ = run(tr, lambda t: [det("JD", "N"), det("JD" if round(t * 10) % 5 < 3 else "JH", "W")],
                t0=t, seconds=1.5)
    assert "correction" not in kinds(ev)
    assert tr.view.plays == [("N", "JD"), ("W", "JH")]


@pytest.mark.parametrize(("sure", "renamed"), [(0.93, True), (0.85, False)])
def test_a_card_seen_twice_far_more_surely_renames_to_a_tenth_of_the_votes(sure, renamed) -> None:
    tr = started("E")
    # N's card reads JD 0.66 of its votes, JH 0.13; W's real JD lands read JD `sure`: 0.27 more
    # surely than N's ever read it (at least 0.25: a tenth of N's votes makes JH a contender),
    # or 0.19 (JH needs a fifth).
    n_card = lambda t: det("JD", "N", 0.66, [("JH", 0.13), ("QD", 0.07), ("KD", 0.07),  # noqa: E731
                                             ("AD", 0.07)])
    _, t = run(tr, lambda t: [n_card(t)], seconds=2.0)
    ev, _ = run(tr, lambda t: [n_card(t), det("JD", "W", sure, [("TD", 1 - sure)])],
                t0=t, seconds=1.5)
    fixes = [fixed(e) for e in ev if e["type"] == "correction"]
    if renamed:
        assert fixes == [{"play": 0, "card": "JH", "before": "JD"}]
        assert tr.view.plays == [("N", "JH"), ("W", "JD")]
    else:  # W's, lying beside N's card read alike, is another card: its next reading, in doubt
        assert fixes == [] and tr.view.plays == [("N", "JD"), ("W", "TD")]
        assert [e["data"]["uncertain"] for e in ev if e["type"] == "card_played"] == [True]


@pytest.mark.parametrize("other, renamed", [(0.2, True), (0.05, False)])
def test_a_play_whose_votes_come_to_read_a_card_recorded_before_trades_names_by_the_odds(
        other: float, renamed: bool) -> None:
    tr = started("E")  # N leads, then W, S, E
    # N's card reads TS, 9S its second reading (`other` of a frame's confidence).
    lead = lambda t: det("TS", "N", 0.7, alts=(("9S", other),))  # noqa: E731
    events, t = run(tr, lambda t: [lead(t)], seconds=1.5)
    # W's card reads 8S as it lands (recorded so), then TS clearly for two seconds.
    landed = t
    follow = lambda t: (det("8S", "W", 0.7, alts=(("TS", 0.2),)) if t < landed + 0.6  # noqa: E731
                        else det("TS", "W", 0.95, alts=(("8S", 0.03),)))
    ev, t = run(tr, lambda t: [lead(t), follow(t)], t0=t, seconds=2.5)
    events += ev
    assert plays(events) == [("N", "TS"), ("W", "8S")]
    assert "correction" not in kinds(events)  # (TS is recorded: the votes cannot rename W's)
    ev, t = run(tr, lambda t: [lead(t), follow(t), det("7H", "S"), det("8H", "E")],
                t0=t, seconds=1.5)
    ev2, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # swept
    events += ev + ev2
    # At the gather: W's votes say TS six times as often as 8S; N's say 9S to TS 0.2 / 0.7
    # (odds 1.8: both renamed) or 0.05 / 0.7 (odds 0.5: kept).
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if renamed:
        assert fixes == [{"play": 0, "card": "9S", "before": "TS"},
                         {"play": 1, "card": "TS", "before": "8S"}]
        assert kinds(events)[-3:] == ["correction", "correction", "trick_gathered"]
    else:
        assert fixes == []
    assert tr.view.plays[:2] == ([("N", "9S"), ("W", "TS")] if renamed
                                 else [("N", "TS"), ("W", "8S")])


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
    events, t = _one_by_one(tr, [("N", "7H")])
    # A hand covers N's card; half a second later W's card lands and settles, N's still hidden.
    ev, t = run(tr, lambda t: [], t0=t, seconds=0.5)
    ev1, t = run(tr, lambda t: [det("8H", "W")], t0=t, seconds=0.8)
    ev += ev1
    ev2, t = run(tr, _trick({"N": "7H", "W": "8H"}), t0=t, seconds=0.6)
    events += ev + ev2
    assert plays(events) == [("N", "7H"), ("W", "8H")]
    assert "trick_gathered" not in kinds(events)


def test_a_held_card_that_slides_to_the_middle_does_not_break_the_gather() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    _logged(tr, [("N", "7S"), ("W", "KS"), ("S", "KH"), ("E", None)])  # W or E leads next
    events, t = _one_by_one(tr, [("S", "7D"), ("E", "8D")])  # both held: W's lead unread
    assert plays(events) == [] and tr.view.turn is None
    first = next(x for x in tr.tracks if x.held and x.zone == "S")
    first.zone = "trick"  # it was nudged into the middle while waiting
    ev, t = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept: no crash, nothing left waiting
    assert ("E", "8D") in plays(ev) and not any(x.held for x in tr.tracks)
    assert tr.view.lead_before("trick") == "trick"


def _misread_first_trick(tr, swept: bool = True, rest=(("W", "KD"), ("S", "8D"), ("E", "9D"))):
    """N's QD reads QH three frames in five: recorded QH, N seems to win the trick (nobody
    followed hearts); as QD, W's KD (the KD of `rest`, the others' cards) won it. Returns
    (events, t), after the sweep if `swept`."""
    mixed = lambda t: det("QH" if round(t * 10) % 5 < 3 else "QD", "N")  # noqa: E731
    events, t = run(tr, lambda t: [mixed(t)], seconds=1.5)
    lying: dict[str, str] = {}
    for seat, card in rest:
        lying[seat] = card
        ev, t = run(tr, lambda t: [mixed(t), *_trick(lying)(t)], t0=t, seconds=0.8)
        events += ev
    if swept:
        ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
        events += ev
    return events, t


def test_a_held_card_that_proves_a_misread_corrects_it_and_leads_at_once() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    events, t = _misread_first_trick(tr, swept=False)
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
    events, t = _misread_first_trick(tr)
    assert plays(events)[0] == ("N", "QH") and tr.view.leaders() == {"N"}
    # W, S and E put their clubs down, then N: N cannot have led, so N did not win the trick.
    ev, t = _one_by_one(tr, [("W", "7C"), ("S", "8C"), ("E", "9C"), ("N", "TC")], t=t)
    assert fixed(ev[0]) == {"play": 0, "card": "QD",
                                                               "before": "QH"}
    assert plays(ev) == [("W", "7C"), ("S", "8C"), ("E", "9C"), ("N", "TC")]


def test_a_late_card_of_the_expected_leader_without_another_reading_changes_nothing() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    _, t = _one_by_one(tr, [("N", "QH"), ("W", "KD"), ("S", "8D"), ("E", "9D")])
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    assert tr.view.leaders() == {"N"}
    # Nothing read in doubt: N's card was there first, not seen (the order of the seats holds):
    # N gets an unread play, which its card fills when it shows; no earlier play changes.
    ev, t = _one_by_one(tr, [("W", "7C"), ("S", "8C"), ("N", "TC")], t=t)
    ev1, t = run(tr, _trick({"W": "7C", "S": "8C", "N": "TC", "E": "9C"}), t0=t, seconds=1.0)
    ev2, _ = run(tr, lambda t: [], t0=t, seconds=3.0)
    ev2 = ev1 + ev2
    fixes = [e["data"] for e in ev + ev2 if e["type"] == "correction"]
    assert [(f["play"], f["before"], f["card"]) for f in fixes] == [(4, None, "TC")]
    assert plays(ev + ev2) == [("N", None), ("W", "7C"), ("S", "8C"), ("E", "9C")]
    assert tr.view.plays[4:] == [("N", "TC"), ("W", "7C"), ("S", "8C"), ("E", "9C")]


def test_the_last_seats_card_closes_the_trick_without_waiting_for_the_sweep() -> None:
    tr = started("E")  # N leads, then W, S, E
    # S's card is never read; E (who plays last) puts down AH, held for S's turn.
    events, t = _one_by_one(tr, [("N", "7H"), ("W", "8H"), ("E", "AH")])
    lying = _trick({"N": "7H", "W": "8H", "E": "AH"})
    ev, t = run(tr, lying, t0=t, seconds=1.5)  # the trick still lies there
    events += ev
    assert plays(events) == [("N", "7H"), ("W", "8H"), ("S", None), ("E", "AH")]
    recorded = [e["data"]["t"] for e in events if e["type"] == "card_played"][-1]
    assert recorded - 1.2 <= 0.3 + LAST_WAIT + 0.15  # E's card landed at 1.2 s
    assert "trick_gathered" not in kinds(events)  # gathered when swept, as always
    # S's card is read at last, the trick still there: it fills S's play, no new trick.
    ev, t = run(tr, _trick({"N": "7H", "W": "8H", "S": "9H", "E": "AH"}), t0=t, seconds=1.0)
    ((kind, fill),) = [(e["type"], e["data"]) for e in ev]
    assert kind == "correction"
    assert fill == {"play": 2, "card": "9H", "before": None, "t": fill["t"], "alternatives": []}
    assert t - 1.0 < fill["t"] < t
    assert tr.view.plays == [("N", "7H"), ("W", "8H"), ("S", "9H"), ("E", "AH")]
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev2, _ = run(tr, _trick({"E": "7C"}), t0=t, seconds=0.8)  # E won with AH and leads
    assert kinds(ev) == ["trick_gathered"] and plays(ev2) == [("E", "7C")]


def test_a_card_held_for_one_seat_never_read_is_recorded_after_it() -> None:
    tr = started("E")
    # W's card is never read; S (third) is held for W: S's card says W has played.
    events, t = _one_by_one(tr, [("N", "7H"), ("S", "9H")])
    ev, t = run(tr, _trick({"N": "7H", "S": "9H"}), t0=t, seconds=1.0)
    assert plays(events + ev) == [("N", "7H"), ("W", None), ("S", "9H")]
    s_time = [e["data"]["t"] for e in events + ev if e["type"] == "card_played"][-1]
    assert s_time - 0.6 <= 0.3 + GAP_WAIT + 0.15  # S's card landed at 0.6 s
    ev, t = run(tr, _trick({"N": "7H", "S": "9H", "E": "AH"}), t0=t, seconds=1.0)
    assert plays(ev) == [("E", "AH")]  # E's turn, in turn


def test_a_card_held_for_two_seats_never_read_waits_for_the_sweep() -> None:
    tr = started("E")
    # W's and S's cards are never read; E (last) is held: a wrong leader is likelier.
    events, t = _one_by_one(tr, [("N", "7H"), ("E", "AH")])
    ev, t = run(tr, _trick({"N": "7H", "E": "AH"}), t0=t, seconds=3.0)
    assert plays(events + ev) == [("N", "7H")]


def test_a_card_held_for_two_unread_seats_and_the_lead_gone_together_are_a_sweep() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # Seed 2097 deal 19: W's and S's cards never read, E's held; all swept, and 1.6 s later W
    # (who may have won) leads the next trick: two cards went, a sweep, not the lead hidden.
    events, t = _one_by_one(tr, [("N", "7H"), ("E", "AH")])
    ev, t = run(tr, _trick({"N": "7H", "E": "AH"}), t0=t, seconds=2.0)
    ev2, t = run(tr, lambda t: [], t0=t, seconds=1.6)
    ev3, t = run(tr, _trick({"W": "KC"}), t0=t, seconds=1.0)
    assert plays(events + ev + ev2 + ev3) == [("N", "7H"), ("W", None), ("S", None), ("E", "AH"),
                                               ("W", "KC")]
    assert tr.view.gathered == 1


def test_a_video_ending_in_the_last_trick_completes_the_deal() -> None:
    import random

    from engine.contract import Contract
    from engine.playout import play_out
    from engine.rules import find_rules

    contract = Contract.from_json({"taker": "N", "bid": 80, "trump": "H"})
    deal = play_out(random.Random(4), find_rules("ffb-coinche"), contract)
    tr = started(str(deal.dealer), contract.to_json())
    _logged(tr, [(str(s), str(c)) for s, c in deal.plays[:28]], gathered=False)
    for _ in range(7):
        tr.observe({"type": "trick_gathered", "data": {}})
    last = [(str(s), str(c)) for s, c in deal.plays[28:]]
    events, _ = _one_by_one(tr, last[:3])  # the last seat's card is never read; the video ends
    assert plays(events) == last[:3]
    end = tr.finish()
    assert plays(end) == [(last[3][0], None)]  # in the last trick every seat plays
    assert kinds(end)[-3:] == ["trick_gathered", "correction", "deal_over"]
    assert tr.view.plays[31] == last[3]  # the one card never seen: deduced


def test_the_last_seats_card_alone_does_not_close_a_trick_with_two_seats_unread() -> None:
    tr = started("E")  # N leads, then W, S, E
    events, t = _one_by_one(tr, [("N", "7H"), ("E", "AH")])  # W's and S's cards never read
    ev, t = run(tr, _trick({"N": "7H", "E": "AH"}), t0=t, seconds=3.0)
    assert plays(events + ev) == [("N", "7H")]  # held: a wrong leader is likelier
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)  # swept: now the sweep says it
    assert plays(ev) == [("W", None), ("S", None), ("E", "AH")]


def test_a_card_lost_under_a_hand_keeps_its_place_in_the_order() -> None:
    tr = _dealt_by_referee("E")  # N leads, then W
    # N's card is seen for two frames, then hidden by a hand for 0.75 s (over forget_s);
    # W's card lands meanwhile. N's card, seen again, is the one that came first: it leads.
    def script(t):
        dets = _trick({"W": "8H"})(t) if t >= 0.5 else []
        if t < 0.15 or t >= 0.9:
            dets += _trick({"N": "7H"})(t)
        return dets

    events, _ = run(tr, script, seconds=2.5)
    assert plays(events) == [("N", "7H"), ("W", "8H")]
    assert "correction" not in kinds(events)  # no unread play for N, filled later


def test_a_card_read_like_a_gathered_one_where_it_lay_is_a_new_card() -> None:
    tr = started("E")  # N leads, then W, S, E
    # N's card reads JD three frames in five and JH the rest: recorded JD, JH a contender.
    mixed = lambda t: det("JD" if round(t * 10) % 5 < 3 else "JH", "N")  # noqa: E731
    events, t = run(tr, lambda t: [mixed(t)], seconds=1.0)
    rest = _trick({"W": "7C", "S": "8C", "E": "9C"})
    ev, t = _one_by_one(tr, [("W", "7C"), ("S", "8C"), ("E", "9C")], t=t)
    events += ev
    ev, t = run(tr, lambda t: [mixed(t), *rest(t)], t0=t, seconds=1.0)
    ev2, t = run(tr, lambda t: [], t0=t, seconds=2.0)  # swept
    events += ev + ev2
    assert plays(events)[0] == ("N", "JD") and tr.view.gathered == 1
    # Later a JD lands on the same spot, read clearly: not the gathered JD seen again (that
    # one is gone) but the real JD, so the first one was the JH.
    ev, _ = run(tr, lambda t: [det("JD", "N")], t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 0, "card": "JH", "before": "JD"}
    assert tr.view.plays[0] == ("N", "JH") and tr.view.plays[4] == ("N", "JD")


def test_a_card_seen_far_more_surely_corrects_an_earlier_reading_to_a_weak_contender() -> None:
    tr = started("E")  # N leads, then W, S, E
    _logged(tr, [("N", "JS"), ("W", "7D"), ("S", "8D"), ("E", "9D")])
    tr.observe({"type": "trick_gathered", "data": {}})
    # N's next card reads QS 0.6, JS 0.25 (played), QC 0.12: recorded QS, QC a weak contender.
    blur = det("QS", "N", 0.6, [("JS", 0.25), ("QC", 0.12)])
    events, t = run(tr, lambda t: [blur], seconds=1.0)
    assert plays(events) == [("N", "QS")]
    # W puts down a QS read at 0.98: the deck holds one QS, so N's card was the QC.
    ev, _ = run(tr, lambda t: [blur, det("QS", "W", 0.98)], t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 4, "card": "QC", "before": "QS"}
    assert tr.view.plays[4:] == [("N", "QC"), ("W", "QS")]


def test_two_cards_in_turn_from_a_seat_that_cannot_lead_correct_the_trick_before() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # N's QD reads QH three frames in five: N seems to win (nobody followed hearts); as QD,
    # S's KD won it.
    events, t = _misread_first_trick(tr, rest=(("W", "8D"), ("S", "KD"), ("E", "9D")))
    assert plays(events)[0] == ("N", "QH") and tr.view.leaders() == {"N"}
    # S then E put their cards down, in turn: by the readings N leads, and N and W would both
    # have played unread before them; by N's other reading S won and leads. No N card needed.
    ev, _ = _one_by_one(tr, [("S", "7C"), ("E", "8C")], t=t, pace=1.0)
    assert kinds(ev)[0] == "correction"
    assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert plays(ev) == [("S", "7C"), ("E", "8C")]


def test_a_card_held_after_a_glimpse_is_forgotten_once_out_of_sight() -> None:
    tr = _dealt_by_referee("E")  # N leads: a card in front of W is held for N
    glimpse = lambda t: _trick({"W": "7D"})(t) if t < 0.5 else []  # noqa: E731
    run(tr, glimpse, seconds=2.0)  # steady and held after 0.3 s, seen 5 frames, then gone
    assert [o for o in tr.tracks if o.zone == "W"] == []  # (a hand's shadow read as a card)
    # A card seen for a second before a hand covers it stays held for its turn (S's: N and W
    # play before it).
    lying = lambda t: _trick({"S": "8H"})(t) if t < 3.0 else []  # noqa: E731
    events, _ = run(tr, lying, t0=2.0, seconds=2.0)
    (held,) = [o for o in tr.tracks if o.zone == "S"]
    assert held.held and held.readings()[0][0] == "8H" and plays(events) == []


def test_a_second_box_on_a_card_of_the_trick_is_never_a_play() -> None:
    tr = _dealt_by_referee("E")  # N leads, then W
    # N's 8C lies there; a second box on it, a little aside, reads 7C (two boxes, one card).
    x, y = SPOT["N"]
    echo = lambda t: [det("8C", "N"), det("7C", (x + 6, y + 4), 0.7)]  # noqa: E731
    events, t = run(tr, echo, seconds=3.0)
    assert plays(events) == [("N", "8C")]
    assert not any(o.held for o in tr.tracks)  # not held for a turn: an echo, dropped
    ev, _ = run(tr, lambda t: [*echo(t), det("9C", "W")], t0=t, seconds=1.0)
    assert plays(ev) == [("W", "9C")]


def test_a_card_of_the_trick_hidden_a_moment_and_read_as_another_is_not_the_next_lead() -> None:
    tr = started("E")
    cards = {"N": "7H", "W": "8H", "S": "9D", "E": "AH"}
    events, t = run(tr, _trick(cards), seconds=0.8)
    assert len(plays(events)) == 4
    others = _trick({"N": "7H", "W": "8H", "E": "AH"})
    ev, t = run(tr, others, t0=t, seconds=1.0)  # a hand over S's card, the trick still there
    # S's 9D seen again reads TD, 9D its second reading: the same card, not the next lead.
    misread = lambda t: [*others(t), det("TD", "S", 0.55, [("9D", 0.22)])]  # noqa: E731
    ev2, _ = run(tr, misread, t0=t, seconds=1.5)
    assert plays(ev + ev2) == [] and "trick_gathered" not in kinds(ev + ev2)


@pytest.mark.parametrize("glimpse", ["never", "before", "after"])
def test_cards_in_turn_from_another_seat_while_the_leaders_place_stays_empty(glimpse) -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    _, t = _misread_first_trick(tr)  # read QH, N won; as QD (its other reading), W won
    assert tr.view.leaders() == {"N"}
    if glimpse == "before":  # something lay in front of N before the others played: N led
        _, t = run(tr, _trick({"N": "TC"}), t0=t, seconds=0.2)
    # W, S and E put their clubs down in turn. By the readings N led, unread.
    ev, t = _one_by_one(tr, [("W", "7C")], t=t)
    if glimpse == "after":  # something showed in front of N a moment after W's card
        ev2, t = run(tr, lambda t: [*_trick({"W": "7C"})(t), det("TC", "N")], t0=t, seconds=0.2)
        ev += ev2
    ev2, t = _one_by_one(tr, [("W", "7C"), ("S", "8C"), ("E", "9C")], t=t)
    ev += ev2
    lying = _trick({"W": "7C", "S": "8C", "E": "9C"})
    if glimpse != "never":  # N's card does not show (again): its play is unread, the readings
        ev2, t = run(tr, lying, t0=t, seconds=LAST_WAIT + 0.5)  # stand
        if glimpse == "after":  # N may yet play (the leader misread): the gap waits DOUBT_WAIT
            assert plays(ev + ev2) == []
            ev3, t = run(tr, lying, t0=t, seconds=DOUBT_WAIT)
            ev2 += ev3
        assert plays(ev + ev2) == [("N", None), ("W", "7C"), ("S", "8C"), ("E", "9C")]
        assert "correction" not in kinds(ev + ev2)
        return
    # Nothing ever lay in front of N while W's and S's cards came in turn: N had not played
    # yet, so by N's other reading W won the trick before and led. Corrected as soon as S's
    # card lies, not when N's comes.
    assert ev[0]["type"] == "correction"
    assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert plays(ev) == [("W", "7C"), ("S", "8C"), ("E", "9C")]
    assert ev[1]["data"]["t"] - ev[1]["data"]["seen"] <= 2.0  # (W's card: when S's settled)
    ev2, t = run(tr, _trick({"W": "7C", "S": "8C", "E": "9C", "N": "TC"}), t0=t, seconds=1.0)
    assert plays(ev2) == [("N", "TC")] and "correction" not in kinds(ev2)


@pytest.mark.parametrize("hinted", [True, False])
def test_weak_readings_name_unread_cards_the_rules_cannot_tell_apart(hinted: bool) -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # W's 9S and S's TC are never read: either could be either card by the rules. W's card is
    # read too weakly to name, frame after frame: 9S 0.4, TC 0.1.
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     (("9S", 0.4), ("TC", 0.1)))
    lying = _trick(dict(last[:2]))
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


@pytest.mark.parametrize("glimpse", [False, True])
def test_a_lone_card_two_seats_after_the_leader_corrects_the_trick_before(glimpse: bool) -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # N's QD reads QH three frames in five: N seems to win; as QD, S's KD won it.
    _, t = _misread_first_trick(tr, rest=(("W", "8D"), ("S", "KD"), ("E", "9D")))
    assert tr.view.leaders() == {"N"}
    if glimpse:  # something lay in front of N a moment after the sweep (N's lead, unread?)
        _, t = run(tr, _trick({"N": "TC"}), t0=t, seconds=0.2)
    # S's card comes first. Had N led, N and W would have played before it, unseen both: by
    # N's other reading S won and leads, at once.
    ev, t = run(tr, _trick({"S": "7C"}), t0=t, seconds=1.0)
    if glimpse:  # N's place was not empty: S's card waits for its turn, nothing corrected
        assert ev == [] and tr.view.plays[0] == ("N", "QH")
        return
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert plays(ev) == [("S", "7C")] and ev[1]["data"]["t"] - (t - 1.0) <= 0.3 + 0.15


def test_a_card_of_the_last_trick_seen_again_says_nothing_about_who_leads() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # N's QD reads QH three frames in five: N seems to win; as QD, S's KD won it.
    _, t = _misread_first_trick(tr, rest=(("W", "8D"), ("S", "KD"), ("E", "9D")))
    # Seed 2064 deal 1: S's KD, recorded surely, lies again at the felt's edge in S's place
    # (read as surely), before any lead. It is that card seen again, not S's lead: no seat led
    # yet, nothing is corrected.
    x, y = SPOT["S"]
    ev, t = run(tr, lambda t: [det("KD", (x, y + 60))], t0=t, seconds=1.0)
    assert "correction" not in kinds(ev) and plays(ev) == []
    assert tr.view.plays[0] == ("N", "QH")


def test_a_mark_of_the_felt_read_weakly_in_the_leaders_place_is_no_glimpse() -> None:
    from vision.detections import UNNAMED

    # Seed 2062 deal 4: the felt itself reads weakly as a card beside each seat's place, every
    # frame. Seen while the whole trick lay there, clear of its cards, it is a mark of the felt:
    # after the sweep it says nothing about who put a card down first.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    x, y = SPOT["N"]
    mark = Detection(UNNAMED, 0.0, (x + 42, y - 59, x + 99, y + 29), (("KS", 0.4),))
    update = tr.update
    tr.update = lambda t, found: update(t, [*found, mark])  # type: ignore[method-assign]
    _, t = _misread_first_trick(tr, rest=(("W", "8D"), ("S", "KD"), ("E", "9D")))
    ev, t = run(tr, _trick({"S": "7C"}), t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"]  # as with nothing in N's place
    assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}


@pytest.mark.parametrize("rival", [0.35, 0.1])
def test_a_card_read_twice_corrects_whichever_reading_has_the_stronger_contender(
        rival: float) -> None:
    tr = started("E")
    # N's card reads QH half the time, JH and KH a quarter each; then W's reads QH more
    # surely, QD by `rival`.
    n = det("QH", "N", 0.5, [("JH", 0.25), ("KH", 0.25)])
    events, t = run(tr, lambda t: [n], seconds=1.5)
    assert plays(events) == [("N", "QH")]
    w = det("QH", "W", 1.0 - rival, [("QD", rival)])
    ev, _ = run(tr, lambda t: [n, w], t0=t, seconds=1.0)
    if rival > 0.25:  # W's QD is the likelier misreading: W's card is QD, N's stays QH
        assert kinds(ev) == ["card_played"] and plays(ev) == [("W", "QD")]
        assert tr.view.plays == [("N", "QH"), ("W", "QD")]
    else:  # N's JH is: N's card was JH, W's the real QH
        assert kinds(ev) == ["correction", "card_played"] and plays(ev) == [("W", "QH")]
        assert tr.view.plays == [("N", "JH"), ("W", "QH")]


def test_a_box_on_the_uncovered_part_of_a_trick_card_is_not_the_next_lead() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    cards = {"N": "7H", "W": "AH", "S": "9H", "E": "8H"}
    events, t = run(tr, _trick(cards), seconds=2.0)
    assert len(plays(events)) == 4 and tr.view.turn == "W"  # W won with AH
    # The trick still lies there. A small box on W's AH, mostly inside it, reads TH (AH its
    # second reading), frame after frame: W's card read twice, not W's next lead.
    x, y = SPOT["W"]
    part = Detection("TH", 0.6, (x, y + 4, x + 28.5, y + 44), (("AH", 0.15),))
    ev, t = run(tr, lambda t: [*_trick(cards)(t), part], t0=t, seconds=3.0)
    assert plays(ev) == [] and "trick_gathered" not in kinds(ev)
    # Once the trick is swept, W's real lead is W's.
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev2, _ = run(tr, _trick({"W": "TH"}), t0=t, seconds=1.0)
    assert kinds(ev) == ["trick_gathered"] and plays(ev2) == [("W", "TH")]


@pytest.mark.parametrize("weak_first", [True, False])
def test_a_leaders_card_read_late_does_not_question_the_trick_before_if_it_lay_there(
        weak_first: bool) -> None:
    from vision.detections import UNNAMED

    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    _, t = _misread_first_trick(tr)  # read QH, N won; as QD (its other reading), W won
    x, y = SPOT["N"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44), (("TC", 0.3),))
    # N's TC lies there first, read too weakly to name (or nothing is seen there at all);
    # W's 7C lands; N's card is named only then.
    before = [weak] if weak_first else []
    ev, t = run(tr, lambda t: before, t0=t, seconds=0.5)
    ev2, t = run(tr, lambda t: [*before, det("7C", "W")], t0=t, seconds=1.0)
    ev3, _ = run(tr, _trick({"N": "TC", "W": "7C"}), t0=t, seconds=1.0)
    events = ev + ev2 + ev3
    if weak_first:  # N's card was there first: N led, as read; the trick before stands
        fixes = [fixed(e) for e in events if e["type"] == "correction"]
        assert all(fix["play"] >= 4 for fix in fixes)
        # W's card is recorded as soon as it lies still, after an unread play for N (which N's
        # card fills once read), not when N's card is read.
        w_play = next(e["data"] for e in events if e["type"] == "card_played"
                      and e["data"]["seat"] == "W")
        assert w_play["t"] - w_play["seen"] <= 0.3 + GAP_WAIT + 0.15
        assert _with_fixes(events, 4) == [("N", "TC"), ("W", "7C")]
    else:  # N's card came after W's: W led, so W won the trick before (QD); N plays last
        assert kinds(events)[0] == "correction" and plays(events) == [("W", "7C")]


def test_a_box_far_smaller_than_the_cards_played_is_not_a_play() -> None:
    tr = started("E")  # N leads, then W, S, E
    events, t = _one_by_one(tr, [("N", "7H"), ("W", "8H"), ("S", "9H"), ("E", "AH")])
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept; E won and leads
    assert len(plays(events)) == 4 and kinds(ev) == ["trick_gathered"]
    # A patch of the table's pattern before E, half a card's size, reads AC: not E's lead...
    x, y = SPOT["E"][0] + 65, SPOT["E"][1]
    patch = Detection("AC", 0.6, (x - 14, y - 22, x + 14, y + 22), (("AS", 0.15),))
    ev, t = run(tr, lambda t: [patch], t0=t, seconds=2.0)
    assert plays(ev) == []
    # ... while a whole card there is.
    ev, _ = run(tr, lambda t: [patch, det("7C", "E")], t0=t, seconds=1.0)
    assert plays(ev) == [("E", "7C")] and tr._zone(patch) == "E"


@pytest.mark.parametrize("where", ["C", "S"])
def test_a_box_far_smaller_than_the_first_cards_played_is_not_a_play_anywhere(where) -> None:
    # Seed 2089 deal 19: the fingers of a hand paused over the middle of the table, boxed at
    # 0.6 of a card and read AC for three frames, became S's play; every later play sat one
    # place on. Two cards played already give the cards' size.
    tr = started("E")  # N leads, then W, S, E
    events, t = _one_by_one(tr, [("N", "7H"), ("W", "8H")])
    x, y = SPOT[where]
    fingers = Detection("AC", 0.55, (x - 15, y - 14, x + 15, y + 14), (("AS", 0.11),))
    ev, t = run(tr, lambda t: [*_trick({"N": "7H", "W": "8H"})(t), fingers], t0=t, seconds=0.3)
    events += ev
    ev, t = run(tr, _trick({"N": "7H", "W": "8H"}), t0=t, seconds=1.0)
    events += ev
    ev, _ = run(tr, _trick({"N": "7H", "W": "8H", "S": "9H"}), t0=t, seconds=1.0)
    assert plays(events + ev) == [("N", "7H"), ("W", "8H"), ("S", "9H")]


def test_one_box_on_two_cards_among_the_first_plays_does_not_hide_the_next_ones() -> None:
    # N's card boxed twice its size (with a card beside it, say): of the first two cards played,
    # the smaller gives the size of the cards, not their mean, or every card after would be small.
    tr = started("E")  # N leads, then W, S, E
    x, y = SPOT["N"]
    wide = lambda t: [Detection("7H", 0.9, (x - 57, y - 88, x + 57, y + 88))]  # noqa: E731
    events, t = run(tr, wide, seconds=1.0)
    lying = lambda t: [*wide(t), *_trick({"W": "8H"})(t)]  # noqa: E731
    ev, t = run(tr, lying, t0=t, seconds=1.0)
    ev2, _ = run(tr, lambda t: [*lying(t), *_trick({"S": "9H"})(t)], t0=t, seconds=1.0)
    assert plays(events + ev + ev2) == [("N", "7H"), ("W", "8H"), ("S", "9H")]


def test_an_unread_card_left_lying_after_its_trick_went_is_not_the_next_lead() -> None:
    contract = {"taker": "N", "bid": 80, "trump": "S"}
    tr = started("E", contract)  # N leads, then W, S, E
    _logged(tr, [("N", "7D"), ("W", "8D"), ("S", "KD"), ("E", "AD")])  # E won: E, N, W, S
    # W's card is only ever read as 8D (a card played before): never a play of its own.
    w_misread = lambda t: [det("8D", "W", 0.7)]  # noqa: E731
    events, t = _one_by_one(tr, [("E", "7H"), ("N", "9H")])
    for shown in ({"E": "7H", "N": "9H"}, {"E": "7H", "N": "9H", "S": "AH"}):
        ev, t = run(tr, lambda t, shown=shown: [*_trick(shown)(t), *w_misread(t)], t0=t,
                    seconds=1.5)
        events += ev
    assert plays(events) == [("E", "7H"), ("N", "9H"), ("W", None), ("S", "AH")]
    # The three read cards are swept (the trick is gathered); W's card, gathered last, is
    # read at last (QS) while it lies there alone: W's unread card of that trick, not W's
    # lead of the next one.
    ev, t = run(tr, w_misread, t0=t, seconds=1.0)
    assert kinds(ev) == ["trick_gathered"] and tr.view.leaders() == {"W", "S"}
    ev, t = run(tr, lambda t: [det("QS", "W")], t0=t, seconds=1.5)
    assert ev == []
    ev2, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev3, _ = run(tr, _trick({"S": "7C"}), t0=t, seconds=1.0)  # S won with AH and leads
    assert plays(ev2 + ev3) == [("S", "7C")]
    # ... while a card W puts down after it is gone is W's lead.
    tr2 = started("E", contract)
    _logged(tr2, [("N", "7D"), ("W", "8D"), ("S", "KD"), ("E", "AD")])
    _logged(tr2, [("E", "7H"), ("N", "9H"), ("W", None), ("S", "AH")])
    ev, _ = run(tr2, _trick({"W": "QS"}), seconds=1.0)
    assert plays(ev) == [("W", "QS")]


def test_a_box_read_as_a_card_played_before_does_not_end_the_trick_lying_there() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    _logged(tr, [("N", "7D"), ("W", "8D"), ("S", "KD"), ("E", "AD")])  # E won: E, N, W, S
    cards = {"E": "7H", "N": "9H", "W": "TH", "S": "AH"}
    events, t = _one_by_one(tr, list(cards.items()))
    assert len(plays(events)) == 4
    # The trick lies there; beside it, something read as 8D (gathered in the first trick).
    ghost = det("8D", (560, 560), 0.8)
    ev, t = run(tr, lambda t: [*_trick(cards)(t), ghost], t0=t, seconds=2.0)
    assert ev == [] and tr.view.gathered == 1
    ev, _ = run(tr, lambda t: [ghost], t0=t, seconds=1.0)  # swept: gathered then, once
    assert kinds(ev) == ["trick_gathered"]


@pytest.mark.parametrize("other", [0.15, 0.4])
def test_a_box_read_mostly_as_a_card_played_before_needs_a_real_other_reading(
        other: float) -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    _logged(tr, [("N", "7D"), ("W", "QS"), ("S", "KD"), ("E", "AD")])  # W trumped: W leads
    # Where W plays, a box read QS (gathered in the first trick) with QC far behind: a patch of
    # the table's pattern, never W's lead; with QC a real contender, W's QC (in doubt).
    x, y = SPOT["W"]
    box = Detection("QS", 0.6, (x - 28.5, y - 44, x + 28.5, y + 44), (("QC", other),))
    ev, _ = run(tr, lambda t: [box], seconds=2.0)
    if other / (0.6 + other) < OTHER_SHARE:
        assert ev == []
    else:
        assert plays(ev) == [("W", "QC")] and ev[0]["data"]["uncertain"] is True


def test_a_card_of_the_trick_long_hidden_and_read_as_another_is_not_its_seats_next_lead() -> None:
    # Set D with a fine-tuned classifier, deal 8: the leader's QH, read KH, hidden under a hand
    # for a second while the next card landed, then read QH. It was held as the leader's next
    # card and, once the trick was complete and its leader had won it, recorded as the next
    # trick's lead: 25 plays shifted.
    tr = started("E", {"taker": "E", "bid": 90, "trump": "SA"})  # N leads
    lead = det("KH", "N", 0.6, [("QH", 0.3)])
    ev1, t = run(tr, lambda t: [lead], seconds=1.0)
    ev2, t = run(tr, _trick({"W": "7H"}), t0=t, seconds=1.2)  # a hand over N's card
    misread = det("QH", "N", 0.6, [("JH", 0.2)])
    rest: dict[str, str] = {}
    events = ev1 + ev2
    for seat, card in (("W", "7H"), ("S", "JH"), ("E", "8H")):
        rest[seat] = card
        shown = _trick(dict(rest))
        ev, t = run(tr, lambda t, shown=shown: [misread, *shown(t)], t0=t, seconds=1.0)
        events += ev
    ev, t = run(tr, lambda t: [misread, *_trick(rest)(t)], t0=t, seconds=2.0)
    events += ev
    assert plays(events) == [("N", "KH"), ("W", "7H"), ("S", "JH"), ("E", "8H")]
    assert "trick_gathered" not in kinds(events)


def test_a_box_left_by_the_sweep_before_a_seat_that_cannot_lead_is_not_the_next_lead() -> None:
    # Set A with a fine-tuned classifier, deal 13: as the trick was swept, a box on part of E's
    # card read 7S; E had not won the trick, yet it was recorded as the next lead (18 plays off).
    tr = started("E", {"taker": "E", "bid": 90, "trump": "SA"})  # N leads
    cards = {"N": "7H", "W": "8H", "S": "AH", "E": "9H"}  # S wins
    events, t = [], 0.0
    for seat in cards:
        shown = _trick({k: cards[k] for k in list(cards)[: list(cards).index(seat) + 1]})
        ev, t = run(tr, shown, t0=t, seconds=1.0)
        events += ev
    x, y = SPOT["E"]
    rest = _trick({k: v for k, v in cards.items() if k != "E"})
    sweep = lambda t: [*rest(t), det("7S", (x + 30, y), 0.8)]  # noqa: E731
    ev, t = run(tr, sweep, t0=t, seconds=0.6)  # E's card swept first, a part of it left
    events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)
    events += ev
    ev, t = run(tr, _trick({"S": "KC"}), t0=t, seconds=1.0)
    events += ev
    assert plays(events) == [*cards.items(), ("S", "KC")]
    assert kinds(events).count("trick_gathered") == 1


@pytest.mark.parametrize(("favour", "outranked", "plain"),
                         [(5.0, False, False), (2.0, False, False), (5.0, True, False),
                          (5.0, False, True)])
def test_an_unread_card_whose_picture_reads_a_card_misread_elsewhere_takes_it(
        favour, outranked, plain) -> None:
    from vision.detections import UNNAMED
    from vision.swaps import SWAP_FAVOUR

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC is read 9S (KC its second reading); W's 9S is only read too weakly to name, 9S
    # `favour` times as much as KC (`outranked`: and a card of the first trick more still, which
    # no renaming could give W: of the cards W's could be, 9S is still the most favoured).
    # (`plain`: N's card reads 9S seventeen times as often as KC, 0.85 / 0.05, so the odds of
    # both pictures together say N's card is 9S.) By the cards left, W's card is KC...
    early = ((tr.view.plays[0][1], 0.6),) if outranked else ()
    weak = det(UNNAMED, "W", 0.0, (*early, ("9S", 0.1 * favour), ("KC", 0.1)))
    n_card = det("9S", "N", 0.85, [("KC", 0.05)]) if plain else det("9S", "N", 0.6, [("KC", 0.3)])
    first = lambda t: [det("9H", "E"), n_card]  # noqa: E731
    events = _last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    # ... unless its picture clearly says otherwise (9S swapped in breaks no more rules here:
    # enough for the most favoured card, not for a lesser one)
    if favour < SWAP_FAVOUR or plain:
        assert fixes == [{"play": 30, "card": "KC", "before": None, "deduced": True}]
        return
    assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert _with_fixes(events, 28) == last and "deal_over" in kinds(events)


@pytest.mark.parametrize("favour", [2.5, 1.8, 0.8])
def test_a_weaker_picture_takes_a_card_misread_elsewhere_when_the_rules_side_with_it(
        favour) -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H is read 9S (9H its second reading); W's 9S is only read too weakly to name, 9S
    # `favour` times as often as 9H. By the cards left W's card is 9H, but E holding 9S and W
    # 9H breaks two rules earlier in the deal, the true way round none: 2.5 times as often is
    # enough then (the odds of E's picture, 0.3 / 0.6, times W's, 2.5, favour the swap); not
    # 1.8 (those odds favour E's reading), nor less than once.
    weak = det(UNNAMED, "W", 0.0, (("9S", 0.1 * favour), ("9H", 0.1)))
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.3)]), det("KC", "N")]  # noqa: E731
    events = _last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if favour < 2.0:
        assert [(f["play"], f["card"], f["before"]) for f in fixes] == [(30, "9H", None)]
        return
    assert fixes == [{"play": 28, "card": "9H", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert _with_fixes(events, 28) == last and "deal_over" in kinds(events)


@pytest.mark.parametrize("later", [0.8, 0.6])
def test_an_unread_card_takes_a_card_misread_elsewhere_when_both_pictures_favour_it(
        later) -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC reads 9S (KC 0.3) as it is recorded, then KC at `later` (9S 0.1) until the trick
    # is swept; W's 9S is read only weakly, 9S twice as often as KC. The rules break no more
    # either way round, and W's picture alone favours 9S only twice: the swap needs N's picture
    # too: its votes, KC 1.7 times 9S (read 0.8 later), make 3.4 times in all, enough; KC 1.4
    # times 9S (0.6), 2.7 times, not.
    weak = det(UNNAMED, "W", 0.0, (("9S", 0.2), ("KC", 0.1)))

    def first(t: float) -> list[Detection]:
        n_card = det("9S", "N", 0.6, [("KC", 0.3)]) if t < 1.5 else \
            det("KC", "N", later, [("9S", 0.1)])
        return [det("9H", "E"), n_card]

    events = _last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if later < 0.8:
        assert fixes == [{"play": 30, "card": "KC", "before": None, "deduced": True}]
        return
    assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert _with_fixes(events, 28) == last


def test_a_card_named_among_the_rules_ties_may_take_a_card_misread_elsewhere() -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC is read 9S; W's and S's cards are never read, W's only weakly: 9S four times as
    # much as KC. The rules leave W and S with KC and TC either way round; W's weak KC votes
    # pick W: KC, S: TC among those ties, yet W's picture said 9S, N's second reading KC.
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     (("9S", 0.4), ("KC", 0.1)))
    first = lambda t: [det("9H", "E"), det("9S", "N", 0.6, [("KC", 0.3)])]  # noqa: E731
    events = _last_trick_swept(tr, first, [weak])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes[0] == {"play": 29, "card": "KC", "before": "9S", "uncertain": True}
    assert [(f["play"], f["card"], f["uncertain"]) for f in fixes[1:]] == [
        (30, "9S", True), (31, "TC", True)]
    assert tr.view.plays[28:] == last and "deal_over" in kinds(events)


def test_two_unread_cards_read_as_two_misread_ones_take_them_when_the_rules_cannot_tell(
        ) -> None:
    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # Seed 2066 deal 7: E's 9H reads 9S and N's KC reads TC (their own cards a mere 9% of
    # their votes), then W's 9S and S's TC land, read plainly: being recorded already, they
    # are left unread. The cards left, 9H and KC, fit W and S either way round for the rules;
    # only one way lets each unread play take the card its picture reads, E and N getting
    # their second readings back.
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.06)]),  # noqa: E731
                       det("TC", "N", 0.6, [("KC", 0.06)])]
    events = _last_trick_swept(tr, first, [det("9S", "W", 0.9), det("TC", "S", 0.9)])
    assert plays(events) == [("E", "9S"), ("N", "TC"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert {(f["play"], f["card"], f["before"]) for f in fixes} == {
        (28, "9H", "9S"), (29, "KC", "TC"), (30, "9S", None), (31, "TC", None)}
    assert all(f["uncertain"] for f in fixes)  # (the referee checks them)
    assert _with_fixes(events, 28) == last and "deal_over" in kinds(events)


def test_of_two_cards_an_unread_play_reads_alike_the_one_the_whole_chain_favours_is_taken(
        ) -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # Seed 2073 deal 8: W's 9S is never read, its place weakly read KC a little more often than
    # 9S; E's 9H was recorded 9S (9H 0.3). Giving W KC means N's KC, read KC 0.89 and 9S 0.08,
    # was 9S and E's 9S 9H; giving W 9S, only that E's was 9H: ten times likelier.
    weak = det(UNNAMED, "W", 0.0, (("KC", 0.32), ("9S", 0.3)))
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.3)]),  # noqa: E731
                       det("KC", "N", 0.89, [("9S", 0.08)])]
    events = _last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", "TC")]
    assert _with_fixes(events, 28) == last


def test_a_few_weak_readings_of_a_card_recorded_elsewhere_do_not_stop_another_taking_it(
        ) -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # Seed 2067 deal 0: E's 9H reads 9S, W's 9S lands read plainly and is left unread; S's TC
    # is never read, its place only weakly, KC and QD now and then (3 votes: noise, not a
    # picture of N's KC, read surely). Of the rules' two ways, W: 9H or W: TC, the first lets
    # W take 9S.
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.06)]), det("KC", "N")]  # noqa: E731
    weak = det(UNNAMED, "S", 0.0, (("KC", 0.1), ("QD", 0.05)))
    events = _last_trick_swept(tr, first, [det("9S", "W", 0.9), weak])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert {(f["play"], f["card"], f["before"]) for f in fixes} == {
        (28, "9H", "9S"), (30, "9S", None), (31, "TC", None)}
    # S's weak readings are the referee's alternatives, as shares to 3 places.
    assert [f["alternatives"] for f in fixes if f["play"] == 31] == [[["KC", 0.667],
                                                                       ["QD", 0.333]]]
    assert _with_fixes(events, 28) == last


@pytest.mark.parametrize("second, swapped", [(0.4, True), (0.2, False)])
def test_two_cards_are_swapped_when_one_reads_nearly_as_the_other_and_the_rules_say_so(
        second, swapped) -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # As seed 2074 deal 12: E's 9H reads 9S (9H `second` of its votes); W's 9S is never read, so
    # the rules deduce 9H there. Read so, E and W each kept a card of a suit they failed to
    # follow earlier: two revokes the camera made up. Swapped, none: taken when E's reading
    # of 9H is near even, not when it is a stray one.
    first = lambda t: [det("9S", "E", 0.6, [("9H", second)]), det("KC", "N")]  # noqa: E731
    events = _last_trick_swept(tr, first, [det(UNNAMED, "W", 0.0, ()), det("TC", "S")])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes[0] == {"play": 30, "card": "9H", "before": None, "deduced": True}
    if swapped:
        assert fixes[1:] == [{"play": 28, "card": "9H", "before": "9S", "uncertain": True},
                             {"play": 30, "card": "9S", "before": "9H", "uncertain": True}]
        assert _with_fixes(events, 28) == last
    else:
        assert _with_fixes(events, 28) == [("E", "9S"), ("N", "KC"), ("W", "9H"), ("S", "TC")]


@pytest.mark.parametrize("clear", [0.9, 0.5])
def test_a_card_read_clearly_since_it_came_to_rest_is_not_held_by_its_landing(clear) -> None:
    tr = tracker(max_wait=0.6)  # (a doubtful name waits 0.6 s here, to tell the two apart)
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}})  # N leads
    x, y = SPOT["N"]
    # Slid in under a hand for a second, N's 9S reads 7S; at rest, 9S with `clear` confidence.
    sliding = lambda t: [det("7S", (x - 200 + 200 * t, y), 0.6, [("9S", 0.3)])]  # noqa: E731
    events, t = run(tr, sliding, seconds=1.0)
    rest = t
    ev, t = run(tr, lambda t: [det("9S", "N", clear, [("7S", 0.05)])], t0=t, seconds=1.5)
    events += ev
    assert plays(events) == [("N", "9S")]
    data = events[-1]["data"]
    if clear < 0.6:  # not clear now either: recorded in doubt once its votes favour what its
        # picture reads at rest (9S from the 7th frame), before steady_s + max_wait
        assert 0.55 <= data["t"] - rest <= 0.75 and data["uncertain"] is True
        return
    # (the votes of the whole track favour 9S by 0.6 only after 8 frames at rest)
    assert data["t"] - rest <= 0.5 and data["uncertain"] is False


@pytest.mark.parametrize("other", [0.15, 0.3, 0.45])
def test_of_two_readings_that_explain_a_lead_the_likelier_is_taken(other) -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # N's QD reads QH three frames in five (N won; as QD, S's KD won). S's KD also reads KS
    # (a trump: S won) with `other` of its votes.
    mixed = lambda t: det("QH" if round(t * 10) % 5 < 3 else "QD", "N")  # noqa: E731
    s_card = det("KD", "S", 1.0 - other, [("KS", other)])
    events, t = run(tr, lambda t: [mixed(t)], seconds=1.5)
    w_card, e_card = det("8D", "W"), det("9D", "E")
    for shown in ([w_card], [w_card, s_card], [w_card, s_card, e_card]):
        ev, t = run(tr, lambda t, shown=shown: [mixed(t), *shown], t0=t, seconds=0.8)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    events += ev
    assert tr.view.leaders() == {"N"}
    # S's card comes first (N and W would have played before it, unseen both): S led. Either
    # reading says so; the likelier is taken (QD has 0.4 of N's votes), for the seats' order
    # matters more than one card, which a later sighting may still correct.
    ev, t = run(tr, _trick({"S": "7C"}), t0=t, seconds=1.0)
    if other > 0.4:
        assert fixed(ev[0]) == {"play": 2, "card": "KS", "before": "KD"}
    else:
        assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert plays(ev) == [("S", "7C")]


def test_a_lesser_weak_reading_takes_a_misread_card_only_when_fewer_rules_break() -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H is read KC (9H its second reading); N's KC is only read weakly: most of all as a
    # card played in the first trick (no play to rename), then KC, four times 9H. By the cards
    # left N's card is 9H; E's KC then breaks three rules, 9H none: the swap is taken.
    early = tr.view.plays[0][1]
    x, y = SPOT["N"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     ((early, 0.5), ("KC", 0.4), ("9H", 0.1)))
    first = lambda t: [det("KC", "E", 0.6, [("9H", 0.3)])]  # noqa: E731
    events = _last_trick_swept(tr, first, [weak, det("9S", "W"), det("TC", "S")])
    assert plays(events) == [("E", "KC"), ("N", None), ("W", "9S"), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes == [{"play": 28, "card": "9H", "before": "KC", "uncertain": True},
                     {"play": 29, "card": "KC", "before": None, "deduced": True,
                      "uncertain": True}]
    assert _with_fixes(events, 28) == last and "deal_over" in kinds(events)


def test_a_card_of_the_trick_seen_only_as_an_unnamed_box_still_lies_there() -> None:
    # Set I (seed 2031), deal 13: N's 9D, read 8D under the hand that put it down, was then
    # boxed but not named for 1.2 s; a second box on it read TD. That box was taken for N's
    # next lead: W, S and E got unread plays and 16 plays shifted.
    from vision.detections import UNNAMED

    tr = _dealt_by_referee("E")  # N leads, then W
    x, y = SPOT["N"]
    box = (x - 28.5, y - 44, x + 28.5, y + 44)
    unnamed = Detection(UNNAMED, 0.0, box, (("9D", 0.4), ("TD", 0.3)))
    events, t = run(tr, lambda t: [det("8D", "N", 0.7, [("7D", 0.2)])], seconds=1.0)
    ev, t = run(tr, lambda t: [unnamed], t0=t, seconds=1.3)
    events += ev
    second = det("TD", (x + 2, y + 1), 0.55, [("9D", 0.24)])
    ev, t = run(tr, lambda t: [unnamed, second], t0=t, seconds=0.3)
    events += ev
    ev, t = run(tr, lambda t: [unnamed, second, det("JS", "W")], t0=t, seconds=1.5)
    events += ev
    assert plays(events) == [("N", "8D"), ("W", "JS")]
    assert "trick_gathered" not in kinds(events)


def test_a_box_among_a_complete_trick_still_lying_there_is_not_the_next_lead() -> None:
    # Set I (seed 2031), deal 17: while the four cards of the first trick lay there (one under
    # a hand), a box by the middle read TC for 0.4 s. It was recorded as the next lead by the
    # trick's winner, the trick gathered: 28 plays shifted.
    tr = started("E", {"taker": "N", "bid": 150, "trump": "TA"})  # N leads, then W, S, E
    cards = {"N": "9C", "W": "KC", "S": "QC", "E": "8C"}  # all trumps: N's 9C wins
    events, t = [], 0.0
    for seat in cards:
        shown = _trick({k: cards[k] for k in list(cards)[: list(cards).index(seat) + 1]})
        ev, t = run(tr, shown, t0=t, seconds=1.0)
        events += ev
    three = _trick({k: v for k, v in cards.items() if k != "E"})  # a hand over E's card
    ev, t = run(tr, lambda t: [*three(t), det("TC", "C", 0.83)], t0=t, seconds=0.4)
    events += ev
    ev, t = run(tr, _trick(cards), t0=t, seconds=2.0)
    events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # swept
    events += ev
    ev, t = run(tr, _trick({"N": "8S"}), t0=t, seconds=1.0)
    events += ev
    assert plays(events) == [*cards.items(), ("N", "8S")]
    assert kinds(events).count("trick_gathered") == 1


def _second_trick_with_w_unread(weak: tuple, first=(("N", "7D"), ("W", "8D"), ("S", "9D"),
                                                    ("E", "AD")),
                                late: str | Detection | None = None):
    """E won the first trick (logged; trumps spades); E leads the second, N follows, W's card
    is never read (only `weak`ly: its readings frame after frame), S's AC; (W's card read
    plainly as `late`, a card name or a detection, a second before) the sweep."""
    from vision.detections import UNNAMED

    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    _logged(tr, list(first))
    x, y = SPOT["W"]
    box = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44), weak)
    cards = [("E", "7C"), ("N", "8C"), ("S", "AC")]
    events, t = [], 0.0
    for k in range(len(cards)):
        lying = _trick(dict(cards[: k + 1]))
        ev, t = run(tr, lambda t, lying=lying, k=k: [*lying(t), *([box] if k else [])], t0=t,
                    seconds=LAST_WAIT + 1.0 if k == 2 else 0.6)
        events += ev
    if late is not None:
        seen = det(late, "W") if isinstance(late, str) else late
        ev, t = run(tr, lambda t: [*_trick(dict(cards))(t), seen], t0=t, seconds=1.0)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # swept
    return tr, events + ev, t


@pytest.mark.parametrize(("weak", "named"), [
    ((("9C", 0.4), ("TC", 0.05)), True),   # one card clearly favoured (8 votes in 9)
    ((("9C", 0.3), ("TC", 0.25)), False),  # two nearly alike: left unread
    ((("8D", 0.4), ("TC", 0.05)), False),  # a card played already (a misread there?)
])
def test_an_unread_card_read_weakly_is_named_in_doubt_while_its_trick_lies(weak, named) -> None:
    tr, events, _t = _second_trick_with_w_unread(weak)
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


def test_a_weak_reading_that_would_make_its_seat_a_revoker_is_not_named_early() -> None:
    # W did not follow clubs in the first trick: W holding TC would be a revoke. Read weakly
    # as TC, W's unread card stays unread (the deal's end judges it with the rest).
    first = (("N", "QC"), ("W", "8H"), ("S", "JC"), ("E", "KC"))  # E won, as before
    tr, events, _t = _second_trick_with_w_unread((("TC", 0.4), ("9H", 0.05)), first)
    assert [e for e in events if e["type"] == "correction"] == [] and tr.view.unread == [6]
    fit = tr.view.least_broken(6)
    assert fit is not None and "9H" in fit and "TC" not in fit


def test_readings_of_a_card_the_rules_rule_out_do_not_keep_another_from_being_named() -> None:
    # W did not follow clubs in the first trick; its unread card reads 9H 0.3, TC 0.25: 9H has
    # only 55% of the readings, but all those of the cards W may hold.
    first = (("N", "QC"), ("W", "8H"), ("S", "JC"), ("E", "KC"))
    tr, events, _t = _second_trick_with_w_unread((("9H", 0.3), ("TC", 0.25)), first)
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes == [{"play": 6, "card": "9H", "before": None, "uncertain": True,
                      "alternatives": []}] and tr.view.plays[6] == ("W", "9H")


def test_a_card_named_early_is_corrected_when_it_lands_elsewhere_clearly() -> None:
    tr, _events, t = _second_trick_with_w_unread((("9C", 0.4), ("KC", 0.2)))
    assert tr.view.plays[6] == ("W", "9C")
    # S leads the third trick: 9C, read surely. W's weak readings' next card was KC.
    ev, _ = run(tr, _trick({"S": "9C"}), t0=t, seconds=1.0)
    assert kinds(ev) == ["correction", "card_played"]
    assert fixed(ev[0]) == {"play": 6, "card": "KC", "before": "9C"}
    assert plays(ev) == [("S", "9C")] and tr.view.plays[6] == ("W", "KC")


def test_a_card_named_early_is_judged_again_at_the_deals_end() -> None:
    """A play of the seventh trick unread, read weakly as the card that is truly the unread
    last card of another seat: named so when its trick goes; at the deal's end the rules
    prove both cards the other way round, and the early name gives way."""
    import random

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
        lying = _trick(dict(trick))
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
    tr, events, _t = _second_trick_with_w_unread((("9C", 0.4), ("TC", 0.05)), late=late)
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
    _logged(tr, [("N", "7D"), ("W", "8D"), ("S", "9D"), ("E", "AD")])  # E won
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44), (("9C", 0.4),))
    lying = _trick({"E": "7C", "N": "8C", "S": "AC"})
    events, t = _one_by_one(tr, [("E", "7C"), ("N", "8C")])
    ev, t = run(tr, lambda t: [*lying(t), weak], t0=t, seconds=LAST_WAIT + 1.0)
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
    _logged(tr, [("N", "7D"), ("W", "8D"), ("S", "9D"), ("E", "AD")])  # E won: E, N, W, S
    x, y = SPOT["N"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     (("9C", 0.4), ("KC", 0.05)))
    events, t = run(tr, _trick({"E": "7C"}), seconds=0.6)
    lying = _trick({"E": "7C", "W": "8C"})
    ev, t = run(tr, lambda t: [*lying(t), weak], t0=t, seconds=LAST_WAIT + 1.0)
    events += ev
    assert tr.view.plays[4:] == [("E", "7C"), ("N", "9C"), ("W", "8C")]  # N named 9C, in doubt
    # S puts down the real 9C, read plainly: N's weak name gives way, S's card is S's play.
    lying = _trick({"E": "7C", "W": "8C", "S": "9C"})
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
    _logged(tr, [("N", "7D"), ("W", "7S"), ("S", "9D"), ("E", "AD")])  # W trumped: no diamonds
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


def test_an_unread_card_read_plainly_as_a_card_of_its_trick_at_another_seat_takes_it() -> None:
    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC reads 9S, fairly surely (KC its second reading); W's real 9S reads 9S less surely
    # than that (9H, E's card, its other reading), so N's reading stands and W's card stays
    # unread: by the cards left, KC. Yet W's picture read 9S plainly all along, and a deck
    # holds one 9S: N's was the misread.
    first = lambda t: [det("9H", "E"), det("9S", "N", 0.75, [("KC", 0.2)])]  # noqa: E731
    events = _last_trick_swept(tr, first, [det("9S", "W", 0.6, [("9H", 0.2)]), det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert _with_fixes(events, 28) == last


def test_an_unread_card_read_plainly_as_a_card_of_a_trick_gone_takes_it() -> None:
    tr, rest = _seven_tricks_logged(2, tricks=6)
    seventh, last = rest[:4], rest[4:]
    (a_seat, a_card), (b_seat, b_card) = seventh[1], last[2]
    # The seventh trick's second card reads as the last trick's third, fairly surely; that card,
    # when it comes, reads so less surely (the last trick's lead its other reading) and stays
    # unread: by the cards left, the misread one. Its picture read it plainly all along.
    first = [det(b_card, s, 0.75, [(a_card, 0.2)]) if s == a_seat else det(c, s)
             for s, c in seventh]
    then = [det(b_card, s, 0.6, [(last[0][1], 0.2)]) if s == b_seat else det(c, s)
            for s, c in last]
    events, t = [], 0.0
    for cards in (first, then):  # each card lands in turn, then the trick is swept
        for k in range(1, 5):
            ev, t = run(tr, lambda t, lying=cards[:k]: lying, t0=t, seconds=1.0)
            events += ev
        ev, t = run(tr, lambda t: [], t0=t, seconds=3.0)
        events += ev
    assert plays(events)[1] == (a_seat, b_card) and plays(events)[6] == (b_seat, None)
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 25, "card": a_card, "before": b_card, "uncertain": True},
        {"play": 30, "card": b_card, "before": None, "deduced": True, "uncertain": True}]
    assert _with_fixes(events, 24) == rest and "deal_over" in kinds(events)


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
    ev, _ = _one_by_one(tr, second, t=t, pace=1.0)
    assert plays(events + ev) == first + second


@pytest.mark.parametrize("glimpse", [False, True])
def test_a_possible_leader_read_only_weakly_before_another_lands_led(glimpse) -> None:
    from vision.detections import UNNAMED

    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # S's card was never read: it overtrumped W's KS or not, so W or S leads next.
    _logged(tr, [("N", "7S"), ("W", "KS"), ("S", None), ("E", "KH")])
    assert tr.view.leaders() == {"W", "S"}
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44), (("7D", 0.4), ("9D", 0.2)))
    # (`glimpse`: W's card lies there first, read too weakly to name), then S's, E's and N's
    # cards land, one a second.
    lying = [weak] if glimpse else []
    events, t = run(tr, lambda t: lying, seconds=1.0)
    for k, (seat, card) in enumerate([("S", "8D"), ("E", "9D"), ("N", "TD")]):
        lying = [*lying, det(card, seat)]
        ev, t = run(tr, lambda t, now=tuple(lying): list(now), t0=t, seconds=1.0)
        events += ev
        if k == 0 and not glimpse:  # S may lead: it does, at once
            assert plays(ev) == [("S", "8D")] and ev[0]["data"]["t"] <= t - 1.0 + 0.45
        if k == 0 and glimpse:  # W's place was not empty: W may have led, S's card waits
            assert plays(ev) == []
    if not glimpse:  # (and W's card never came: it played last, unread)
        assert plays(events) == [("S", "8D"), ("E", "9D"), ("N", "TD")]
        return
    assert plays(events) == [("W", None), ("S", "8D"), ("E", "9D"), ("N", "TD")]


@pytest.mark.parametrize("n_conf", [0.55, 0.9])
def test_a_card_read_surely_takes_its_name_from_a_play_recorded_in_doubt_at_the_deals_end(
        n_conf) -> None:
    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC reads 9S with no other reading, W's real 9S reads 9S surely: a deck holds one 9S,
    # so W's card stays unread and is deduced KC at the deal's end. Read in doubt (0.55), N's
    # is the misread and gives 9S up, though its picture never read KC; read surely, the
    # pictures cannot tell which is wrong, and the deduction stands.
    first = lambda t: [det("9H", "E"), det("9S", "N", n_conf)]  # noqa: E731
    events = _last_trick_swept(tr, first, [det("9S", "W", 0.9), det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if n_conf < 0.6:
        assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                         {"play": 30, "card": "9S", "before": None, "deduced": True,
                          "uncertain": True}]
        assert _with_fixes(events, 28) == last
    else:
        assert fixes == [{"play": 30, "card": "KC", "before": None, "deduced": True}]


def test_a_play_renamed_to_its_second_reading_gives_it_up_to_an_unread_play_read_as_it() -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H reads TC, 9S a quarter of its votes; W's 9S is read only weakly, as 9S; S's real
    # TC lands read surely, so E's is renamed 9S (its second reading: in doubt). At the deal's
    # end the rules leave 9H to W, whose readings all say 9S: E's play gives 9S up.
    first = lambda t: [det("TC", "E", 0.9, [("9S", 0.3)]), det("KC", "N")]  # noqa: E731
    weak = det(UNNAMED, "W", 0.0, [("9S", 0.4), ("9H", 0.05)])
    events = _last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "TC"), ("N", "KC"), ("W", None), ("S", "TC")]
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 28, "card": "9S", "before": "TC"},
        {"play": 28, "card": "9H", "before": "9S", "uncertain": True},
        {"play": 30, "card": "9S", "before": None, "deduced": True, "uncertain": True}]
    assert _with_fixes(events, 28) == last


def test_an_unread_play_takes_the_card_its_readings_favour_most_of_those_it_could_be() -> None:
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(1)
    assert last == [("S", "TD"), ("E", "QD"), ("N", "8D"), ("W", "7H")]
    # S's TD reads 8D in doubt (TD 45%); N's 8D is read only weakly, most often as E's QD (read
    # surely: no play could give it up), then as 8D, hardly as TD. The rules leave TD to N, and
    # both stories break no rule: of the cards N's could be, its readings favour 8D most.
    first = lambda t: [det("8D", "S", 0.55, [("TD", 0.45)]), det("QD", "E")]  # noqa: E731
    weak = det(UNNAMED, "N", 0.0, [("QD", 0.4), ("8D", 0.15), ("TD", 0.03)])
    events = _last_trick_swept(tr, first, [weak, det("7H", "W")])
    assert plays(events) == [("S", "8D"), ("E", "QD"), ("N", None), ("W", "7H")]
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 28, "card": "TD", "before": "8D", "uncertain": True},
        {"play": 30, "card": "8D", "before": None, "deduced": True, "uncertain": True}]


@pytest.mark.parametrize(("weak", "card"), [
    ((("9C", 0.45), ("TC", 0.2), ("KC", 0.15)), "9C"),
    ((("TC", 0.45), ("9C", 0.2), ("KC", 0.15)), "TC"),
])
def test_an_unread_card_read_in_doubt_at_last_is_named_with_its_weak_readings(weak, card) -> None:
    # W's card was read weakly 2.6 s, too evenly to be named early (9C 56% of the votes), then
    # plainly a second, in doubt, as TC: the weak readings were that card, and they favour 9C
    # over the 10 frames of TC at 0.55 (as they favour TC in the second case).
    late = det("TC", "W", 0.55, [("KC", 0.3)])
    tr, events, _t = _second_trick_with_w_unread(weak, late=late)
    assert plays(events) == [("E", "7C"), ("N", "8C"), ("W", None), ("S", "AC")]
    # Its other readings, weak ones and its own together, go with it (a revoke one of them
    # would clear is in doubt).
    other = "TC" if card == "9C" else "9C"
    fix, = [fixed(e) for e in events if e["type"] == "correction"]
    assert fix == {"play": 6, "card": card, "before": None, "alternatives": fix["alternatives"]}
    assert [c for c, _share in fix["alternatives"]] == [other, "KC"]
    assert 0.2 < fix["alternatives"][0][1] < 0.35
    assert tr.view.plays[6] == ("W", card)


@pytest.mark.parametrize(("later", "renamed"), [(0.7, True), (0.5, False)])
def test_a_card_recorded_surely_is_renamed_when_its_own_votes_come_to_say_another(
        later: float, renamed: bool) -> None:
    tr = started("E")  # N leads
    # Under the hand putting it down, N's 9C reads 8C surely (4 frames); once the hand is
    # gone, 9C (at `later`, 8C its second reading).
    under = det("8C", "N", 0.7, [("7C", 0.2)])
    bare = det("9C", "N", later, [("8C", 0.1)])
    events, _ = run(tr, lambda t: [under if t < 0.35 else bare], seconds=3.0)
    assert plays(events) == [("N", "8C")] and events[0]["data"]["t"] <= 0.35
    fixes = [e for e in events if e["type"] == "correction"]
    if not renamed:  # 9C under 60% of its votes: the name stands
        assert fixes == [] and tr.view.plays == [("N", "8C")]
        return
    # Judged again 1.5 s after it came to rest (9C 64% of its votes), in doubt: the referee
    # sees it was renamed.
    assert [fixed(e) for e in fixes] == [{"play": 0, "card": "9C", "before": "8C",
                                          "uncertain": True}]
    assert fixes[0]["data"]["t"] == pytest.approx(1.5)
    assert tr.view.plays == [("N", "9C")]


@pytest.mark.parametrize(("read", "renamed"), [(2.0, True), (0.3, False)])
def test_a_card_read_as_another_in_a_second_box_is_renamed_when_its_trick_is_gathered(
        read: float, renamed: bool) -> None:
    # Seed 2053 deal 13: under the hand, S's 9C read 8C in one box (4 frames); a second box
    # on it, a little aside, then read 9C for good, set aside as an echo, and the first box
    # went unread. Read 8C, W's KC won the trick and W seemed to lead the next.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "C"})  # N leads, then W, S, E
    first = [("N", "7C"), ("W", "KC")]
    events, t = _one_by_one(tr, first)
    x, y = SPOT["S"]
    under = det("8C", "S", 0.75, [("7C", 0.1)])
    second = det("9C", (x + 4, y + 6), 0.66, [("8C", 0.05)])
    lying = _trick(dict(first))
    ev, t = run(tr, lambda t: [*lying(t), under], t0=t, seconds=0.5)
    events += ev
    ev, t = run(tr, lambda t: [*lying(t), under, second], t0=t, seconds=0.1)
    events += ev
    ev, t = run(tr, lambda t: [*lying(t), second], t0=t, seconds=read)
    events += ev
    ev, t = run(tr, lying, t0=t, seconds=2.0 - read)  # (a shadow over it: neither box read)
    events += ev
    ev, t = run(tr, lambda t: [*lying(t), det("7H", "E")], t0=t, seconds=1.0)
    events += ev
    assert plays(events) == [*first, ("S", "8C"), ("E", "7H")]  # (not renamed 1.5 s after)
    ev, _ = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    assert kinds(ev)[-1] == "trick_gathered"
    fixes = [fixed(e) for e in ev if e["type"] == "correction"]
    if not renamed:  # the second box read 9C in 4 frames: under 60% of the votes, the name stands
        assert fixes == [] and tr.view.leaders() == {"W"}
        return
    # Both boxes' votes: 9C 0.66 in 21 frames, 8C 0.75 in 6. Renamed, in doubt, as the trick
    # is gathered: S won it.
    assert fixes == [{"play": 2, "card": "9C", "before": "8C", "uncertain": True}]
    assert tr.view.plays[2] == ("S", "9C") and tr.view.leaders() == {"S"}


def test_a_card_of_an_incomplete_trick_seen_only_as_an_unnamed_box_is_not_swept() -> None:
    from vision.detections import UNNAMED

    tr = started("W")  # S leads, then E, N, W
    # S's QH, read plainly 1 s, then only as a box read too weakly to name (a shadow on it);
    # E's card is never seen; N's TH lands at 2.5 s.
    weak = det(UNNAMED, "S", 0.0, (("QH", 0.45), ("KH", 0.35)))
    events, _ = run(tr, lambda t: [det("QH", "S") if t < 1.0 else weak,
                                   *([det("TH", "N")] if t >= 2.5 else [])], seconds=5.0)
    # The trick lies there still: N's card is its third (E's unread), not the next one's lead.
    assert "trick_gathered" not in kinds(events)
    assert tr.view.plays == [("S", "QH"), ("E", None), ("N", "TH")]


def test_the_next_lead_read_surely_is_no_other_reading_of_the_trick_before() -> None:
    # Seed 2056 deal 10: S's QC read QS in doubt, E's KC read KS (KC 21%). E's real KS, leading
    # the next trick, renamed E's play KC (seen twice); S then seemed to win, so E's lead was
    # held. Of the other readings that let E win, KS (E's own play, 79%) was taken back, so the
    # KS lying there was seen twice again; the QC (20%) is the one left.
    tr = started("W", {"taker": "W", "bid": 80, "trump": "D"})  # S leads, then E, N, W
    cards = [det("QS", "S", 0.55, [("QC", 0.2)]), det("KS", "E", 0.77, [("KC", 0.21)]),
             det("8C", "N"), det("7C", "W")]
    t = 0.0
    for k in range(4):
        _, t = run(tr, lambda t, k=k: cards[:k + 1], t0=t, seconds=0.8)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    assert tr.view.plays == [("S", "QS"), ("E", "KS"), ("N", "8C"), ("W", "7C")]
    _, t = run(tr, lambda t: [det("KS", "E", 0.99)], t0=t, seconds=1.0)
    _, t = run(tr, lambda t: [det("KS", "E", 0.99), det("AS", "N")], t0=t, seconds=1.0)
    assert tr.view.plays == [("S", "QC"), ("E", "KC"), ("N", "8C"), ("W", "7C"),
                             ("E", "KS"), ("N", "AS")]


@pytest.mark.parametrize("back", [0.4, 0.03])
def test_two_cards_of_the_trick_before_read_each_as_the_other_are_swapped_by_the_next_lead(
        back) -> None:
    # Seed 2080 deal 10: N's 8C read 9C (8C a fifth of its votes), W's 9C read 8C (9C `back`
    # of its votes), so N seemed to win the clubs trick. W leads the next one, S, E and N
    # following: read so, N's lead was never seen. The two readings swapped, W won.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    lying = [det("9C", "N", 0.8, alts=(("8C", 0.2),)),
             det("8C", "W", 0.9 * (1 - back), alts=(("9C", 0.9 * back),))]
    _, t = run(tr, lambda t: lying[:1], seconds=0.8)
    _, t = _one_by_one(tr, [("S", "7C"), ("E", "7D")], t=run(tr, lambda t: lying, t0=t,
                                                             seconds=0.8)[1])
    _, t = run(tr, lambda t: [*lying, *_trick({"S": "7C", "E": "7D"})(t)], t0=t)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.2)  # swept
    assert tr.view.plays[:2] == [("N", "9C"), ("W", "8C")] and tr.view.leaders() == {"N"}
    events, t = _one_by_one(tr, [("W", "KD"), ("S", "8D"), ("E", "9D"), ("N", "QD")], t=t,
                            pace=1.0)
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if back >= 0.05:
        assert fixes == [{"play": 0, "card": "8C", "before": "9C"},
                         {"play": 1, "card": "9C", "before": "8C"}]
        assert tr.view.plays[4:] == [("W", "KD"), ("S", "8D"), ("E", "9D"), ("N", "QD")]
    else:  # W's picture never read 9C: no reading says W won, N's lead shows last
        assert all(f["play"] >= 4 for f in fixes)
        assert tr.view.plays[4:] == [("N", "QD"), ("W", "KD"), ("S", "8D"), ("E", "9D")]


@pytest.mark.parametrize("share", [0.07, 0.03])
def test_a_faint_other_reading_of_the_trick_before_waits_for_the_missing_leader(share) -> None:
    # Set 2040 deal 2: N's 9D read 7D (9D 8% of its votes), so E seemed to win trick 0. N led
    # trick 1, W's card was glimpsed before S's landed but tracked anew after it, and E played
    # last, 5 s after N: E's card filled an unread lead, 4 plays shifted.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    misread = det("QH", "N", 0.9, alts=(("QD", 0.9 * share / (1 - share)),))
    _, t = _one_by_one(tr, [("W", "KD"), ("S", "8D"), ("E", "9D")], t=run(
        tr, lambda t: [misread], seconds=0.8)[1])
    _, t = run(tr, lambda t: [misread, *_trick({"W": "KD", "S": "8D", "E": "9D"})(t)], t0=t)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    assert tr.view.plays[0] == ("N", "QH") and tr.view.leaders() == {"N"}  # (as QD: W won)
    events, t = _one_by_one(tr, [("W", "7C")], t=t)
    ev, t = run(tr, lambda t: [det("7C", "W"), det("KC", "S", 0.5)], t0=t, seconds=0.2)
    events += ev  # S's card glimpsed, read KC, then under a hand while E's lands
    ev, t = run(tr, _trick({"W": "7C", "E": "9C"}), t0=t, seconds=1.0)
    events += ev
    lying = _trick({"W": "7C", "S": "8C", "E": "9C"})
    ev, t = run(tr, lying, t0=t, seconds=2.0)  # S's card read plainly: a new track
    events += ev
    ev, t = run(tr, _trick({"W": "7C", "S": "8C", "E": "9C", "N": "TC"}), t0=t, seconds=1.0)
    events += ev
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if share >= 0.05:  # nothing ever lay before N: the trick before may have had another winner
        assert fixes[0] == {"play": 0, "card": "QD", "before": "QH"}
        assert tr.view.plays[4:] == [("W", "7C"), ("S", "8C"), ("E", "9C"), ("N", "TC")]
    else:  # no reading says another seat won: N's lead was never seen, and shows last
        assert {"play": 4, "card": "TC", "before": None, "alternatives": []} in fixes
        assert all(f["play"] >= 4 for f in fixes)
        assert tr.view.plays[4:] == [("N", "TC"), ("W", "7C"), ("S", "8C"), ("E", "9C")]


@pytest.mark.parametrize("seconds", [2.0, 0.2])
def test_weak_readings_outweigh_a_deduction_that_explains_a_revoke_away(seconds: float) -> None:
    # Set 2041 deal 17: E's 9D and W's QH never read; the rules dealt them QH to E and 9D to W,
    # the one way in which E had not revoked earlier; E's place read 9D weakly, W's QH.
    from vision.detections import UNNAMED

    tr, last = _seven_tricks_logged(8)
    assert last == [("E", "QD"), ("N", "9H"), ("W", "9S"), ("S", "TC")]
    # Truly W put down TC and S 9S (W kept TC when clubs were led at play 27: a revoke). Both
    # are read too weakly to name, frame after frame, each as its own card.
    both = [det(UNNAMED, "W", 0.0, (("TC", 0.4), ("9S", 0.1))),
            det(UNNAMED, "S", 0.0, (("9S", 0.4), ("TC", 0.1)))]
    lying = _trick(dict(last[:2]))
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


def test_a_card_seen_twice_keeps_the_reading_by_which_the_next_trick_was_led() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # N's card reads JC three frames in five, JS the rest: recorded JC, W's AC won the trick
    # (as JS, a trump, N won it). W then leads the next trick, read clearly.
    mixed = lambda t: det("JC" if round(t * 10) % 5 < 3 else "JS", "N")  # noqa: E731
    events, t = run(tr, lambda t: [mixed(t)], seconds=1.5)
    lying: dict[str, str] = {}
    for seat, card in (("W", "AC"), ("S", "7C"), ("E", "8C")):
        lying[seat] = card
        ev, t = run(tr, lambda t: [mixed(t), *_trick(lying)(t)], t0=t, seconds=0.8)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    events += ev
    ev, t = _one_by_one(tr, [("W", "9H"), ("S", "TH"), ("E", "KH")], t=t)
    events += ev
    assert tr.view.plays[:5] == [("N", "JC"), ("W", "AC"), ("S", "7C"), ("E", "8C"), ("W", "9H")]
    # N's last card reads JC clearly: one of the two JC is misread, yet as JS N's first card
    # would have won the first trick, and W led the next: it stays JC (its true name waits for
    # the deal's end); N's card is an unread play once E leads the next trick.
    ev, t = run(tr, _trick({"W": "9H", "S": "TH", "E": "KH", "N": "JC"}), t0=t, seconds=1.5)
    ev2, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev3, _ = run(tr, _trick({"E": "7D"}), t0=t, seconds=1.0)
    events = ev + ev2 + ev3
    assert "correction" not in kinds(events) and plays(events)[0] == ("N", None)
    assert tr.view.plays[0] == ("N", "JC")


def test_a_card_read_once_is_not_taken_as_moved_while_a_box_still_lies_in_its_place() -> None:
    from vision.detections import UNNAMED

    tr = _dealt_by_referee("E")  # N leads, then W, S, E
    weak = det(UNNAMED, "N", 0.0, (("9D", 0.33), ("TD", 0.2), ("8D", 0.14)))
    # N's 9D is read only weakly: an unread play once W's 7D lands.
    events, t = run(tr, lambda t: [weak], seconds=1.0)
    ev, t = run(tr, lambda t: [weak, det("7D", "W")], t0=t, seconds=1.5)
    events += ev
    assert plays(events) == [("N", None), ("W", "7D")]
    # For three frames it reads TD (9D its second reading): the unread play is filled with TD.
    read = det("TD", "N", 0.6, [("9D", 0.15), ("7D", 0.12)])
    _, t = run(tr, lambda t: [read, det("7D", "W")], t0=t, seconds=0.3)
    _, t = run(tr, lambda t: [weak, det("7D", "W")], t0=t, seconds=1.0)
    assert tr.view.plays == [("N", "TD"), ("W", "7D")]
    # S's TD lands, read clearly, while N's box still lies where it lay: N's card has not moved
    # there, it was misread; it takes its second reading.
    ev, t = run(tr, lambda t: [weak, det("7D", "W"), det("TD", "S")], t0=t, seconds=2.5)
    assert fixed(ev[0]) == {"play": 0, "card": "9D", "before": "TD"}
    assert tr.view.plays == [("N", "9D"), ("W", "7D"), ("S", "TD")]


def test_a_weak_first_reading_of_the_next_lead_does_not_drag_a_swept_card_there() -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    events, t = _one_by_one(tr, [("N", "7S"), ("W", "QS"), ("S", "JC")])
    ev, t = run(tr, lambda t: [], t0=t, seconds=2.0)  # E's card never read; the trick swept
    events += ev
    # W leads its JS: its first frame, under the hand, reads JC (S's card, swept) weakly.
    lead = lambda t, t0=t: [det("JC" if t - t0 < 0.05 else "JS", "W",  # noqa: E731
                                0.52 if t - t0 < 0.05 else 0.9)]
    ev, t = run(tr, lead, t0=t, seconds=1.0)
    events += ev
    assert plays(events) == [("N", "7S"), ("W", "QS"), ("S", "JC"), ("E", None), ("W", "JS")]
    assert "trick_gathered" in kinds(events)


def test_a_card_read_clearly_once_the_hand_lets_go_renames_what_was_read_under_it() -> None:
    tr = started("E")
    # N's 7D is read AD for three frames under the hand, and recorded so; the hand lets go and
    # it slides 15 px (more than `settle`, yet mostly over its old box): 7D, clearly.
    x, y = SPOT["N"]
    events, t = run(tr, lambda t: [det("AD", "N", 0.71, [("AH", 0.3)])], seconds=0.4)
    ev, t = run(tr, lambda t: [det("7D", (x, y - 15), 0.95)], t0=t, seconds=2.5)
    events += ev
    assert plays(events) == [("N", "AD")]
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 0, "card": "7D", "before": "AD", "uncertain": True}]
    assert tr.view.plays == [("N", "7D")] and len(tr.tracks) == 1


def test_the_unread_cards_dealt_otherwise_need_every_play_named() -> None:
    """`dealt_otherwise` with an unread play the rules leave open (neither proven nor named):
    the rules broken cannot be counted (`engine.observe.audit` needs every card), so the rules'
    way stands (it raised AttributeError)."""
    from vision.deal_view import DealView
    from vision.swaps import dealt_otherwise

    view = DealView()
    view.apply({"type": "deal_started", "data": {"dealer": "E"}})
    view.apply({"type": "contract", "data": {"taker": "N", "bid": 80, "trump": "H"}})
    for seat, card in [("N", "7S"), ("W", None), ("S", None), ("E", None)]:
        view.apply({"type": "card_played", "data": {"seat": seat, "card": card}})
    hints = {1: {"9S": 5.0}, 2: {"8S": 5.0}}  # the weak readings favour the other way
    assert dealt_otherwise(view, [(1, "8S"), (2, "9S")], hints) is None


@pytest.mark.parametrize("other", [0.05, 0.19])
def test_a_card_read_as_one_lying_in_another_seats_place_at_once_is_another_card(
        other: float) -> None:
    tr = started("S", {"taker": "N", "bid": 80, "trump": "C"})  # E leads, then N, W, S
    led = det("QH", "E", 0.65, (("JH", 0.16),))
    ev, t = run(tr, lambda t: [led], seconds=1.5)
    assert plays(ev) == [("E", "QH")]
    # N's card, beside E's QH lying there, reads QH too: a deck holds one, so N's is another
    # card, its next reading (in doubt) when that is a real contender (seed 2085 deal 8).
    beside = det("QH", "N", 0.75, (("QD", other),))
    ev, _ = run(tr, lambda t: [led, beside], t0=t, seconds=2.0)
    if other >= BESIDE_SHARE:
        assert plays(ev) == [("N", "QD")] and ev[0]["data"]["uncertain"] is True
    else:
        assert plays(ev) == []


@pytest.mark.parametrize("share", [0.2, 0.07])
def test_a_lead_never_seen_one_seat_before_two_cards_needs_a_real_other_reading(share) -> None:
    # Seed 2098 deal 8: S's AH, leading, was never boxed while E's and N's cards, after it,
    # lay there; E's QC of the trick before, read JC 0.065, was renamed JC so that E had led.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    misread = det("QH", "N", 0.9, alts=(("QD", 0.9 * share / (1 - share)),))  # (QD: W won)
    _, t = _one_by_one(tr, [("W", "KD"), ("S", "8D"), ("E", "9D")], t=run(
        tr, lambda t: [misread], seconds=0.8)[1])
    _, t = run(tr, lambda t: [misread, *_trick({"W": "KD", "S": "8D", "E": "9D"})(t)], t0=t)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    assert tr.view.leaders() == {"N"}
    # W's card, then S's; nothing ever in N's place: N's lead unseen, or W won by QD.
    ev, t = _one_by_one(tr, [("W", "7C"), ("S", "8C")], t=t, pace=1.0)
    fixes = [fixed(e) for e in ev if e["type"] == "correction"]
    if share >= LONE_SHARE:
        assert fixes == [{"play": 0, "card": "QD", "before": "QH"}]
        assert tr.view.plays[4:] == [("W", "7C"), ("S", "8C")]
    else:  # a card the box model missed is likelier than a reading of 7%: N's lead awaited
        assert fixes == [] and tr.view.plays[0] == ("N", "QH")


def test_the_trick_before_is_questioned_again_once_a_card_seen_twice_corrects_it() -> None:
    # Seed 2097 deal 3: two cards of the trick before misread; one corrected by a card seen
    # twice, the other by the order of the next cards, which had been weighed before the first.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    s_card = det("KS", "S", 0.75, alts=(("KC", 0.25),))  # S's KC (then W's AC wins)
    e_card = det("JS", "E", 0.7, alts=(("8C", 0.3),))  # E's 8C: the JS trumps all
    _, t = _one_by_one(tr, [("N", "7C"), ("W", "AC")])
    _, t = run(tr, lambda t: [det("7C", "N"), det("AC", "W"), s_card], t0=t, seconds=0.8)
    _, t = run(tr, lambda t: [det("7C", "N"), det("AC", "W"), s_card, e_card], t0=t)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    assert tr.view.plays[2:] == [("S", "KS"), ("E", "JS")] and tr.view.leaders() == {"E"}
    # W leads (held: by the readings E won), then S puts the real JS down.
    ev, t = _one_by_one(tr, [("W", "9H"), ("S", "JS")], t=t, pace=1.0)
    fixes = [fixed(e) for e in ev if e["type"] == "correction"]
    assert fixes == [{"play": 3, "card": "8C", "before": "JS"},
                     {"play": 2, "card": "KC", "before": "KS"}]
    assert tr.view.plays[4:] == [("W", "9H"), ("S", "JS")]


def test_an_unread_lead_read_later_as_a_card_lying_elsewhere_takes_its_next_reading() -> None:
    tr = started("S", {"taker": "N", "bid": 80, "trump": "H"})  # E leads, then N, W, S
    _logged(tr, [("E", "AS"), ("N", "7S"), ("W", "8S"), ("S", "9S")])  # E won: E leads
    # Seed 2093 deal 2: E's 8C never read as it landed; N's 9C after it. Then E's card, read
    # 9C 0.77 / 8C 0.23 beside N's 9C lying there: E's unread play is its 8C.
    ev, t = run(tr, _trick({"N": "9C"}), seconds=1.5)
    assert plays(ev) == [("E", None), ("N", "9C")]
    e_card = det("9C", "E", 0.77, alts=(("8C", 0.23),))
    ev, _ = run(tr, lambda t: [det("9C", "N"), e_card], t0=t, seconds=1.0)
    assert [fixed(e) for e in ev] == [{"play": 4, "card": "8C", "before": None,
                                       "alternatives": [["9C", 0.77]]}]
    assert plays(ev) == [] and tr.view.plays[4:] == [("E", "8C"), ("N", "9C")]



def test_the_missing_leaders_card_coming_as_the_doubt_ends_still_corrects() -> None:
    # Seed 2086 deal 9: W's lead, faintly misread in the trick before (AC read AS 0.9), came
    # after the three other cards, just as the wait for it ended, and was recorded unread first.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    misread = det("QH", "N", 0.9, alts=(("QD", 0.9 * 0.07 / 0.93),))  # (QD: W won)
    _, t = _one_by_one(tr, [("W", "KD"), ("S", "8D"), ("E", "9D")], t=run(
        tr, lambda t: [misread], seconds=0.8)[1])
    _, t = run(tr, lambda t: [misread, *_trick({"W": "KD", "S": "8D", "E": "9D"})(t)], t0=t)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    events, t = _one_by_one(tr, [("W", "7C"), ("S", "8C"), ("E", "9C")], t=t, pace=1.0)
    lying = {"W": "7C", "S": "8C", "E": "9C"}
    ev, t = run(tr, _trick(lying), t0=t, seconds=DOUBT_WAIT - 1.05)
    events += ev
    # N's card lands as the wait ends (E's came DOUBT_WAIT before): not steady yet, coming
    ev, t = run(tr, _trick({**lying, "N": "TC"}), t0=t, seconds=1.0)
    events += ev
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 0, "card": "QD", "before": "QH"}]
    assert tr.view.plays[4:] == [("W", "7C"), ("S", "8C"), ("E", "9C"), ("N", "TC")]
