"""A card recorded twice: a deck holds one of each card, so when a card read clearly was
recorded earlier, one of the two readings is wrong. Part of the tracker's corrections
(`vision.reading_fixes`), which writes what these decide.

Two moments ask it:
- a card clearly seen landing reads as a card already recorded (`card_seen_twice`): the earlier
  play is renamed when its own votes say what it was (and another play of its trick, when the
  rules need it to keep who won that trick); asked again, with its readings then, of a play
  recorded as another card (its own best reading taken) once it reads that card surely
  (`ReadingFixes._recall_recorded`);
- a play whose votes, by the time its trick is gathered, favour a card recorded at another play
  (`recorded_twice`; its first frames, under the hand, read another card): both are renamed when
  the two pictures' odds favour that (and a third play of the earlier trick, when the rules
  need it to keep who won that trick).
And a card read surely that was recorded surely is that card seen again (`seen_again`).
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.card_track import CardTrack, track_of
from vision.deal_view import DealView, ruled_out
from vision.geometry import SEATS
from vision.leads import next_lead_fits

# A gathered play's votes favour a card recorded elsewhere by this share at least, before the
# two plays are weighed against each other (`recorded_twice`).
SETTLED_SHARE = 0.6

# A box read mostly as a card recorded in another seat's place, lying there at the same time, is
# another card when its next reading not played has this share of its votes (`beside_itself`).
BESIDE_SHARE = 0.1

# The odds a card read `share_now` clearly gives its name against any other are taken as at most
# 0.95 / 0.05 (`card_seen_twice`).
NOW_FLOOR = 0.05

Fix = tuple[int, str, CardTrack]  # play index, its right card, its track


def seen_again(view: DealView, tracks: Sequence[CardTrack], tr: CardTrack,
               sure_conf: float) -> bool:
    """Whether `tr` reads surely a card recorded surely in the last trick gathered: that card
    seen again (seed 2064 deal 1: the AC of that trick, lying still at the felt's edge in S's
    place), which says nothing about who leads (`ReadingFixes._mend_leader`). A card of an
    earlier trick is long swept: `tr` is another card misread (seed 2104 deal 12: W's QD,
    leading, read QH 0.78, S's QH of trick 3)."""
    card = tr.readings()[0][0]
    old, index = track_of(tracks, card), view.play_of(card)
    return old is not None and not old.name_doubted and not old.hinted \
        and index is not None and index >= 4 * (view.gathered - 1) and tr.read_surely(sure_conf)


def card_seen_twice(view: DealView, tracks: Sequence[CardTrack], card: str,
                    share_now: float, rival: float = 0.0, but: str | None = None) -> list[Fix]:
    """`card` is clearly seen landing (`share_now` of its votes), yet was recorded before: the
    earlier play, its right card and its track, when its own picture has since come to read as
    another card, or it was read less surely than this one and its second reading, a card not
    played yet, was a real contender (`CardTrack.misread_as`) at least as strong as the new
    card's own other reading (`rival`, its share: then the new card is likelier the misread).
    Not when the earlier play's trick is gone and that reading would have let another seat win
    it than the one whose card, read, led the next (`next_lead_fits`), unless another play of
    that trick read otherwise lets the right seat win it again and the pictures' odds favour
    the renamings (`_companion`; the new card's odds are its share against the rest): then
    that play's renaming comes first. Seed 2184 deal 12, gnome-ancient_french at 640x480: the
    first trick's clubs all read as spades, W's 7C 7S 0.55 / 7C 0.42, E's TC TS 0.62 / TC 0.31;
    E's TS, read 0.95 in a later trick, was recorded unread, as TC alone let N's 9S win.
    `but`: a card counted as not played (the one the new card was recorded as, if it was)."""
    old = track_of(tracks, card)
    if old is None:
        return []
    best = old.misread_as(card, share_now, view.played - {but} if but else view.played)
    if best is None or dict(old.readings()).get(best, 0.0) < rival:
        return []
    index = view.play_of(card)
    assert index is not None  # (its track was recorded as `card`)
    if _leads_otherwise(view, index, card, best):
        odds = old.odds(best, card) * share_now / max(1.0 - share_now, NOW_FLOOR)
        third = _companion(view, tracks, index, best, odds, taken={card, best})
        return [third, (index, best, old)] if third is not None else []
    return [(index, best, old)]


def beside_itself(view: DealView, tracks: Sequence[CardTrack],
                  tr: CardTrack) -> list[tuple[str, float]]:
    """`tr`'s readings, less its best one when that card lies recorded in another seat's place
    at the same time: a deck holds one, so one of the two is misread, and `tr`, lying in a
    seat's place, is a play all the same: its next reading not played, when that has
    BESIDE_SHARE of the votes (seed 2085 deal 8: N's QD, put down beside E's QH read QH 0.61,
    read QH 0.75 / QD 0.19, was taken for E's card seen again, and the deal shifted). Likewise
    when that card was swept with its trick before `tr` came, `tr` lying where the seat whose
    turn it is plays (`_swept_before`)."""
    readings = tr.readings()
    top = readings[0][0]
    old = next((o for o in tracks if o.state == "played" and o.card == top), None)
    if (old is None or old.zone == tr.zone or tr.zone not in SEATS or old.zone not in SEATS
            or old.present < tr.first_seen) and not _swept_before(view, tracks, tr, top):
        return readings
    left = view.unplayed(readings[1:])
    return readings[1:] if left and left[0][1] >= BESIDE_SHARE else readings


def _swept_before(view: DealView, tracks: Sequence[CardTrack], tr: CardTrack, top: str) -> bool:
    """Whether `tr`, first seen after the card it reads best (`top`) was swept with its trick, lies
    in the place of the seat whose turn it is: that card is gone, so `tr` is the seat's card
    misread, a play all the same (seed 2205 deal 11 read by session 69's box model: W's KC,
    leading, read JC 0.70 / KC 0.19, W's JC of the trick just gathered; taken for a card
    played, the lead stayed unread until the deal's end)."""
    old = next((o for o in tracks if o.state == "gathered" and o.card == top), None)
    return old is not None and old.last_seen < tr.first_seen and tr.zone == view.turn


def recorded_twice(view: DealView, tracks: Sequence[CardTrack], track: CardTrack) -> list[Fix]:
    """`track`, a play of the trick being gathered, was recorded as one card, yet its votes
    have come to favour (SETTLED_SHARE) a card recorded at another play: the two renamings,
    the earlier play's first (to its best other reading, a card not played or the one `track`
    gives up), when the odds of both pictures favour them, `track`'s votes for the card over
    its recorded one times the other play's for its other reading over the card, above one
    (seed 2049: E's 9S read TS from five frames, TS 0.66 / 9S 0.12; E's real TS, recorded 8S
    in doubt as it landed, then read TS 0.93 / 8S 0.05 over 44 frames). None (empty) when
    the rules rule out that weak other reading, or when the earlier play's trick is gone and
    that reading would have let another seat win it than the one that led the next, unless
    another play of that trick read otherwise lets the right seat win it again and the three
    pictures' odds still favour the three renamings (`_companion`)."""
    top, share = track.readings()[0]
    if track.card is None or top == track.card or share < SETTLED_SHARE:
        return []
    old = track_of(tracks, top)
    index, at = view.play_of(top), view.play_of(track.card)
    if old is None or old is track or index is None or at is None:
        return []
    others = [(c, v) for c, v in view.unplayed(old.readings(), but=track.card) if c != top]
    if not others:
        return []
    best, best_share = others[0]
    odds = old.odds(best, top) * track.odds(top, track.card)
    possible = view.possible_at(index, view.plays[index][0])  # (a weak reading yields to them)
    if odds <= 1.0 or ruled_out(best, best_share, possible):
        return []
    fixes = [(index, best, old), (at, top, track)]
    if _leads_otherwise(view, index, top, best):
        third = _companion(view, tracks, index, best, odds, taken={top, best})
        return [third, *fixes] if third is not None else []
    return fixes


def _companion(view: DealView, tracks: Sequence[CardTrack], index: int, best: str,
               odds: float, taken: set[str]) -> Fix | None:
    """Another play of gathered play `index`'s trick, renamed to another reading of its own (a
    card not played, none of `taken`), with which `index` read `best` lets the seat that led
    the next trick win it, when its odds times `odds` still favour the renamings: the likeliest
    (seed 2142 deal 8 read by session 42's box model: W's AC recorded AD, S's TC recorded TS in
    the same trick; N's AD, read AD 0.89 later, could not be named while W held the AD, and
    W's AC alone would have let S, not W, win that trick)."""
    first = 4 * (index // 4)
    nxt = view.plays[first + 4][0] if len(view.plays) > first + 4 else None
    found: tuple[float, Fix] | None = None
    for j in range(first, min(first + 4, len(view.plays))):
        card = view.plays[j][1]
        if j == index or card is None:
            continue
        other = track_of(tracks, card)
        if other is None:
            continue
        possible = view.possible_at(j, view.plays[j][0])
        for alt, alt_share in view.unplayed(other.readings(), but=card):
            if alt == card or alt in taken or ruled_out(alt, alt_share, possible):
                continue
            total = odds * other.odds(alt, card)
            leaders = view.leaders_if({index: best, j: alt})
            if total > 1.0 and leaders is not None and nxt in leaders \
                    and (found is None or total > found[0]):
                found = (total, (j, alt, other))
    return found[1] if found is not None else None


def _leads_otherwise(view: DealView, index: int, card: str, other: str) -> bool:
    """Whether gathered play `index` read `other` instead of `card` would have let another seat
    win its trick than the one whose card, read, led the next."""
    return index < 4 * view.gathered and next_lead_fits(view, index, card) \
        and not next_lead_fits(view, index, other)
