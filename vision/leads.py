"""Who led the trick on the table: the last trick's readings against the order of the next cards.

The seats that may lead come from the readings of the trick gathered before (`DealView.leaders`).
A misread card there names the wrong winner; the next cards then come in an order that says
another seat led. These functions weigh the two: whether another reading of a card of the last
trick would let another seat lead (`leader_in_doubt`), the one that makes a given seat the
winner (`trick_won_by`), whether a correction keeps the next trick's lead (`next_lead_fits`),
and the order the cards came in (`seats_in_turn`, `in_turn_from`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from vision.card_track import CardTrack, track_of
from vision.deal_view import DealView

# Another reading of a card of the last trick, with this share of its votes at least, that would
# make another seat its winner leaves the next lead in doubt, which the order of the next cards
# may settle (`leader_in_doubt`, `trick_won_by`). (Set 2040: a 9 read as a 7 kept 8% of its
# votes for the 9; at 10% the 9 was ignored and four plays shifted.)
FAINT_SHARE = 0.05
# Another reading of a play of an earlier trick, freeing its card for an unread play of the last
# trick, needs this share of the votes (`_freeing_readings`): a real second reading.
OLDER_SHARE = 0.25


def trick_won_by(view: DealView, tracks: Sequence[CardTrack], seat: str,
                 lying: frozenset[str] = frozenset(), least: float = FAINT_SHARE,
                 sure_conf: float = 0.6) -> list[tuple[int, str, CardTrack]]:
    """The likeliest other reading of a card of the last trick gathered (`_other_readings`: a
    card not played elsewhere, or two cards of that trick swapped), with `least` of its votes,
    that lets `seat` lead now:
    its renamings (play, card, track), or none when there is none or two tie. When several
    would, the seats' order is worth more than which card was misread (a later sighting of
    either may still correct it: set 2045, readings of 0.36 and 0.32 each made the same seat
    the winner; taking neither shifted four plays out of turn). Never a card read surely lying
    there for the next trick (`lying`: seed 2056, E's KS lay leading it; giving E's play of the
    last trick back its misreading KS, so that E won, only made that KS seen twice again). A
    reading of a card read in doubt goes before any of a card read surely (`sure_conf`,
    `CardTrack.read_surely`), whatever their shares: seed 2116 deal 5, E's 7C read surely (7S
    0.29 of its votes) was renamed, not W's QC read QS in doubt (QC 0.23)."""
    start = 4 * view.gathered
    found = sorted(((any(o.read_surely(sure_conf) for o in owners), share, renamed, owners)
                    for share, renamed, owners in _other_readings(view, tracks, older=True)
                    if share >= least and not lying & set(renamed.values())
                    and seat in (view.leaders_if(renamed, start) or ())),
                   key=lambda f: (f[0], -f[1]))
    if not found or (len(found) > 1 and found[0][:2] == found[1][:2]):
        return []
    _sure, _share, renamed, owners = found[0]
    return [(i, card, track) for (i, card), track in zip(renamed.items(), owners, strict=True)]


def _other_readings(view: DealView, tracks: Sequence[CardTrack], older: bool = False
                    ) -> Iterator[tuple[float, dict[int, str], list[CardTrack]]]:
    """(share, renamings {play: card}, their tracks): each other reading of a card of the last
    trick gathered with FAINT_SHARE of its track's votes, a card not played elsewhere; or the
    card of another play of that trick whose track reads this one's card as often (FAINT_SHARE):
    the two swapped, at the lesser share (seed 2080 deal 10: E's 8C read 9C 0.82 / 8C 0.16 and
    N's 9C read 8C 0.53 / 9C 0.34; N's 9C won the trick, not E's, and N led the next). With
    `older`, when a play of that trick is unread, also each other reading of a play of an
    earlier trick (OLDER_SHARE), which frees its card for the unread one (seed 2100 deal 12:
    W's QD read QH 0.61 / QD 0.37 in trick 3; S's QH, leading trick 7, never read, could then
    only have won it, and N's lead of trick 8 was held until S's card came, out of turn)."""
    start = 4 * view.gathered
    trick = range(max(start - 4, 0), start)
    if older and any(view.plays[i][1] is None for i in trick):
        yield from _freeing_readings(view, tracks, start - 4)
    for index, card, track in _tracked_plays(view, tracks, trick):
        readings = track.readings()
        # Votes for a card played in another trick are votes for nothing this card can be: the
        # others' shares are weighed among the cards it may be (seed 2090 deal 19: E's KC read
        # JC 0.62, played before, JS 0.31, KC 0.05; KC is 0.13 of what it may be).
        may_be = sum(share for other, share in readings
                     if other not in view.played or view.play_of(other) in trick)
        for other, share in readings:
            share = share / may_be if may_be > 0 else 0.0
            if other == card or share < FAINT_SHARE:
                continue
            if other not in view.played:
                yield share, {index: other}, [track]
            elif (mate_at := view.play_of(other)) is not None and mate_at in trick \
                    and mate_at > index \
                    and (mate := track_of(tracks, other)) is not None \
                    and (back := dict(mate.readings()).get(card, 0.0)) >= FAINT_SHARE:
                yield min(share, back), {index: other, mate_at: card}, [track, mate]


