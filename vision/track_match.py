"""Frame-to-frame association: each detection joins the card track it belongs to, or starts one.

A detection belongs to the nearest track within `match` card sizes, except where the table says
otherwise: a new name where a gathered or long-gone card lay is a new card, and so is any card where
a gathered one lay once that one has been gone a while, or where a card of a swept trick lay (a
deck holds one of each: a card read like one played before is for the tracker to settle,
`vision.seen_twice`); a confident new name
a little aside from a played card (and mostly off its box) is another card put down; a played
card seen far from its place (in its seat's place still) after it vanished there has been
nudged (or the tracker restarted), not duplicated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vision.card_track import ECHO_IOU, CardTrack, dist
from vision.detections import Detection, iou


def match_tracks(tracks: Sequence[CardTrack], seen: Sequence[tuple[Detection, str]], t: float,
                 s: Any, trick_full: bool) -> list[CardTrack]:
    """Feed each (detection, zone) of the frame at `t` to its track; returns the new tracks.

    `s` holds the tracker's settings; `trick_full` says the trick on the table has its 4 cards
    (while it is incomplete nobody lifts a card, so a new name on a played card is a misread).
    """
    # Cards of the trick seen a moment ago: it lies there still, so a card hidden a moment and
    # read again with its old name among its readings is that card, not the next lead.
    trick_seen = sum(1 for tr in tracks if tr.state == "played"
                     and t - tr.last_seen <= s.forget_s) >= 2
    # Every card of the trick (two or more) gone gather_s, none even under a box, and one place
    # at most read again now (two at once: a hand lifted off the trick): it was swept, and a
    # card read where one of them lay is a new one, whatever its name (a misread card of the
    # trick may share it: for the tracker to settle, `vision.seen_twice`).
    trick = [tr for tr in tracks if tr.state == "played" and tr.box is not None]
    trick_gone = len(trick) >= 2 and all(
        t - max(tr.last_seen, tr.present) >= s.gather_s for tr in trick) and sum(
        1 for tr in trick if any(_near(d, tr, s.match) for d, _z in seen)) < 2
    pairs = []
    for i, (d, _z) in enumerate(seen):
        for tr in tracks:
            if tr.box is None:
                continue
            if tr.state in ("gathered", "turned", "ignored") and (
                    d.card != tr.card or t - tr.last_seen >= s.gather_s):
                continue  # a new card landing where an old one lay (even one read alike)
            if tr.state == "played" and trick_gone:
                continue  # (swept)
            if tr.state in ("played", "candidate") and t - tr.last_seen >= s.gather_s \
                    and d.card != tr.readings()[0][0] and not (
                        tr.state == "played" and trick_seen and tr.card in dict(d.alternatives)):
                continue  # gone a while (gathered with its trick): a new card lies there
            apart = dist(d.center, tr.center)
            if tr.state == "played" and d.card != tr.card and d.card not in tr.votes \
                    and d.confidence >= s.sure_conf and (trick_full or (
                        apart > s.settle * tr.size and iou(d.box, tr.box) < ECHO_IOU)) \
                    and tr.card not in {c for c, _ in d.alternatives}:
                continue  # a confident new name a little aside: another card put down
            if _near(d, tr, s.match):
                # A played card read by its own name is that card, before a nearer box read
                # otherwise (a hand's edge beside it): seed 2063 deal 18, where the played 9S
                # followed such a box away and its own box became a new card.
                pairs.append((not (tr.state == "played" and d.card == tr.card), apart, i, tr))
    used_d: set[int] = set()
    used_t: set[int] = set()
    for _named, _dist, i, tr in sorted(pairs, key=lambda p: p[:2]):
        if i in used_d or id(tr) in used_t:
            continue
        used_d.add(i)
        used_t.add(id(tr))
        d, z = seen[i]
        tr.see(t, d, z, s.settle)
    new: list[CardTrack] = []
    for i, (d, z) in enumerate(seen):
        if i in used_d:
            continue
        moved = None if trick_gone else moved_play(tracks, d, z, t, s.steady_s, s.sure_conf)
        if moved is not None:  # a played card nudged out of reach, or back after a restart
            used_t.add(id(moved))
            moved.anchor = d.center
            moved.see(t, d, z, s.settle)
            continue
        tr = CardTrack(None, z, t, t, anchor=d.center, settled_since=t)
        tr.see(t, d, z, s.settle)
        new.append(tr)
    return new


def _near(d: Detection, tr: CardTrack, match: float) -> bool:
    """Whether `d` lies within `match` card sizes of `tr` (as `match_tracks` pairs them)."""
    size = max(d.box[2] - d.box[0], d.box[3] - d.box[1], 1.0)
    return dist(d.center, tr.center) <= match * max(size, tr.size)


def moved_play(tracks: Sequence[CardTrack], d: Detection, zone: str, t: float,
               steady_s: float, sure_conf: float) -> CardTrack | None:
    """The played card `d` names, if it has left its place (nothing seen there for `steady_s`,
    not even a box unnamed, `CardTrack.lies_under`): one misread frame elsewhere must not drag
    a card that is merely hidden for an instant, or read only weakly where it lies; nor one
    frame read less than surely (`sure_conf`): the next lead, under the hand that puts it down,
    read as a card swept with the trick before, is not that card moved there. (A card
    named only from weak readings was misnamed: it has not moved. Nor is any card lying
    before one seat moved before another's, `CardTrack.in_other_seat`: a card is put down in
    its player's place; seed 2116 deal 5, W's TC read 8C once under the hand, E's 8C having
    been seen only weakly a while.)"""
    if d.confidence < sure_conf:
        return None
    for tr in tracks:
        if tr.state == "played" and tr.card == d.card and t - tr.present >= steady_s \
                and not tr.hinted and not tr.in_other_seat(zone):
            return tr
    return None


def found_again(tr: CardTrack, lost: list[CardTrack], match: float) -> None:
    """A new track where a card of the same name was lost a moment ago (`lost`: under a hand
    for longer than forget_s) is that card: it keeps the time it was first seen, which says in
    what order the cards came (and leaves `lost`)."""
    top = tr.readings()[0][0]
    for old in lost:
        if old.zone == tr.zone and old.readings()[0][0] == top and old.box is not None \
                and dist(tr.center, old.center) <= match * old.size:
            tr.first_seen = old.first_seen
            lost.remove(old)
            return
