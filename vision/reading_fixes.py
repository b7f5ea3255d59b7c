"""Corrections of earlier readings that later frames prove wrong.

Besides a card's own votes judged again (`_recheck`; with those of a second box on it, an echo,
when its trick is gathered: `_weigh_echoes`), two kinds, both decided here and written by the
tracker as `correction` events (actor camera):
- a card seen twice: a card clearly read landing was recorded earlier, so one of the two readings
  is wrong (`vision.seen_twice`: as it lands, and when its trick is gathered);
- a trick the next one says was won by another seat: the first card of the new trick lies in
  front of a seat that cannot lead by the readings of the last trick, while a seat that could put
  its card down after it; the likeliest other reading of a card of the last trick that makes the
  first seat the winner is taken (`vision.leads.trick_won_by`).
`ReadingFixes` is the part of the tracker that asks these questions and writes the corrections,
with the naming of unread cards (from weak readings while they lie there, and at the deal's end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from vision.card_track import DOUBTED_SHARE, CardTrack, by_share, track_of, with_echoes
from vision.deal_view import DealView
from vision.detections import UNNAMED, Detection, iou
from vision.felt_marks import FeltMarks
from vision.leads import in_turn_from, seats_in_turn, trick_won_by
from vision.seen_twice import card_seen_twice, recorded_twice, seen_again
from vision.swaps import (
    SURE_SHARE,
    SURE_VOTES,
    SWAP_FAVOUR,
    WEAK_FAVOUR,
    breaks_no_more,
    dealt_otherwise,
    favoured_over,
    given_up,
    picture_odds,
    swap_chain,
)

Event = dict[str, Any]
_SEATS = ("N", "E", "S", "W")

# An unread play of the trick on the table is named, in doubt, from its weak readings when the
# card they favour most is not played yet and has EARLY_SHARE of the votes of the cards the rules
# allow there, EARLY_VOTES at least (several frames): the record shows it within seconds, not at
# the deal's end (`_name_early`).
EARLY_SHARE = 0.6
EARLY_VOTES = 2.0

# A card recorded surely is judged again once, RECHECK_S after it came to rest: read while a hand
# still lay on it, it may have been taken for another card, which its own votes since then say
# (the other card with RECHECK_SHARE of them at least; `ReadingFixes._recheck_sure`).
RECHECK_S = 1.5
RECHECK_SHARE = 0.6


class ReadingFixes:
    """The tracker's corrections of what it recorded earlier (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    settings: Any
    _mend_tried: set[tuple[int, float]]
    _hints: dict[tuple[int, str], dict[str, float]]
    _early: dict[int, str]  # unread plays named from weak readings (`_name_early`)
    _early_fit: dict[tuple[int, int, int], set[str] | None]
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

    def _recall(self, tr: CardTrack, out: list[Event]) -> None:
        """`tr` is clearly seen landing as a card recorded before: a deck holds one, so the
        earlier reading is corrected when its own votes tell what it was, better than `tr`'s
        own other reading (`card_seen_twice`)."""
        readings = tr.readings()
        card, share = tr.best()
        rival = max((v for c, v in readings[1:] if c not in self.view.played), default=0.0)
        self._correct(card_seen_twice(self.view, self.tracks, card, share, rival), out)

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
        in doubt, and one other reading that makes the first seat its winner
        is taken (`trick_won_by`). Tried once per trick and first card."""
        view = self.view
        leaders = view.leaders() if view.gathered and not view.trick_plays else None
        if leaders is None:
            return
        lying = [o for o in self.tracks if o.state == "candidate" and o.held and o.zone in _SEATS
                 and not seen_again(self.tracks, o, self.settings.sure_conf)]
        if not lying:
            return
        first = min(lying, key=lambda o: o.first_seen)
        if first.zone in leaders or (view.gathered, first.first_seen) in self._mend_tried:
            return
        if not any(o.state == "candidate" and o.zone in leaders and (o.held or self._steady(o, t))
                   and min(o.first_seen, self._glimpsed.get(o.zone, o.first_seen))
                   > first.first_seen for o in self.tracks) \
                and not in_turn_from(view, lying, first.zone, leaders) \
                and not self._first_alone(first, leaders, lying):
            return
        self._mend_tried.add((view.gathered, first.first_seen))
        sure = frozenset(o.readings()[0][0] for o in lying
                         if o.read_surely(self.settings.sure_conf))
        self._correct(trick_won_by(view, self.tracks, first.zone, sure), out)

    def _first_alone(self, first: CardTrack, leaders: set[str],
                     lying: Sequence[CardTrack]) -> bool:
        """Whether, whoever of `leaders` led, two or more seats would have played before
        `first` without anything lying in their places since the sweep; or one, with nothing
        lying there at all since the sweep, while the next seat's card lies after `first`'s (a
        lead never seen while two cards after it were): then `first`'s seat led."""
        seats = seats_in_turn(self.view, lying)
        followed = seats is not None and len(seats) >= 2 and seats[0] == first.zone
        for leader in leaders:
            order = self.view.order_from(leader)
            before = order[:order.index(first.zone)]
            if len(before) >= 2 and not any(
                    self._glimpsed.get(seat, first.first_seen) < first.first_seen
                    for seat in before):
                continue
            if not (before and followed and not any(seat in self._glimpsed for seat in before)):
                return False
        return True

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
            elif card == tr.card and tr.zone in _SEATS and tr.best()[0] == card \
                    and tr.read_surely(s.sure_conf):
                # (its own best reading, clear and sure, where its seat put it down)
                self._emit(out, "correction", {"play": index, "card": card, "before": card,
                                               "uncertain": False})

    def _recheck_sure(self, tr: CardTrack, t: float, out: list[Event]) -> None:
        """A card recorded surely whose own votes, RECHECK_S after it came to rest, favour
        another card not played (RECHECK_SHARE of them) is renamed, in doubt."""
        if tr.rechecked or tr.state != "played" or tr.hinted or tr.zone not in _SEATS \
                or t - tr.settled_since < RECHECK_S:
            return
        tr.rechecked = True
        # (as its name was chosen, were it an unread play's)
        self._rename_by_votes(tr, self._with_hints(tr), out)

    def _weigh_echoes(self, out: list[Event]) -> None:
        """The trick on the table is being gathered: each of its plays whose votes, with those
        of the second boxes on it (`with_echoes`), favour another card not played
        (RECHECK_SHARE of them) is renamed, in doubt."""
        for tr in [o for o in self.tracks if o.state == "played" and o.echoes
                   and not o.hinted and o.zone in _SEATS]:
            self._rename_by_votes(tr, with_echoes(tr), out)

    def _rename_by_votes(self, tr: CardTrack, readings: list[tuple[str, float]],
                         out: list[Event]) -> None:
        top, share = readings[0]
        index = self.view.play_of(tr.card)
        if top == tr.card or share < RECHECK_SHARE or index is None \
                or self.view.choose_again(readings, index) != top:
            return
        self._emit(out, "correction", {"play": index, "card": top, "before": tr.card,
                                       "uncertain": True})
        tr.card = top

    def _with_hints(self, tr: CardTrack) -> list[tuple[str, float]]:
        """`tr`'s readings; for a card read plainly only a few frames, in doubt, in front of a
        seat whose place was read weakly for longer in this trick, with those weak readings
        (`_hints`): they were this card, before the detector read it plainly or under the hand
        putting it down."""
        readings = tr.readings()
        hints = self._hints.get((self.view.gathered, tr.zone))
        if not hints or tr.zone not in _SEATS:
            return readings
        if tr.read_surely(self.settings.sure_conf) or sum(hints.values()) <= sum(tr.votes.values()):
            return readings
        return by_share(tr.votes, hints)

    def _note_hints(self, zoned: Sequence[tuple[Detection, str]]) -> None:
        """Weak readings (unnamed boxes with readings) in front of a seat count for its card in
        the trick on the table; something lies there (`_glimpsed`). So does a plain reading of a
        card recorded at another play (`_read_again`): were that seat's card left unread (that
        play read more surely), its picture says the other play was the misread one, and the
        deal's end may swap them (`_swap`)."""
        trick = self.view.trick_plays
        cards: list[tuple[float, float, float, float]] | None = None  # (the trick's, once)
        for d, zone in zoned:  # (each detection with its zone)
            if zone not in _SEATS:
                continue
            if d.card == UNNAMED and d.alternatives:
                if len(trick) >= 4:  # the whole trick lies there
                    if (zone, None) not in trick:  # (not the unread card)
                        if cards is None:
                            cards = [tr.box for tr in self.tracks
                                     if tr.state == "played" and tr.box]
                        self._felt_marks.note(d.box, cards)
                elif not self._felt_marks.covers(d.box):
                    self._glimpsed.setdefault(zone, self._now)
                votes = self._hints.setdefault((self.view.gathered, zone), {})
                for card, p in d.alternatives:
                    votes[card] = votes.get(card, 0.0) + float(p)
            elif d.card != UNNAMED and self._read_again(d, zone):
                votes = self._hints.setdefault((self.view.gathered, zone), {})
                votes[d.card] = votes.get(d.card, 0.0) + float(d.confidence)

    def _read_again(self, d: Detection, zone: str) -> bool:
        """Whether `d` reads plainly a card recorded before: in a trick gathered, gone from the
        felt a while, or in this trick before another seat, lying elsewhere."""
        track = track_of(self.tracks, d.card)
        if track is None:
            return False
        if track.state == "gathered":
            return self._now - track.last_seen >= self.settings.gather_s
        return track.zone != zone and track.zone in _SEATS \
            and (track.box is None or iou(track.box, d.box) < 0.1)

    def _name_early(self, out: list[Event]) -> None:
        """Each unread play of the trick on the table (every frame, and as it is gathered)
        whose weak readings favour most a card not played yet that breaks no more rules there
        than any other unseen card would (`DealView.least_broken`, judged once for each play
        recorded), by EARLY_SHARE of the readings of such cards, is named now, uncertain, with
        their other readings as alternatives. A track holding those readings (`hinted`, no box)
        stands for it: the card read plainly in its place confirms it (`_commit` merges them)
        or renames it (`_fill_unread`); seen clearly elsewhere, it is corrected as any misread
        (`_recall`); else the deal's end judges it again."""
        view = self.view
        start = 4 * view.gathered
        for i in range(start, min(start + 4, len(view.plays))):
            seat, card = view.plays[i]
            hints = self._hints.get((view.gathered, seat), {})
            if card is not None or not hints:
                continue
            top = max(hints, key=lambda c: hints[c])
            if top in view.played or hints[top] < EARLY_VOTES:
                continue  # (favouring a card played elsewhere: a misread there? the deal's end)
            key = (i, len(view.plays), len(view.unread))  # (judged again when either grows)
            if key not in self._early_fit:
                self._early_fit[key] = view.least_broken(i)
            fit = self._early_fit[key]
            # The readings of the cards the rules allow there as well as any: their favourite.
            votes = {c: v for c, v in hints.items() if fit is not None and c in fit}
            total = sum(votes.values())
            if top not in votes or votes[top] < EARLY_SHARE * total:
                continue
            others = sorted(([c, round(v / total, 3)] for c, v in votes.items() if c != top),
                            key=lambda a: -a[1])
            self._emit(out, "correction", {"play": i, "card": top, "before": None,
                                           "uncertain": True, "alternatives": others[:3]})
            self._early[i] = top
            # (never seen plainly: it neither keeps its trick on the table nor dates a sweep)
            self.tracks.append(CardTrack(None, seat, self._now, float("-inf"), state="played",
                                         card=top, votes=dict(votes), hinted=True))

    def _provisional(self) -> dict[int, str]:
        """The plays named from weak readings (`_name_early`) whose card has not been read
        plainly since nor corrected: play index -> card."""
        return {i: card for i, card in self._early.items()
                if self.view.plays[i][1] == card and (track := track_of(self.tracks, card))
                is not None and track.hinted}

    def _name_unread(self, out: list[Event]) -> None:
        """The deal is over: each unread card the rest of the deal proves is written in as a
        correction, marked deduced (the referee sees which ones). When the rules leave several
        ways, the one the weak readings where those cards lay favour is written in, uncertain,
        with those readings' shares as alternatives; so is the way they favour clearly over
        the rules' one when it breaks one rule more at most (`dealt_otherwise`). Either may give
        way to the card its own weak readings clearly favour, recorded at another play that was
        misread (`_swap`)."""
        view = self.view
        early = self._provisional()
        hints = {i: self._hints[(i // 4, seat)] for i, (seat, card) in enumerate(view.plays)
                 if (card is None or i in early) and (i // 4, seat) in self._hints}
        proven, hinted = view.deduced(hints, reopen=early)
        if (otherwise := dealt_otherwise(view, proven, hints)) is not None:
            proven = [(i, card) for i, card in proven if i not in otherwise]
            hinted += [(i, card, {c: round(v, 3) for c, v in by_share(hints[i])})
                       for i, card in otherwise.items()]
        named = dict(proven) | {i: card for i, card, _shares in hinted}
        for i, before in early.items():  # named in doubt from weak readings: judged again
            if named.get(i, before) != before:
                self._emit(out, "correction", {"play": i, "card": named[i], "before": before,
                                               "uncertain": True})
                if (track := track_of(self.tracks, before)) is not None:
                    track.card = named[i]
        # A card an early name keeps is no other play's (those stay unread).
        kept = {card for i, card in early.items() if named.get(i, card) == card}
        proven = [(i, card) for i, card in proven if i not in early and card not in kept]
        hinted = [h for h in hinted if h[0] not in early and h[1] not in kept]
        named = dict(proven) | {i: card for i, card, _shares in hinted}
        for i, card in proven:
            swapped = self._swap(i, card, hints.get(i, {}), named, out)
            self._emit(out, "correction", {"play": i, "card": named[i], "before": None,
                                           "deduced": True, **({"uncertain": True} if swapped
                                                               else {})})
        for i, card, shares in hinted:
            self._swap(i, card, hints.get(i, {}), named, out)
            others = sorted(([c, p] for c, p in shares.items() if c != named[i]),
                            key=lambda a: -a[1])
            self._emit(out, "correction", {"play": i, "card": named[i], "before": None,
                                           "uncertain": True, "alternatives": others[:3]})

    def _swap(self, index: int, deduced: str, hints: Mapping[str, float],
              named: dict[int, str], out: list[Event]) -> bool:
        """Name unread play `index` (`named` by the rules as `deduced`, like every unread play)
        the card its weak readings favour most, renaming the plays of `swap_chain`, when the
        pictures' odds favour that (`picture_odds`) and it breaks no more rules (the card they
        favour most of those some renaming could give it; a card they favour less must break
        fewer, and so must one they favour over the deduced one by less than SWAP_FAVOUR unless
        both pictures' odds do): the renamed
        plays are written in as uncertain corrections (the referee checks them) and
        `named[index]` is changed; the caller writes in the unread play."""
        view = self.view
        favoured = favoured_over(hints, deduced, WEAK_FAVOUR)  # (the clearly favoured first)
        clearly = set(favoured_over(hints, deduced))
        if not favoured:
            return False
        filled = [(seat, card or named.get(i)) for i, (seat, card) in enumerate(view.plays)]
        if any(card is None for _seat, card in filled):
            return False  # (an unread card not named: the rules cannot be counted)
        before = view.rules_broken(filled)
        if before is None:
            return False
        total = sum(hints.values())
        most_favoured = True  # (of the cards some renaming could give it)
        for card_favoured in favoured:
            swapped = swap_chain(view, self.tracks, index, deduced, card_favoured)
            odds = 0.0 if swapped is None else picture_odds(view, self.tracks, swapped, hints,
                                                            deduced)
            chains = [swapped] if swapped is not None and odds > 1.0 else []
            votes = hints[card_favoured]
            if votes >= SURE_VOTES and votes >= SURE_SHARE * total:
                chains.append(given_up(view, self.tracks, index, deduced, card_favoured))
            # (favoured weakly, it must break fewer rules unless both pictures favour it)
            ties = most_favoured and (card_favoured in clearly or odds >= SWAP_FAVOUR)
            chain = next((c for c in chains if c is not None
                          and breaks_no_more(view, filled, c, before, ties)), None)
            if chain is not None:
                break
            most_favoured = most_favoured and swapped is None and not any(chains)
        else:
            return False
        for i, card in reversed(chain[1:]):  # (each card is free when it is written in)
            old = view.plays[i][1]
            track = track_of(self.tracks, old or "")
            self._emit(out, "correction", {"play": i, "card": card, "before": old,
                                           "uncertain": True})
            if track is not None:
                track.card = card
        named[index] = chain[0][1]
        return True
