"""Closing tricks: when the cards of a trick are gone, or a seat after one never read has played,
the plays before it are complete. Part of the table tracker (`vision.tracker.TableTracker` mixes
it in).

A trick swept away before its last card was read is closed with an unread play (card None) in each
seat never read, so the tricks after it keep their shape; the cards held for a turn that never
came go in their places. The same happens as soon as a card is held for one seat only that was
never read (`GAP_WAIT` after it lies still, or `LAST_WAIT` when it is the trick's last seat and
something unread lies in front of the missing one): the players play in turn, so that seat has
played. A card of an unread seat read later, while the trick lies there, fills that play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vision.card_track import CardTrack
from vision.deal_view import DealView
from vision.felt_marks import FeltMarks
from vision.geometry import SEATS, TRICK
from vision.leads import leader_in_doubt, seats_in_turn
from vision.seen_twice import beside_itself
from vision.still_objects import StillObjects
from vision.votes import alternatives

Event = dict[str, Any]
# The last seat's card held this long (beyond steady_s) closes the trick: the missing cards had
# their chance to be read.
LAST_WAIT = 1.0
# A card held for one missing seat is recorded after this long (beyond steady_s), when nothing
# unread lies in front of that seat.
GAP_WAIT = 0.15
# ... and when each card held was seen this many times at least.
GAP_SEEN = 6
# Held cards put down in turn from another seat than the leader while the last trick's winner is
# in doubt: the missing seat may simply not have played yet (the leader misread), so the gap
# waits this long after the last of them appeared for its card, which then mends the last trick.
DOUBT_WAIT = 3.0


class Gathering:
    """The tracker's trick closing (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    settings: Any
    _glimpsed: dict[str, float]
    _felt_marks: FeltMarks
    _objects: StillObjects
    _now: float

    if TYPE_CHECKING:  # provided by TableTracker and ReadingFixes
        def _emit(self, out: list[Event], kind: str, data: Mapping[str, Any], **extra: Any) -> None:
            ...

        def _steady(self, tr: CardTrack, t: float) -> bool:
            ...

        def _commit(self, tr: CardTrack, t: float, out: list[Event]) -> None:
            ...

        def _name_unread(self, out: list[Event]) -> None:
            ...

        def _with_hints(self, tr: CardTrack) -> list[tuple[str, float]]:
            ...

        def _name_early(self, out: list[Event]) -> None:
            ...

        def _provisional(self) -> dict[int, str]:
            ...

        def _recall_early(self, tr: CardTrack, out: list[Event]) -> None:
            ...

        def _weigh_recorded_twice(self, out: list[Event]) -> None:
            ...

        def _weigh_echoes(self, out: list[Event]) -> None:
            ...

    def _maybe_gather(self, t: float, out: list[Event], early: bool = False) -> None:
        view, s = self.view, self.settings
        if not view.open:
            return
        on_table = [tr for tr in self.tracks if tr.state == "played"]
        if len(view.plays) >= 4 * (view.gathered + 1):
            if all(t - tr.last_seen >= s.gather_s for tr in on_table):
                self._gather(out)
            return
        # An incomplete trick: gone from the felt (with the cards held for their turn: those
        # that came while its cards lay there) and either a new card has settled since or it
        # has stayed gone a good while.
        held = [tr for tr in self.tracks if tr.held and tr.state == "candidate"]
        if on_table:
            last = max(o.last_seen for o in on_table)
            trick = on_table + [tr for tr in held if tr.first_seen <= last]
        else:  # only held cards (its leader never read): those gone, if none lies there still
            trick = [tr for tr in held if t - tr.last_seen >= s.gather_s]
            went = max((tr.last_seen for tr in trick), default=0.0)
            if len(trick) < 2 or any(tr.first_seen <= went for tr in held if tr not in trick):
                return  # one card out of sight a moment is more likely than a sweep
        if not trick:
            return
        # (a card of the trick under a box read too weakly to name lies there still: `present`)
        gone = max(max(tr.last_seen, tr.present) for tr in trick)
        if t - gone < s.gather_s:
            return
        # A card that settled well after the trick vanished (not one put down by the hand that
        # hid the trick a moment) belongs to the next trick.
        newcomer = any(tr.state == "candidate" and tr not in trick
                       and tr.settled_since > gone + s.gather_s / 2 and self._steady(tr, t)
                       for tr in self.tracks)
        # Before the newcomer is recorded (`early`), one card out of sight may just be under
        # the hand putting the newcomer down: a sweep is trusted when two or more are gone,
        # recorded or held (seed 2097 deal 19: N's lead and E's card held for two unread seats
        # went; W's next lead, counted as one card gone, was taken for W's card of that trick).
        if newcomer and early and len(trick) < 2:
            newcomer = False
        if newcomer or t - gone >= 3 * s.gather_s:
            self._gather_incomplete(t, [tr for tr in trick if tr.state == "candidate"], out)

    def finish(self) -> list[Event]:
        """The input has ended (a video or folder): cards still held for a turn are recorded,
        each unread seat before them getting an unread play (those after may not have played,
        except in the last trick, where every seat plays: the deal is then complete)."""
        out: list[Event] = []
        view = self.view
        held = [tr for tr in self.tracks if tr.held and tr.state == "candidate"]
        last_trick = view.open and 28 < len(view.plays) < 32
        if (held and view.open) or last_trick:
            self._gather_incomplete(self._now, held, out, whole=last_trick)
        return out

    def _gather_incomplete(self, t: float, held: list[CardTrack], out: list[Event],
                           whole: bool = True, leader: str | None = None,
                           gather: bool = True) -> None:
        """The trick was gathered with seats never recorded: the cards held for their turn go
        in their places, and each seat never read gets an unread play (card None) there, so
        the tricks after it keep their shape (`engine.deduce` may name the card later).
        `leader`: who led, when known; `gather` False: the trick still lies there."""
        view = self.view
        trick = view.trick_plays
        for tr in held:
            tr.held = tr.held and tr.zone in SEATS  # one may have slid to the middle since
        held = [tr for tr in held if tr.held]
        for tr in held:  # before the order is chosen: a correction may change who leads
            self._recall_early(tr, out)
        by_seat: dict[str, CardTrack] = {}
        for tr in sorted(held, key=lambda tr: tr.settled_since):
            by_seat.setdefault(tr.zone, tr)
        first = min(held, key=lambda tr: tr.first_seen).zone if held else None
        seat = trick[0][0] if trick else leader or view.turn
        if seat is None and first is not None:
            seat = view.lead_before(first)
        seat = seat or "S"
        done = {s for s, _card in trick}
        for _ in range(4):
            # (a lead recorded drops the held cards that came before it: `_drop_before_lead`)
            by_seat = {zone: o for zone, o in by_seat.items() if o.state == "candidate"}
            if not whole and not by_seat:
                break  # (the input ended) the seats after the last card held may not have played
            if seat not in done:
                waiting = by_seat.pop(seat, None)
                if waiting is not None:
                    waiting.held = False
                    self._commit(waiting, t, out)
                else:
                    data: Event = {"seat": seat, "card": None, "t": round(t, 3), "seen": None,
                            "confidence": 0.0, "uncertain": True, "alternatives": [],
                            "evidence": None}
                    self._emit(out, "card_played", data, box=None)
            seat = view.after(seat)
        for tr in by_seat.values():  # a second card held for one seat: not of this trick
            tr.held = False
        if gather and len(view.plays) >= 4 * (view.gathered + 1):
            self._gather(out)

    def _close_gap(self, t: float, out: list[Event]) -> None:
        """Cards held for a turn that never came, with one seat only never read before them: that
        seat has played (the ones after it would not have played otherwise), so its unread play
        and the held cards are recorded now (`_gather_incomplete`), not when the trick is swept.
        Cards seen GAP_SEEN times wait GAP_WAIT beyond steady_s while nothing lies unread in
        front of the missing seat (its card may be under the hand putting the next one down) but
        a card read in doubt where something lay before them (seed 2100 deal 2: W's 8C read
        weakly from before E's TC came held E's card 0.85 s), or LAST_WAIT when the last seat
        of the trick has played. (With two seats missing, a wrong
        leader is likelier than two cards never read.) A card of the unread seat read later,
        while the trick lies there, fills its play (`_fill_unread`)."""
        view, s = self.view, self.settings
        held = [tr for tr in self.tracks if tr.held and tr.state == "candidate"
                and tr.zone in SEATS and t - tr.settled_since >= s.steady_s + GAP_WAIT]
        if not held or not view.open or view.complete:
            return
        if any(len(tr.times) < GAP_SEEN for tr in held):
            return  # a glimpse (a hand's shadow read as a card) must not record a seat's play
        seats = {tr.zone for tr in held}
        trick = view.trick_plays
        if trick:
            leader = trick[0][0]
        else:
            leaders = view.leaders()
            missing = set(SEATS) - seats
            if leaders is not None and len(leaders) == 1:
                leader = next(iter(leaders))
            elif len(missing) == 1 and (leaders is None or missing <= leaders):
                leader = next(iter(missing))
            else:
                return
        left = view.order_from(leader)[len(trick):]  # the seats still to play, in turn
        if seats & {seat for seat, _ in trick} or len(seats) != len(held) or not seats <= set(left):
            return  # a seat twice, or a card of a seat that has played: not this trick's
        upto = max(left.index(seat) for seat in seats)
        gaps = [seat for seat in left[: upto + 1] if seat not in seats]
        if len(gaps) != 1:
            return
        last = upto == len(left) - 1
        waited = min(t - tr.settled_since for tr in held) - s.steady_s
        came = seats_in_turn(view, held, self._glimpsed)  # (None unless put down in turn)
        newest = max(tr.first_seen for tr in held)
        first = min(tr.first_seen for tr in held)
        lay = self._glimpsed.get(gaps[0], t)  # (something first lay in the missing seat's place)
        # (its card coming after theirs, not steady yet, proves it: seed 2086 deal 9, W's card
        # came 3 s after N's, the third)
        coming = any(o.state == "candidate" and not o.held and o.zone == gaps[0]
                     and o.first_seen > newest and t - o.last_seen <= s.forget_s
                     for o in self.tracks)
        if not trick and (t - newest < DOUBT_WAIT or coming) \
                and came is not None and came[0] != leader \
                and lay > first \
                and leader_in_doubt(view, self.tracks):
            return  # the cards say another seat led, nothing lay where the "missing" one plays
        if last and waited >= LAST_WAIT:
            pass  # every seat has played: the missing card had its chance to be read
        elif not trick and leader_in_doubt(view, self.tracks) \
                and lay >= first:
            # Another seat may have won the last trick: the next cards may prove it. (Not when
            # something lay in the missing seat's place before the first of them: it led.)
            return
        elif any(o.state == "candidate" and not o.held and o.zone in (gaps[0], TRICK)
                 and t - o.last_seen <= s.forget_s
                 and not (o.zone == gaps[0] and min(o.first_seen, lay) < first
                          and not o.read_surely(s.sure_conf))
                 for o in self.tracks):
            # Something lies there unread yet: perhaps the missing card, being put down, or
            # read surely and soon recorded. (Read in doubt where something lay before the
            # held cards came, even read too weakly to name, it is that seat's card, played in
            # turn, which the detector may never read plainly: it fills the unread play.)
            return
        self._gather_incomplete(t, held, out, whole=False, leader=leader, gather=False)

    def _gather(self, out: list[Event], committing: CardTrack | None = None) -> None:
        """The trick on the table is over (`committing`: the next trick's first card)."""
        view = self.view
        start = 4 * view.gathered
        unread = {seat for seat, card in view.plays[start:start + 4] if card is None}
        self._weigh_echoes(out)
        self._weigh_recorded_twice(out)
        self._name_early(out)
        went = max((tr.last_seen for tr in self.tracks if tr.state == "played"), default=self._now)
        seen = any(tr.state == "played" and tr.box is not None for tr in self.tracks)
        read, last_came = self._trick_read()
        self._emit(out, "trick_gathered", {"t": round(self._now, 3)})
        self._glimpsed = {}
        self._felt_marks.swept()
        self._objects.swept(last_came, [tr.anchor for tr in self.tracks if tr.state == "played"])
        for tr in self.tracks:
            if tr.state == "played":
                tr.state = "gathered"
            elif tr.zone in unread and tr is not committing and self._unread_card(tr, went):
                tr.state, tr.held = "stale", False
            elif tr.held and tr is not committing and tr.last_seen <= went and seen:
                # held for a turn, but seen only while the trick lay there: it went with it (a
                # box on part of a card of the trick), it is not the seat's next card
                tr.state, tr.held = "ignored", False
            elif tr.state == "candidate" and tr is not committing and tr.zone in read \
                    and tr.first_seen < last_came:
                # in front of a seat that played in this trick, there since before its last
                # card came: it lay through the trick as nobody's play, so it is not that
                # seat's next card either (seed 2165 deal 17: a patch of speckled felt beside
                # E's AS, read 9S 0.5-0.6 in half the frames for 6.7 s, was recorded as E's
                # next card as the trick went, and S's lead before it as unread)
                tr.state, tr.held = "ignored", False
        if self.view.gathered >= 8:
            self._name_unread(out)
            self._emit(out, "deal_over", {})  # gathered cards stay known until the next deal

    def _trick_read(self) -> tuple[set[str], float]:
        """The seats whose card of the trick on the table was read, and when its last card was
        first seen: a candidate in front of one of them since before then lay through the trick
        as nobody's play (`_gather`, `Recording._lay_through`)."""
        start = 4 * self.view.gathered
        read = {seat for seat, card in self.view.plays[start:start + 4] if card is not None}
        return read, max((tr.first_seen for tr in self.tracks if tr.state == "played"),
                         default=self._now)

    def _unread_card(self, tr: CardTrack, went: float) -> bool:
        """Whether `tr`, in front of a seat whose play in the trick now gathered is unread, is
        that seat's card, left lying a moment after the others went: it was there before
        they went (`went`: when the last of them was seen) and is there still. Its readings,
        from now on, are never the seat's next lead (the unread play is named at the deal's
        end, when the rest of the deal proves it)."""
        return tr.state in ("candidate", "ignored") and not tr.held and tr.box is not None \
            and tr.first_seen <= went and self._now - tr.last_seen <= self.settings.forget_s

    def _fill_unread(self, tr: CardTrack, t: float, out: list[Event]) -> bool:
        """A card read in front of a seat whose play in the trick still lying there is unread
        (or named only from weak readings, `_name_early`, as another card): it is that play's
        card (recorded when the last seat's card came), not a new lead. Read in doubt, its name
        takes in the weak readings in front of that seat (`_with_hints`)."""
        view = self.view
        start = 4 * view.gathered
        trick = view.plays[start:start + 4]
        early = {i: card for i, card in self._provisional().items()
                 if i >= start and view.plays[i][0] == tr.zone}
        if ((tr.zone, None) not in trick and not early) or (len(trick) == 4 and not any(
                o.state == "played" and t - o.last_seen < self.settings.gather_s
                for o in self.tracks)):
            return False  # (a whole trick no longer seen: this card is the next one's)
        readings = self._with_hints(tr)
        card = view.choose(readings, tr.zone)[0]
        if card is None:  # (read as a card lying elsewhere: its next reading, seed 2093 deal 2)
            readings = tr.readings()
            card = view.choose(beside_itself(view, self.tracks, tr), tr.zone)[0]
        if card is None:
            return False
        index, before = next(iter(early.items())) if early \
            else (start + trick.index((tr.zone, None)), None)
        tr.state, tr.card, tr.recorded_box = "played", card, tr.box
        if before is not None:  # the track of the weak readings gives way to this one
            self.tracks = [o for o in self.tracks if not (o.hinted and o.card == before)]
        # (`_emit` gives it the frame time: when it was read, the time of its play; its other
        # readings go with it, as with any card recorded: a revoke one of them would clear is
        # in doubt)
        others = alternatives(readings, card)
        self._emit(out, "correction", {"play": index, "card": card, "before": before,
                                       "alternatives": others,
                                       **({} if before is None else {"uncertain": False})})
        return True
