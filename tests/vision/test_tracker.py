"""The table tracker on scripted detections: steadiness, flicker, hands, nudges, sweeps, turns,
the referee, a whole simulated deal. The other test_tracker_*.py files take one concept each."""

from __future__ import annotations

import random
import time

import pytest
from tracker_script import (
    FPS,
    PX,
    det,
    fixed,
    kinds,
    lying_at,
    plays,
    run,
    started,
    tracker,
)

from engine.cards import Seat
from vision.detections import Detection


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


def test_a_card_easing_to_rest_counts_as_still_from_when_it_stopped() -> None:
    # Read 7S under the hand that slides it, 8S once let go (a name in doubt waits), it stops
    # at 0.2 s and its jittering box crosses its first spot's bound only at 0.4 s: it has lain
    # still since 0.2 s, and is recorded steady_s (0.3 s) later, not 0.3 s after 0.4 s.
    tr = started()
    ys = {0.0: 512.0, 0.1: 504.0, 0.2: 500.0, 0.3: 499.0}

    def script(t: float):
        y = ys.get(round(t, 1), 498.5)
        return [det("7S" if t < 0.15 else "8S", (400, y))]

    events, _ = run(tr, script, seconds=1.5)
    assert plays(events) == [("S", "8S")]
    assert events[0]["data"]["t"] == pytest.approx(0.5)


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


def test_a_trick_gathered_in_one_sweep_and_the_next_one_follows() -> None:
    tr = started("E")
    order = {"N": "7H", "W": "8H", "S": "9H", "E": "AH"}
    events, t = [], 0.0
    for seat, _card in order.items():  # one card every 0.6 s, the earlier ones stay
        shown = dict(list(order.items())[: list(order).index(seat) + 1])
        ev, t = run(tr, lying_at(shown), t0=t, seconds=0.6)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.2)  # swept away together
    events += ev
    assert plays(events) == list(order.items())
    assert kinds(events)[-1] == "trick_gathered"
    ev, t = run(tr, lying_at({"E": "7C"}), t0=t, seconds=0.6)
    assert plays(ev) == [("E", "7C")]
    assert tr.view.gathered == 1 and len(tr.view.trick_plays) == 1


def test_next_lead_implies_the_trick_was_gathered_even_if_never_seen_empty() -> None:
    tr = started("E")
    cards = {"N": "7H", "W": "8H", "S": "9H", "E": "AH"}
    events, t = run(tr, lying_at(cards), seconds=0.8)
    assert sorted(plays(events)) == sorted(cards.items())
    ev, t = run(tr, lying_at({"E": "7C"}), t0=t, seconds=0.8)  # cards swapped between frames
    assert kinds(ev) == ["trick_gathered", "card_played"]


def test_a_trick_covered_for_long_is_not_played_again_when_uncovered() -> None:
    tr = started("E")
    cards = {"N": "7H", "W": "8H", "S": "9H", "E": "AH"}
    events, t = run(tr, lying_at(cards), seconds=0.8)
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # a forearm over everything
    ev2, t = run(tr, lying_at(cards), t0=t, seconds=1.5)
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
    # N's card reads TH while it lands, then KD for good, but under RENAME_SURE (so its last
    # sightings alone do not rename it, `_rename_early`); W plays the real TH before N's is
    # judged again from its own votes (`_recheck_sure`, 1.5 s after it came to rest).
    events, t = run(tr, lambda t: [det("TH", "N") if t < 0.4 else det("KD", "N", conf=0.7)],
                    seconds=1.2)
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
    _events, t = run(tr, lying_at(cards), seconds=0.8)
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
    ev2, _ = run(tr, lambda t: [det("TD", "C")], t0=t, seconds=0.6)
    assert kinds(ev) == ["trick_gathered"]
    assert plays(ev2) == [("S", "TD")]


@pytest.mark.parametrize("where", ["C", "S"])
@pytest.mark.parametrize("actor", [None, "referee"])
def test_turned_card_of_the_belote_prise_is_not_a_play(where: str, actor: str | None) -> None:
    tr = tracker("belote-501")
    tr.observe({"type": "deal_started", "data": {"dealer": "S"}, "actor": actor})
    # (there from the first frame, read under the bar of what lay there before the deal)
    events, t = run(tr, lambda t: [det("JS", where, 0.7)], seconds=0.8)
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
