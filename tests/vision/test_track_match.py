"""Which track a sighting belongs to (`vision.track_match`, `vision.turn_order.moved_away`),
on hand-made frames."""

from __future__ import annotations

import pytest

from vision.card_track import CardTrack
from vision.detections import Detection
from vision.track_match import match_tracks
from vision.tracker import TrackerSettings
from vision.turn_order import moved_away


def box(x: float, y: float) -> tuple[float, float, float, float]:
    return (x - 28.5, y - 44, x + 28.5, y + 44)


def seen(card: str, zone: str, times: list[float], conf: float,
         where: tuple[float, float] = (400, 315)) -> CardTrack:
    """A card read at `times` where it lies."""
    tr = CardTrack(None, zone, times[0], times[0], anchor=where)
    for t in times:
        tr.see(t, Detection(card, conf, box(*where)), zone, TrackerSettings().settle)
    return tr


def played(card: str, where: tuple[float, float]) -> CardTrack:
    """A card read ten times where it lies, then recorded."""
    tr = seen(card, "N", [i / 10 for i in range(10)], 0.6, where)
    tr.state, tr.card = "played", card
    return tr


def test_a_played_card_keeps_its_own_box_before_a_nearer_one_read_otherwise() -> None:
    # Seed 2063 deal 18: a hand's edge over N's 9S gave one box a little aside; the next frame,
    # the 9S was read where it lies and a box read 7S (weakly) lay nearer that aside one.
    nine = played("9S", (400, 315))
    s = TrackerSettings()
    nine.see(1.0, Detection("9S", 0.6, box(397, 330)), "N", s.settle)
    edge = Detection("7S", 0.54, box(395, 333))
    own = Detection("9S", 0.58, box(400, 315))
    new = match_tracks([nine], [(edge, "N"), (own, "N")], 1.1, s, trick_full=False)
    assert nine.box == own.box and nine.last_seen == 1.1
    assert [tr.box for tr in new] == [edge.box]  # the edge is a track of its own


def test_otherwise_the_nearest_box_joins_the_track() -> None:
    nine = played("9S", (400, 315))
    s = TrackerSettings()
    near = Detection("8S", 0.5, box(402, 318))  # read otherwise, but right where it lies
    far = Detection("KD", 0.5, box(420, 340))
    new = match_tracks([nine], [(far, "N"), (near, "N")], 1.1, s, trick_full=False)
    assert nine.box == near.box
    assert [tr.box for tr in new] == [far.box]


@pytest.mark.parametrize("case", ["carried", "both seen at once", "read weakly there", "in sight"])
def test_a_card_read_surely_elsewhere_after_it_vanished_was_carried_on(case: str) -> None:
    # Seed 2064 deal 1: E's AC lay a moment at the felt's edge in S's place (on its way), then
    # in E's place, read surely: the first sighting is that card carried on, never S's play.
    s = TrackerSettings()
    edge = seen("AC", "S", [25.6, 25.7, 25.8, 25.9, 26.0, 26.3], 0.75)
    start = 26.0 if case == "both seen at once" else 26.4
    there = seen("AC", "E", [start, 26.5, 26.6], 0.45 if case == "read weakly there" else 0.97)
    now = 26.3 if case == "in sight" else 26.6
    assert moved_away(edge, [edge, there], now, s) == (case == "carried")
