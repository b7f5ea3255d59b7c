"""Corrections of earlier readings that later frames prove wrong.

Besides a card's own votes judged again (`_recheck`; with those of a second box on it, an echo,
when its trick is gathered: `_weigh_echoes`; by an echo on the whole card when it was read from a
part: `_rename_by_whole_card`), two kinds, both decided here and written by the
tracker as `correction` events (actor camera):
- a card seen twice: a card clearly read landing was recorded earlier, so one of the two readings
  is wrong (`vision.seen_twice`: as it lands, once a play recorded as another card, its own
  taken, reads it surely, and when its trick is gathered);
- a trick the next one says was won by another seat: the first card of the new trick lies in
  front of a seat that cannot lead by the readings of the last trick, while a seat that could put
  its card down after it; the likeliest other reading of a card of the last trick (or two of its
  cards each read as the other, swapped) that makes the first seat the winner is taken
  (`vision.leads.trick_won_by`).
`ReadingFixes` is the part of the tracker that asks these questions and writes the corrections;
the naming of unread cards is `vision.unread_naming`'s, which reads the weak readings gathered
here (`_note_hints`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from vision.card_track import DOUBTED_SHARE, CardTrack, track_of, with_echoes
from vision.deal_view import DealView
from vision.detections import UNNAMED, Detection, iou
from vision.felt_marks import Box, FeltMarks
from vision.geometry import SEATS
from vision.leads import FAINT_SHARE, in_turn_from, seats_in_turn, trick_won_by
from vision.seen_twice import card_seen_twice, recorded_twice, seen_again
from vision.votes import by_share

Event = dict[str, Any]

# A card recorded surely is judged again once, RECHECK_S after it came to rest: read while a hand
# still lay on it, it may have been taken for another card, which its own votes since then say
# (the other card with RECHECK_SHARE of them at least; `ReadingFixes._recheck_sure`).
RECHECK_S = 1.5
RECHECK_SHARE = 0.6
# Before then, it is renamed at once when its last LATELY sightings since it came to rest all read
# one other card at RENAME_SURE or more (`_rename_early`). Chosen on the sightings that would have
# renamed a play so (session 58): at 2304x1296, 2 of 2 right (each 0.87 or more); at 640x480, 3
# right and 12 wrong, every one with a sighting under 0.77 (the small crops' misreads).
RENAME_SURE = 0.8
# A lead never seen while two cards after it were is put down to a misreading of the last trick
# only when that reading has this share of its card's votes (`_first_led`).
LONE_SHARE = 0.1


class ReadingFixes:
    """The tracker's corrections of what it recorded earlier (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    settings: Any
    _mend_tried: set[tuple[float, tuple[tuple[str, str | None], ...], float]]
    _hints: dict[tuple[int, str], dict[str, float]]
    _glimpsed: dict[str, float]
    _felt_marks: FeltMarks
    _now: float

    if TYPE_CHECKING:  # provided by TableTracker
        def _emit(self, out: list[Event], kind: str, data: Mapping[str, Any], **extra: Any) -> None:
            ...

        def _steady(self, tr: CardTrack, t: float) -> bool:
            ...

    def _recall_early(self, tr: CardTrack, out: list[Event]) -> None:
        """A steady card (perhaps held for its turn) reads clearly as a card recorded in a
        trick already gathered: the earlier play is corrected now, not when this one is
        recorded, for the correction may change who won that trick and so who leads now."""
        top, share = tr.best()
        if share >= 0.6 and top in self.view.played and not any(
                o.state == "played" and o.card == top for o in self.tracks):
            self._recall(tr, out)

    def _recall(self, tr: CardTrack, out: list[Event]) -> bool:
        """`tr` is clearly seen landing as a card recorded before: a deck holds one, so the
        earlier reading is corrected when its own votes tell what it was, better than `tr`'s
        own other reading (`card_seen_twice`; a name `tr` was recorded under counts as free).
        Whether it was."""
        card, share = tr.best()
        rival = max((v for _c, v in self.view.unplayed(tr.readings()[1:], but=tr.card)),
                    default=0.0)
        fixes = card_seen_twice(self.view, self.tracks, card, share, rival, but=tr.card)
        for fix in fixes:
            self._correct(fix, out)
        return bool(fixes)

    def _recall_recorded(self, tr: CardTrack, out: list[Event]) -> None:
        """A play recorded as another card, its own best reading taken (in doubt), whose last
        LATELY sightings since it came to rest all read that card at RENAME_SURE or more, is
        judged as if it landed now (`card_seen_twice`, with its readings now): the earlier
        play renamed, it takes its card, in doubt. Seed 2214 at 2304x1296, deal 2: S's 9D,
        read 8D 0.57 under the hand, was recorded so in doubt; N's 8D, read 8D 0.78 (not
        clearly enough more surely than S's then) and 0.93-0.98 from then on, was recorded
        9D in doubt; the two were swapped at the sweep, 6.4 s later (`recorded_twice`)."""
        if tr.state != "played" or tr.hinted or tr.card is None or tr.zone not in SEATS:
            return
        lately = tr.read_lately()
        if lately is None or lately[0] == tr.card or lately[1] < RENAME_SURE \
                or self.view.play_of(lately[0]) is None:
            return
        at = self.view.play_of(tr.card)  # (before the earlier play may be renamed its card)
        if self._recall(tr, out):  # (its card is free now, and read at 1.0 it takes it)
            card = tr.best()[0]
            self._rename_by_votes(
                tr, [(card, 1.0), *((c, v) for c, v in tr.readings() if c != card)], out, at)

    def _weigh_recorded_twice(self, out: list[Event]) -> None:
        """The trick on the table is being gathered (its cards' votes are final): each of its
        plays whose votes now favour a card recorded at another play is weighed against that
        play (`recorded_twice`)."""
        for tr in [o for o in self.tracks if o.state == "played" and not o.hinted]:
            for fix in recorded_twice(self.view, self.tracks, tr):
                self._correct(fix, out)

    def _mend_leader(self, t: float, out: list[Event]) -> None:
        """At a trick's start, the first card lying (held: its seat cannot lead) was put down
        before a card of a seat that can (nothing, not even a box read weakly, lay in that
        seat's place before): the last trick's readings, not the order of the seats, are then
        in doubt, and one other reading (or swap) that makes the first seat its winner is
        taken (`trick_won_by`). Tried once per first card, readings of the last trick and share
        needed: again when one of them is corrected since (seed 2097 deal 3: S's QC read QS
        trumped, E's KC read JS; only with both corrected had N, whose card came first, won),
        or when a card ruling a leader out more surely comes (`_first_led`)."""
        view = self.view
        leaders = view.leaders() if view.gathered and not view.trick_plays else None
        if leaders is None:
            return
        lying = [o for o in self.tracks if o.state == "candidate" and o.held and o.zone in SEATS
                 and not seen_again(view, self.tracks, o, self.settings.sure_conf)]
        if not lying:
            return
        first = min(lying, key=lambda o: o.first_seen)
        if first.zone in leaders:
            return
        least = self._first_led(first, leaders, lying, t)
        if least is None:
            return
        tried = (first.first_seen, tuple(view.plays[-4:]), least)
        if tried in self._mend_tried:
            return
        self._mend_tried.add(tried)
        sure = frozenset(o.readings()[0][0] for o in lying
                         if o.read_surely(self.settings.sure_conf))
        for fix in trick_won_by(view, self.tracks, first.zone, sure, least,
                                self.settings.sure_conf):
            self._correct(fix, out)

    def _first_led(self, first: CardTrack, leaders: set[str], lying: Sequence[CardTrack],
                   t: float) -> float | None:
        """Whether `first`'s seat led, not one of `leaders`, by what lay since the sweep: the
        least share of the votes another reading of the last trick needs to say so
        (`trick_won_by`), or None while a leader is not ruled out. FAINT_SHARE when the cards
        lying came in turn from `first` leaving two seats unread whoever led (`in_turn_from`),
        or when each leader is ruled out by a card of a seat due before `first` (the leader's
        or the next ones') put down after it (after anything lay in `first`'s place: its box
        may be read too weakly to track at first), nothing, not even a box read weakly, lying
        in that place before, or by two seats or more due before `first` with nothing lying in
        their places since the sweep. LONE_SHARE when a leader is ruled out only as the one
        seat due before `first`, nothing lying in its place at all since the sweep, while the
        next seat's card lies after `first`'s: a lead never seen while two cards after it were
        (the box model may miss a card: seed 2098 deal 8, S's AH never boxed, and a reading of
        0.065 was taken over it; seed 2086 deal 9, W's lead came after three cards, 0.099).
        A leader that is the one seat due before `first`, nothing ever in its place since the
        sweep, is ruled out at once when `first` is read surely and the leader's own card of
        the last trick was named in doubt (`_won_in_doubt`)."""
        view = self.view
        if in_turn_from(view, lying, first.zone, leaders):
            return FAINT_SHARE
        # (seed 2140 deal 19 read by session 42's box model: W's lead boxed unnamed 1.9 s
        # before it was tracked, S's card glimpsed between the two)
        here = min(first.first_seen, self._glimpsed.get(first.zone, first.first_seen))
        came_after = {o.zone for o in self.tracks
                      if o.state == "candidate" and (o.held or self._steady(o, t))
                      and min(o.first_seen, self._glimpsed.get(o.zone, o.first_seen)) > here}
        seats = seats_in_turn(view, lying)
        followed = seats is not None and len(seats) >= 2 and seats[0] == first.zone
        least = FAINT_SHARE
        for leader in leaders:
            order = view.order_from(leader)
            before = order[:order.index(first.zone)]
            if came_after & set(before) or (len(before) >= 2 and not any(
                    self._glimpsed.get(seat, first.first_seen) < first.first_seen
                    for seat in before)):
                continue
            if before == [leader] and leader not in self._glimpsed \
                    and first.read_surely(self.settings.sure_conf) and self._won_in_doubt(leader):
                continue  # (its winning card was named in doubt: the readings are suspect)
            if not (before and followed and not any(seat in self._glimpsed for seat in before)):
                return None
            least = LONE_SHARE
        return least

    def _won_in_doubt(self, seat: str) -> bool:
        """Whether `seat`'s card in the last trick gathered was named in doubt (read under
        sure_conf or under DOUBTED_SHARE of its votes, `name_doubted`): the next seat's card
        read surely, lying first with nothing ever in `seat`'s place, says another card won
        (seed 2197 deal 19 at 640x480: E's KC, read JS 0.55 in doubt, won by trumping; N's AD
        lead was held 2.0 s, until W's card came after it)."""
        start = 4 * self.view.gathered
        for seat_at, card in self.view.plays[start - 4:start]:
            if seat_at == seat and card is not None:
                track = track_of(self.tracks, card)
                return track is not None and track.name_doubted
        return False

    def _correct(self, fix: tuple[int, str, CardTrack] | None, out: list[Event]) -> None:
        if fix is None:
            return
        index, card, track = fix
        self._emit(out, "correction", {"play": index, "card": card, "before": track.card})
        track.card = card
        # (named now from a lesser reading: in doubt, as if recorded so; `given_up`)
        track.name_doubted |= dict(track.readings()).get(card, 0.0) < DOUBTED_SHARE

    def _recheck(self, t: float, out: list[Event]) -> None:
        """A card recorded in doubt without waiting (`_should_wait`) is judged again from the
        votes it has gathered by the time it would have been recorded after waiting
        (`max_wait`): renamed if they now favour another card, or cleared of doubt if they
        now read it clearly (as it would have been recorded then). A card recorded surely is
        judged again later (`_recheck_sure`)."""
        s = self.settings
        for tr in self.tracks:
            self._recall_recorded(tr, out)
            if tr.doubt_settled is None:
                self._recheck_sure(tr, t, out)
                continue
            # (the very frame `_should_wait` would have let it be recorded)
            if tr.rechecked or t - tr.doubt_settled - s.steady_s < s.max_wait:
                continue
            tr.rechecked = True
            index = self.view.play_of(tr.card)
            if tr.state != "played" or tr.hinted or index is None:
                continue
            card = self.view.choose_again(tr.readings(), index)
            if card is not None and card != tr.card:
                self._emit(out, "correction", {"play": index, "card": card, "before": tr.card})
                tr.card = card
            elif card == tr.card and tr.zone in SEATS and tr.best()[0] == card \
                    and tr.read_surely(s.sure_conf):
                # (its own best reading, clear and sure, where its seat put it down)
                self._emit(out, "correction", {"play": index, "card": card, "before": card,
                                               "uncertain": False})

    def _recheck_sure(self, tr: CardTrack, t: float, out: list[Event]) -> None:
        """A card recorded without waiting for its name whose own votes, RECHECK_S after it
        came to rest, favour another card not played (RECHECK_SHARE of them) is renamed, in
        doubt. With its name in doubt, the votes of the second boxes on it count too, as they
        do when the trick is gathered (`_weigh_echoes`; seed 2171 deal 4: W's TC, read 8C 0.58
        under the hand for three frames and recorded so in doubt, then TC 0.95 in a second box
        every frame, was renamed only at the sweep, 8.5 s after it settled)."""
        if tr.rechecked or tr.state != "played" or tr.hinted or tr.zone not in SEATS:
            return
        if t - tr.settled_since < RECHECK_S:
            self._rename_early(tr, out)
            return
        tr.rechecked = True
        if tr.name_doubted and tr.echoes:
            self._rename_by_votes(tr, with_echoes(tr), out)
        else:  # (as its name was chosen, were it an unread play's)
            self._rename_by_votes(tr, self._with_hints(tr), out)

    def _rename_early(self, tr: CardTrack, out: list[Event]) -> None:
        """Before RECHECK_S: a card whose last LATELY sightings since it came to rest all read
        one other card, each at RENAME_SURE or more, is renamed at once, in doubt, once (seed
        2180 at 2304x1296, deal 1: E's 8H read 9H 0.61-0.91 under the hand and recorded so,
        then 8H 0.87-0.90 every frame, was renamed only 1.2 s later)."""
        lately = tr.read_lately()
        if tr.renamed_early or lately is None or lately[0] == tr.card or lately[1] < RENAME_SURE:
            return
        top, card = lately[0], tr.card
        self._rename_by_votes(tr, [(top, 1.0), *((c, v) for c, v in tr.readings() if c != top)],
                              out)
        tr.renamed_early = tr.card != card

    def _rename_by_whole_card(self, out: list[Event]) -> None:
        """A play in doubt recorded from a box on part of its card (a hand over the rest), whose
        echo boxes the whole card (`CardTrack.echo_of`), is judged by that echo's own votes once
        its last LATELY sightings read one other card: the whole card reads better than a part
        (seed 2183 at 640x480 deal 1: S's QH, recorded KH from its left part, was shown KH 11.1 s,
        renamed QH only at the sweep by all the votes together). At most once per play."""
        for tr in self.tracks:
            if tr.state != "played" or not tr.echoes or not tr.name_doubted or tr.hinted \
                    or tr.renamed_whole or tr.zone not in SEATS:
                continue
            for echo in tr.echoes:
                lately = echo.read_lately()
                if lately is None or lately[0] == tr.card or not echo.shows_whole_of(tr):
                    continue
                card = tr.card
                self._rename_by_votes(tr, echo.readings(), out)
                tr.renamed_whole = tr.card != card
                break

    def _weigh_echoes(self, out: list[Event]) -> None:
        """The trick on the table is being gathered: each of its plays whose votes, with those
        of the second boxes on it (`with_echoes`), favour another card not played
        (RECHECK_SHARE of them) is renamed, in doubt."""
        for tr in [o for o in self.tracks if o.state == "played" and o.echoes
                   and not o.hinted and o.zone in SEATS]:
            self._rename_by_votes(tr, with_echoes(tr), out)

    def _rename_by_votes(self, tr: CardTrack, readings: list[tuple[str, float]],
                         out: list[Event], index: int | None = None) -> None:
        top, share = readings[0]
        index = self.view.play_of(tr.card) if index is None else index
        if top == tr.card or share < RECHECK_SHARE or index is None \
                or self.view.choose_again(readings, index) != top:
            return
        before, tr.card = tr.card, top
        self._emit(out, "correction", {"play": index, "card": top, "before": before,
                                       "uncertain": True})
        self._give_freed(before, tr, out)

    def _give_freed(self, card: str | None, renamed: CardTrack, out: list[Event]) -> None:
        """`card`, renamed away from its play, is free: a play named otherwise only because it
        was taken, whose votes favour it (RECHECK_SHARE of them), takes it now, in doubt, not
        at the deal's end. Seed 2193 deal 4 at 640x480 (ancient_french): S's 7H, read 8H, and
        E's 8H, read 8H 0.83 of its votes and named 9H (the 8H played); when S's play was
        renamed 7H at the sweep, E's kept 9H 31 s more. (Not the play `renamed` away from it
        by votes beside its own: a second box's.)"""
        if card is None:
            return
        for o in self.tracks:  # (`_rename_by_votes` leaves a play already named so)
            if o is not renamed and o.state in ("played", "gathered") and not o.hinted \
                    and (readings := o.readings()) and readings[0][0] == card:
                self._rename_by_votes(o, readings, out)

    def _with_hints(self, tr: CardTrack) -> list[tuple[str, float]]:
        """`tr`'s readings; for a card read plainly only a few frames, in doubt, in front of a
        seat whose place was read weakly for longer in this trick, with those weak readings
        (`_hints`): they were this card, before the detector read it plainly or under the hand
        putting it down."""
        readings = tr.readings()
        hints = self._hints.get((self.view.gathered, tr.zone))
        if not hints or tr.zone not in SEATS:
            return readings
        if tr.read_surely(self.settings.sure_conf) or sum(hints.values()) <= sum(tr.votes.values()):
            return readings
        return by_share(tr.votes, hints)

    def _note_hints(self, zoned: Sequence[tuple[Detection, str]]) -> None:
        """Weak readings (unnamed boxes with readings) in front of a seat count for its card in
        the trick on the table; something lies there (`_glimpsed`). So does a plain reading of a
        card recorded at another play (`_read_again`): were that seat's card left unread (that
        play read more surely), its picture says the other play was the misread one, and the
        deal's end may swap them (`_swap`); its other readings count as well (seed 2148 deal 9:
        W's 8C read 9C 0.58 / 8C 0.21 frame after frame; with its 9C alone counted, N's 9C,
        read 0.73, was renamed 8C)."""
        trick = self.view.trick_plays
        cards: list[Box] | None = None  # (the trick's, once)
        for d, zone in zoned:  # (each detection with its zone)
            if zone not in SEATS:
                continue
            if d.card == UNNAMED and d.alternatives:
                if len(trick) >= 4:  # the whole trick lies there
                    if (zone, None) not in trick:  # (not the unread card)
                        if cards is None:
                            cards = [tr.box for tr in self.tracks
                                     if tr.state == "played" and tr.box]
                        self._felt_marks.note(d.box, cards)
                elif zone not in self._glimpsed and not self._felt_marks.covers(d.box):
                    self._glimpsed.setdefault(zone, self._now)
                votes = self._hints.setdefault((self.view.gathered, zone), {})
                for card, p in d.alternatives:
                    votes[card] = votes.get(card, 0.0) + float(p)
            elif d.card != UNNAMED and self._read_again(d, zone):
                votes = self._hints.setdefault((self.view.gathered, zone), {})
                for card, p in ((d.card, d.confidence), *d.alternatives):
                    votes[card] = votes.get(card, 0.0) + float(p)

    def _read_again(self, d: Detection, zone: str) -> bool:
        """Whether `d` reads plainly a card recorded before: in a trick gathered, gone from the
        felt a while, or in this trick before another seat, lying elsewhere."""
        track = track_of(self.tracks, d.card)
        if track is None:
            return False
        if track.state == "gathered":
            return bool(self._now - track.last_seen >= self.settings.gather_s)  # (settings: Any)
        return track.zone != zone and track.zone in SEATS \
            and (track.box is None or iou(track.box, d.box) < 0.1)
