"""Boxes read too weakly to name, but alike frame after frame (`vision.weak_streaks`): a card
put down whose every box reads under the naming bar is seen all the same."""

from __future__ import annotations

from tracker_script import SPOT, dealt_by_referee, det, plays, run

from vision.detections import UNNAMED, Detection
from vision.weak_streaks import LONG_FRAMES, STREAK_FRAMES, WeakStreaks


def weak(readings, where: str = "N", shift: float = 0.0, box_conf: float | None = None
         ) -> Detection:
    x, y = SPOT[where]
    return Detection(UNNAMED, 0.0, (x - 28.5 + shift, y - 44, x + 28.5 + shift, y + 44),
                     tuple(readings), box_conf)


def feed(streaks: WeakStreaks, frames, played=frozenset(), eligible=lambda d: True):
    """Each frame's detections through `promote` at 10 frames/s; what each frame gave."""
    return [streaks.promote(k / 10, dets, set(played), eligible) for k, dets in enumerate(frames)]


def test_a_box_read_alike_three_frames_on_bare_felt_is_a_sighting_from_the_first():
    box = weak((("9D", 0.42), ("TD", 0.18)))
    out = feed(WeakStreaks(), [[], [box], [box], [box]])
    assert [o[1] for o in out[:STREAK_FRAMES]] == [[]] * STREAK_FRAMES  # not before the third
    (named,), (frames,) = out[-1]
    assert (named.card, named.confidence, named.alternatives) == ("9D", 0.42, (("TD", 0.18),))
    assert [when for when, _d in frames] == [0.1, 0.2, 0.3]
    assert all(d.card == "9D" for _t, d in frames)


def test_readings_that_change_name_or_place_make_no_sighting():
    a, b = weak((("9D", 0.42), ("TD", 0.18))), weak((("TD", 0.42), ("9D", 0.18)))
    far = weak((("9D", 0.42), ("TD", 0.18)), shift=40.0)  # (IoU under 0.5 with the others)
    for frames in ([[], [a], [b], [a], [b]], [[], [a], [far], [a], [far]], [[], [a], [], [a]]):
        assert all(promoted == [] for _out, promoted in feed(WeakStreaks(), frames))


def test_a_reading_not_clearly_ahead_or_too_weak_makes_no_sighting():
    close = weak((("9D", 0.40), ("TD", 0.30)))  # (under 1.6 times the next)
    faint = weak((("9D", 0.30),))
    for box in (close, faint):
        assert all(p == [] for _o, p in feed(WeakStreaks(), [[], [box], [box], [box], [box]]))


def test_a_box_the_box_model_is_sure_of_read_first_alike_a_while_is_a_sighting_from_the_first(
        ) -> None:
    # Seed 2209 deal 2: W's QH, boxed at 0.81, read QH 0.35-0.43 / KH 0.22-0.30 for 1.6 s
    # (never 1.6 times ahead three frames in a row) was first seen 1.88 s after it settled.
    sure = weak((("QH", 0.40), ("KH", 0.30)), box_conf=0.81)
    out = feed(WeakStreaks(), [[]] + [[sure]] * LONG_FRAMES)
    assert all(p == [] for _o, p in out[:LONG_FRAMES])
    (named,), (frames,) = out[-1]
    assert named.card == "QH" and [when for when, _d in frames] == [
        k / 10 for k in range(1, LONG_FRAMES + 1)]
    # Not a box the box model guesses at, nor a reading under 1.25 times the next.
    for box in (weak((("QH", 0.40), ("KH", 0.30)), box_conf=0.4),
                weak((("QH", 0.40), ("KH", 0.34)), box_conf=0.81)):
        assert all(p == [] for _o, p in feed(WeakStreaks(), [[]] + [[box]] * 10))


def test_a_place_read_weakly_since_the_start_is_a_mark_of_the_felt_not_a_card():
    box = weak((("KS", 0.4),))
    assert all(p == [] for _o, p in feed(WeakStreaks(), [[box]] * 30))


def test_no_sighting_of_a_card_played_named_plainly_elsewhere_or_not_eligible():
    box = weak((("9D", 0.42), ("TD", 0.18)))
    plain = det("9D", "S")
    assert all(p == [] for _o, p in feed(WeakStreaks(), [[], [box], [box], [box]], {"9D"}))
    assert all(p == [] for _o, p in feed(WeakStreaks(), [[plain], [box, plain], [box, plain],
                                                         [box, plain]]))
    assert all(p == [] for _o, p in feed(WeakStreaks(), [[], [box], [box], [box]],
                                         eligible=lambda d: False))