def _freeing_readings(view: DealView, tracks: Sequence[CardTrack], end: int
                      ) -> Iterator[tuple[float, dict[int, str], list[CardTrack]]]:
    """Each other reading, a card not played, of a play before `end` with OLDER_SHARE of the
    votes for the cards it may be (itself, or not played)."""
    for index, card, track in _tracked_plays(view, tracks, range(end)):
        readings = track.readings()
        may_be = sum(share for other, share in readings
                     if other == card or other not in view.played)
        for other, share in readings:
            if other != card and other not in view.played and may_be > 0 \
                    and share / may_be >= OLDER_SHARE:
                yield share / may_be, {index: other}, [track]


def _tracked_plays(view: DealView, tracks: Sequence[CardTrack], indices: range
                   ) -> Iterator[tuple[int, str, CardTrack]]:
    """(index, card, track) of the plays at `indices` read and tracked (an unread play, or one
    without a track, has no other reading)."""
    for index in indices:
        card = view.plays[index][1]
        track = None if card is None else track_of(tracks, card)
        if card is not None and track is not None:
            yield index, card, track


def next_lead_fits(view: DealView, index: int, card: str) -> bool:
    """Whether gathered play `index` being `card` lets the seat of the next trick's first card
    lead it (True while that card is not read, or when the engine cannot say)."""
    start = 4 * (index // 4 + 1)
    if len(view.plays) <= start or view.plays[start][1] is None:
        return True
    found = view.leaders_if({index: card})
    return found is None or view.plays[start][0] in found


def leader_in_doubt(view: DealView, tracks: Sequence[CardTrack]) -> bool:
    """Whether another reading of a card of the last trick gathered (`_other_readings`) would
    let another seat lead now."""
    now = view.leaders()
    return any(view.leaders_if(renamed) != now for _s, renamed, _t in _other_readings(view, tracks))


def seats_in_turn(view: DealView, lying: Sequence[CardTrack],
                  glimpsed: dict[str, float] | None = None) -> list[str] | None:
    """The seats of the cards lying, in the order they came (or something was first seen in
    their places, `glimpsed`), when that is the seats' turn from the first of them; else None."""
    glimpsed = glimpsed or {}
    seats = [o.zone for o in sorted(lying, key=lambda o: min(o.first_seen,
                                                             glimpsed.get(o.zone, o.first_seen)))]
    return seats if seats and seats == view.order_from(seats[0])[:len(seats)] else None


def in_turn_from(view: DealView, lying: Sequence[CardTrack], seat: str,
                 leaders: set[str]) -> bool:
    """Whether the cards lying (held) came from `seat` and the seats after it, in turn, two or
    more of them, while every seat that may lead would leave two or more seats before them
    unread: the order of the cards says `seat` led, not the last trick's readings."""
    seats = seats_in_turn(view, lying)
    if seats is None or len(seats) < 2 or seats[0] != seat:
        return False
    for leader in leaders:
        order = view.order_from(leader)
        if max(order.index(z) for z in seats) + 1 - len(seats) < 2:
            return False  # that leader explains them with one card unread at most
    return True
