"""When a steady card may be recorded: plays keep the order of the seats. Part of the table tracker
(`vision.tracker.TableTracker` mixes it in).

A card waits while its name is in doubt (unless its picture has read its best name since it came to
rest: then it is recorded in doubt and judged again later) or an older card is unconfirmed
(`max_wait`), and is held
while it is out of turn (`turn_wait`): at a trick's start, for the seats that may have won the
trick before; later, for the seat whose turn it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vision.card_track import DOUBTED_SHARE, CardTrack, track_of
from vision.deal_view import DealView
from vision.geometry import SEATS

# A name with this share of the votes the cards not played have, LEFT_LEAST of all of them, and
# its last LEFT_SEEN sightings is read clearly enough to record (`clear_among_unplayed`): 0.6,
# as a card's own clear share. On seeds 2100-2108 one sighting let a card landing under a hand be
# recorded by a passing reading (renamed 0.6 s later); two did not.
LEFT_CLEAR = 0.6
LEFT_LEAST = 0.25
LEFT_SEEN = 2


class TurnOrder:
    """The tracker's waiting rules (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    settings: Any
    _glimpsed: dict[str, float]

    if TYPE_CHECKING:  # provided by TableTracker
        def _unproven(self, tr: CardTrack) -> bool:
            ...

        def _too_small(self, tr: CardTrack) -> bool:
            ...

        def _on_object(self, tr: CardTrack) -> bool:
            ...

        def _provisional(self) -> dict[int, str]:
            ...

    def _should_wait(self, tr: CardTrack, t: float) -> bool:
        """Hold a steady card a little while its name is in doubt, or while a card that landed
        before it (or belongs to the player whose turn it is) is not confirmed yet: plays must be
        recorded in the order they were made."""
        s, view = self.settings, self.view
        if self._too_small(tr):
            return True  # (until it shows whole, if it is a card a hand half covers)
        if self._on_object(tr) and (tr.zone, None) not in view.trick_plays:
            return True  # (until read surely; its seat's unread play it may fill: a card lay there)
        if moved_away(tr, self.tracks, t, s):
            return True  # (forgotten once out of sight forget_s: it lies elsewhere now)
        waited = t - tr.settled_since - s.steady_s
        turn = view.turn
        placed = len(view.trick_plays)
        unsure = self._unsure_seats() if placed >= 4 else set()  # (only a full trick asks)
        if placed >= 4 and waited < s.turn_wait and not unsure \
                and sum(o.state == "played" and o.last_seen == t for o in self.tracks) >= 3:
            # A trick is gathered before the next lead: while three of its cards are seen this
            # very frame, a card appearing among them (a box on a hand, on two cards) waits.
            # (One that may fill an unread play of the trick does not.)
            return True
        # Within a trick the order of the seats is certain. Who may lead it is known from the
        # trick before (whatever its unread cards were), and at the first trick when the
        # referee gave the dealer (otherwise the dealer is the tracker's guess). A card that
        # landed after another one still lying in a seat's place is not the lead either, nor
        # one after a box read too weakly to name in another possible leader's (`_glimpsed`).
        if placed >= 4 and tr.zone in SEATS and waited < s.turn_wait \
                and tr.zone not in unsure:
            # Put down while the complete trick still lies there, it leads the next trick. A
            # seat that cannot have won it does not lead (a box on a card being swept, a card
            # in a hand): wait for the sweep, then it is judged as any first card. (A seat whose
            # play there is unread fills it; a card of the trick read in doubt may be another,
            # so the seats that win with some card there may lead: seed 2147 deal 2, a 7C in
            # W's hand, read 7C 0.51 as N's 9S was recorded in doubt, led the next trick.)
            leaders = view.leaders(next_trick=True, doubted=self._doubted_in_trick())
            if leaders is not None and tr.zone not in leaders:
                return True
        if placed == 0:  # (a belote prise's turned card is nobody's play: it lies anywhere)
            leaders = None if view.turned_due else view.leaders()
            here = min(tr.first_seen, self._glimpsed.get(tr.zone, tr.first_seen))
            # (Not after a candidate only ever boxed faintly: the felt's pattern read as a card.)
            out_of_turn = leaders is not None and (tr.zone not in leaders or any(
                o.state == "candidate" and o.zone in SEATS and o.zone != tr.zone
                and o.first_seen < here and len(o.times) >= 2 and not self._unproven(o)
                and not o.faint and (o.held or t - o.last_seen <= s.forget_s)
                for o in self.tracks) or any(
                zone in leaders and zone != tr.zone and seen < here
                for zone, seen in self._glimpsed.items()))
        else:  # (a card in front of a seat whose play here is unread fills it: `_fill_unread`)
            out_of_turn = placed < 4 and turn is not None and tr.zone != turn \
                and (tr.zone, None) not in view.trick_plays
        if out_of_turn and tr.zone in SEATS and waited < s.turn_wait:
            tr.held = True  # more likely the player whose turn it is was not seen
            return True
        tr.held = False
        if waited >= s.max_wait:
            return False
        if tr.best()[1] < 0.6 and not clear_among_unplayed(view, tr):
            # Read LATELY times as its best reading since it settled, it is recorded now, in
            # doubt, and its name is judged again by then (`ReadingFixes._recheck`). A glimpse
            # waits (it may vanish), and so does a card whose picture reads another name now.
            lately = tr.read_lately()
            if lately is None or lately[0] != tr.readings()[0][0]:
                return True
        for o in self.tracks:
            if o is tr or o.state != "candidate" or o.held or t - o.last_seen > s.forget_s \
                    or self._unproven(o):
                continue  # (a card held for its turn waits for this one, not the reverse)
            if o.zone == tr.zone and o.echo_of(tr):
                continue  # two boxes on one card (its box jumping between two fits): no other
            if in_flight(o, tr, s.sure_conf) or moved_away(o, self.tracks, t, s):
                continue  # the card on its way down, left behind or carried on: no other
            if len(o.times) >= 2 and o.settled_since < tr.settled_since:
                return True
            if turn is not None and o.zone == turn and tr.zone != turn and len(o.times) >= 2:
                return True
        return False

    def _unsure_seats(self) -> set[str]:
        """Seats whose play in the trick on the table is unread, or named only from weak
        readings (`_name_early`): a card read there fills it (`_fill_unread`)."""
        early = self._provisional()
        start = 4 * self.view.gathered
        return {seat for i, (seat, card) in enumerate(self.view.trick_plays, start)
                if card is None or i in early}

    def _doubted_in_trick(self) -> list[int]:
        """The plays of the trick on the table whose card is not its track's best reading by
        a clear share (cards never read are the engine's to weigh: `DealView.leaders`)."""
        start = 4 * self.view.gathered
        doubted = []
        for i, (_seat, card) in enumerate(self.view.trick_plays, start):
            track = track_of(self.tracks, card) if card is not None else None
            if track is not None and (readings := track.readings()) \
                    and (readings[0][0] != card or readings[0][1] < DOUBTED_SHARE):
                doubted.append(i)
        return doubted


