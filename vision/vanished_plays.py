"""A play recorded from something that was no card: its box vanished while its trick still lay
there, and beside it, in the same seat's place, a card has lain since, read plainly and surely,
never recorded (held for that seat's next turn). Part of the table tracker
(`vision.tracker.TableTracker` mixes it in).

Nobody lifts a card of the trick on the table, so a play whose box is gone a while was never a
card put down (a patch of the felt under a hand, a card in a hand lying still a moment); the card
lying in that seat's place since, still and read surely, is the one the seat put down. Seed
2217 deal 8 at 2304x1296: a patch of a marble felt beside W's 7D, under W's arm, boxed faintly
and read TC 0.55-0.65 for three frames, was recorded as W's lead, in doubt; the 7D, read
0.92-0.99 from the next frame on, was held for W's next turn, and recorded as W's lead of the
next trick when the TC "won" this one: every later play of the deal was one place off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from vision.card_track import ECHO_IOU, CardTrack, track_of
from vision.deal_view import DealView
from vision.detections import Detection, iou
from vision.geometry import SEATS

Event = dict[str, Any]
# The play unseen this long (not even a box unnamed on it), the card beside it seen this long.
VANISHED_S = 1.0
# Their boxes overlap less than this (IoU): two things, not one card boxed twice.
APART_IOU = 0.1


class VanishedPlays:
    """The tracker's replacing of a vanished play (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    settings: Any
    # play of the trick on the table: when a box, named or not, last lay on it (`present` is
    # kept only while the trick is incomplete; a play read too weakly to name is still there)
    _boxed: dict[CardTrack, float]

    if TYPE_CHECKING:  # provided by TableTracker and Recording
        def _emit(self, out: list[Event], kind: str, data: Mapping[str, Any], **extra: Any) -> None:
            ...

        def _steady(self, tr: CardTrack, t: float) -> bool:
            ...

        def _set_aside(self, tr: CardTrack, t: float) -> None:
            ...

    def _replace_vanished(self, t: float, detections: Sequence[Detection],
                          out: list[Event]) -> None:
        """Each play of the trick on the table recorded in doubt whose box is gone VANISHED_S
        (no box of `detections`, named or not, on it) while a card of the same seat, lying
        apart from it since after it came, is seen this frame, steady and read surely
        VANISHED_S, takes that card's name (a correction, not in doubt) and that card becomes
        the play; the vanished box's place is an object from now on (`_set_aside`)."""
        view = self.view
        for tr in self.tracks:
            if tr.state == "played" and tr.box is not None \
                    and any(iou(d.box, tr.box) >= ECHO_IOU for d in detections):
                self._boxed[tr] = t
        for seat, card in view.trick_plays:
            play = track_of(self.tracks, card) if card is not None else None
            if play is None or play.state != "played" or not play.name_doubted or play.hinted \
                    or play.box is None or seat not in SEATS \
                    or t - max(play.last_seen, play.present, self._boxed.get(play, -1e9)) \
                    < VANISHED_S:
                continue
            lying = self._lying_beside(play, seat, t)
            if lying is None:
                continue
            index = view.play_of(card)
            name = lying.best()[0]
            if index is None or view.choose_again(lying.readings(), index) != name:
                continue
            self._emit(out, "correction", {"play": index, "card": name, "before": card,
                                           "uncertain": False})
            self._set_aside(play, t)
            lying.state, lying.card, lying.held = "played", name, False
            lying.recorded_box, lying.name_doubted = lying.box, False
            return  # (the view changed: the next frame looks again)

    def _lying_beside(self, play: CardTrack, seat: str, t: float) -> CardTrack | None:
        """The candidate in `seat`'s place, apart from `play`, seen this frame, steady and read
        surely VANISHED_S, that came after `play`, if one. (Not only before the next seat's
        card: a hand may hide the card it puts down a while; in the same deal, W's AH lay 2.4
        s under W's arm, the patch read TC 0.42 recorded in its stead, S's AS seen first.)"""
        s = self.settings
        for tr in self.tracks:
            if tr.state != "candidate" or tr.zone != seat or tr.box is None \
                    or tr.last_seen != t or t - tr.first_seen < VANISHED_S \
                    or tr.first_seen < play.first_seen:
                continue
            if iou(tr.box, play.box or tr.box) < APART_IOU and self._steady(tr, t) \
                    and tr.read_surely(s.sure_conf):
                return tr
        return None