def test_readings_of_cards_played_are_no_rivals_and_name_nothing():
    # Seed 2142 (session 41): a 9D read 9D 0.37 / TD 0.29 frame after frame, the TD played,
    # and a QH of gnome-bellot read KH 0.43 / QH 0.33, the KH played: each waited for a plain
    # reading, or the deal's end.
    close = weak((("9D", 0.38), ("TD", 0.30), ("8D", 0.05)))
    frames = [[], [close], [close], [close]]
    assert all(p == [] for _o, p in feed(WeakStreaks(), frames))
    (named,), _ = feed(WeakStreaks(), frames, {"TD"})[-1]
    assert (named.card, named.confidence, named.alternatives) == ("9D", 0.38, (("8D", 0.05),))
    king_read = weak((("KH", 0.43), ("QH", 0.36), ("JH", 0.06)))
    frames = [[], [king_read], [king_read], [king_read]]
    (named,), _ = feed(WeakStreaks(), frames, {"KH"})[-1]
    assert (named.card, named.confidence) == ("QH", 0.36)
    (kept,), promoted = feed(WeakStreaks(), frames, {"KH", "QH"})[-1]
    assert promoted == [] and kept is king_read  # (JH 0.06: too weak)


def test_a_card_read_only_weakly_is_recorded_in_doubt_as_soon_as_it_is_steady():
    # Seed 2140 deal 13: W's 9D read 9D 0.45 / TD 0.14 in every frame for 1.8 s, never 0.5;
    # it was recorded 2.1 s after it came to rest, once one frame read it plainly.
    tr = dealt_by_referee("E")  # N leads
    box = weak((("9D", 0.45), ("TD", 0.15)))
    events, _ = run(tr, lambda t: [box] if t >= 0.2 else [], seconds=2.0)
    ((_kind, play),) = [(e["type"], e["data"]) for e in events]
    assert (play["seat"], play["card"], play["uncertain"]) == ("N", "9D", True)
    assert play["seen"] == 0.2  # from the streak's first frame
    assert play["t"] <= 0.2 + tr.settings.steady_s + 0.1 + 1e-6


def test_a_hand_read_weakly_as_a_card_for_two_frames_is_no_play():
    tr = dealt_by_referee("E")
    box = weak((("9D", 0.45), ("TD", 0.15)))
    events, _ = run(tr, lambda t: [box] if 0.2 <= t < 0.4 else [], seconds=2.0)
    assert plays(events) == []


def test_a_place_boxed_as_no_card_then_read_weakly_alike_is_no_card_put_down() -> None:
    # Seed 2193 deal 0: a score pad, boxed all deal long and read as no card (passed on unnamed
    # with no readings), then read 7C 0.40 / 8C 0.24 as the box model grew sure of it: the
    # felt never showed bare there, so no card was put down. Unboxed before, it would have been.
    pad = weak(())
    read = weak((("7C", 0.40), ("8C", 0.24)))
    frames = [[pad]] * 25 + [[read]] * 5
    assert all(p == [] for _o, p in feed(WeakStreaks(), frames))
    assert any(p for _o, p in feed(WeakStreaks(), [[]] * 25 + [[read]] * 5))


def test_a_streak_a_second_box_names_plainly_hands_back_its_frames_that_box_last() -> None:
    # Seed 2204 deal 3: W's JC, boxed at 0.82 and read JC 0.40-0.44 / JS 0.22-0.28 three
    # frames, was named JC 0.5 on the third by a second box on it (found on the felt's
    # picture): its track began there, 0.3 s after the card lay, and it was recorded 0.59 s
    # after it settled.
    box = weak((("JC", 0.42), ("JS", 0.22)))
    twin = det("JC", (SPOT["N"][0] + 4, SPOT["N"][1] + 3), 0.5)
    elsewhere = det("JC", "S", 0.5)
    (out, (frames,)) = feed(WeakStreaks(), [[], [box], [box], [box, twin]])[-1]
    assert out == [box, twin]  # (no second sighting of the card: the named box stands)
    assert [when for when, _d in frames] == [0.1, 0.2, 0.3] and frames[-1][1] is twin
    assert all(p == [] for _o, p in feed(WeakStreaks(), [[], [box], [box], [box, elsewhere]]))


def test_a_card_read_weakly_then_named_by_a_second_box_on_it_is_seen_from_the_first_frame(
        ) -> None:
    tr = dealt_by_referee("E")  # N leads
    box = weak((("9D", 0.45), ("TD", 0.15)))
    twin = det("9D", (SPOT["N"][0] + 4, SPOT["N"][1] + 3), 0.55, (("TD", 0.2),))
    events, _ = run(tr, lambda t: [] if t < 0.2 else [box] if t < 0.4 else [box, twin],
                    seconds=2.0)
    ((_kind, play),) = [(e["type"], e["data"]) for e in events]
    assert (play["seat"], play["card"]) == ("N", "9D")
    assert play["seen"] == 0.2  # from the streak's first frame, not the second box's
    assert play["t"] <= 0.2 + tr.settings.steady_s + 0.1 + 1e-6