def clear_among_unplayed(view: DealView, tr: CardTrack) -> bool:
    """Whether `tr`'s name is in doubt only with cards already played (a deck holds one of
    each): its best reading not played holds LEFT_CLEAR of the votes of the cards not played
    and LEFT_LEAST of all, the cards played hold more of them than the next reading not
    played, and its last LEFT_SEEN sightings, since it came to rest, read that name. Seed 2102
    deal 12: N's JH, read JH 0.49 / JD 0.43 with the JD played, waited 0.98 s, now 0.28 s."""
    left = view.unplayed(tr.readings())
    if not left or not tr.recent:
        return False
    (top, share), total = left[0], sum(v for _c, v in left)
    lately = list(tr.recent)[-LEFT_SEEN:]
    rival = left[1][1] if len(left) > 1 else 0.0
    return len(lately) == LEFT_SEEN and all(
        when >= tr.settled_since and card == top for when, card, _c in lately) \
        and share >= LEFT_LEAST \
        and share >= LEFT_CLEAR * total and 1.0 - total > rival


def in_flight(o: CardTrack, tr: CardTrack, sure_conf: float) -> bool:
    """Whether candidate `o`, in `tr`'s place, is `tr` itself seen on its way down: its box left
    behind as the hand put the card down, last seen at the latest as `tr` came to rest, and
    never read surely. Seed 2177 at 2304x1296, deal 0: W's 8C, read 0.94-0.96 from the frame it
    settled, waited 0.6 s for a box on it in the hand (7C 0.54, 8H 0.41) to be forgotten."""
    return o.zone == tr.zone and o.last_seen <= tr.settled_since and not o.read_surely(sure_conf)


def moved_away(tr: CardTrack, tracks: list[CardTrack], t: float, s: Any) -> bool:
    """Whether candidate `tr`, out of sight now, is read surely in another place, where it was
    first seen after `tr` was last seen and is seen still (within `s.forget_s`): one card (a
    deck holds one of each), carried on. Seed 2064 deal 1: E's AC, a moment still at the felt's
    edge in S's place on its way, was recorded as S's card (S's own was read only in doubt)."""
    if tr.last_seen >= t:
        return False
    name = tr.readings()[0][0]
    return any(o is not tr and o.zone != tr.zone and t - o.last_seen <= s.forget_s
               and o.first_seen > tr.last_seen and o.readings()[0][0] == name
               and o.read_surely(s.sure_conf) for o in tracks)
