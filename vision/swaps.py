"""The deal's end, when an unread card's readings say another play was the misread one.

An unread play is deduced from the rest of the deal (`engine.deduce`), yet its weak readings (and
its plain readings of a card recorded elsewhere) may clearly favour a card recorded at another
play: that play may be the misread one. These functions find the renamings that would give the
unread play that card (`swap_chain`, `given_up`) and judge them by the odds the pictures give
(`picture_odds`) and by the rules (`breaks_no_more`);
`UnreadNaming._swap` writes them in. Likewise the rules may deal the unread cards out among the
unread plays one way while their weak readings clearly say another (`dealt_otherwise`). And once
every play is named, two plays whose cards, swapped, break fewer rules are swapped when one read
the other's card nearly as often as its own and the other's name rests on next to no picture
(`misread_pair`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

from vision.card_track import CardTrack, track_of
from vision.deal_view import HINT_MARGIN, DealView

# An unread card deduced at the deal's end whose weak readings favour a card recorded elsewhere
# this many times over the deduced one: that play may be the misread (`swap_chain`).
SWAP_FAVOUR = 3.0
# ... or by less, yet more than the deduced one, when the renamings break fewer rules: the rules
# judge between two pictures that nearly agree (seed 2058: W's QC read QS 0.69, QC 0.31, and S's
# unread QS read weakly QS 2.3 times as often as QC; read so, S trumped and won the trick that
# S then led, where the record had W win it and S lead out of turn); or no more rules when both
# pictures together favour the renamings SWAP_FAVOUR times (seed 2059: N's 9C, recorded 8C from
# its first frames, read 9C 5.8 times as often as 8C in all; W's unread 8C read 8C twice as
# often as 9C).
WEAK_FAVOUR = 1.0
FAVOURED_SHARE = 0.1  # ... and with this share of those readings' votes at least
SWAP_SHARE = 0.05  # ... a play may take another reading with this share of its votes
SWAP_DEPTH = 3
# ... or, when no such chain breaks no more rules, the play takes the deduced card without a
# reading of it: when it was recorded with its name in doubt and the unread play's readings are
# this share of votes for its card, SURE_VOTES at least (several frames): a deck holds one
# card of each, and the surer reading wins (`given_up`).
SURE_SHARE = 0.8
SURE_VOTES = 5.0
# A recorded card read as another this share of its votes at least, that card recorded at a play
# named on under NIL_SHARE of its own votes (its readings taken by plainer ones, or none): the two
# are swapped when that breaks fewer rules (`misread_pair`).
PAIR_SHARE = 0.3
NIL_SHARE = 0.1
# The unread cards the rules deal out one way go the way the weak readings where they lay favour
# by this many votes (several frames each) when it breaks one rule more at most: the rules
# prefer the story where nobody broke one, and a revoke proven by a later unread card would be
# explained away against what the camera saw (`dealt_otherwise`).
OTHERWISE_VOTES = 3.0


def swap_chain(view: DealView, tracks: Sequence[CardTrack], index: int, deduced: str,
               favoured: str) -> list[tuple[int, str]] | None:
    """Unread play `index` is deduced `deduced`, yet its weak readings favour `favoured`, a card
    recorded at another play: that play may be the misread one. The renamings (play, card) that
    give `index` the favoured card, the play that held it one of its own other readings, and so
    on until one takes `deduced` (a card read QH, truly QD, leaves QD to an unread play whose
    picture said QH); None when no such chain exists."""
    where = {card: i for i, (_seat, card) in enumerate(view.plays) if card is not None}
    chain, card = [(index, favoured)], favoured
    for _ in range(SWAP_DEPTH):
        track = track_of(tracks, card)
        if card not in where or track is None:
            return None
        others = [c for c, share in track.readings() if c != card and share >= SWAP_SHARE]
        if deduced in others:
            return [*chain, (where[card], deduced)]
        taken = {c for _i, c in chain}
        card_next = next((c for c in others if c in where and c not in taken), None)
        if card_next is None:
            return None
        chain.append((where[card], card_next))
        card = card_next
    return None


def given_up(view: DealView, tracks: Sequence[CardTrack], index: int, deduced: str,
             favoured: str) -> list[tuple[int, str]] | None:
    """The renamings that give unread play `index` the card `favoured` and the play that
    recorded it in doubt (`CardTrack.name_doubted`) `deduced`; None when it was read surely."""
    track = track_of(tracks, favoured)
    where = view.play_of(favoured)
    if track is None or where is None or not track.name_doubted:
        return None
    return [(index, favoured), (where, deduced)]


def picture_odds(view: DealView, tracks: Sequence[CardTrack], chain: list[tuple[int, str]],
                 hints: Mapping[str, float], deduced: str) -> float:
    """How many times the pictures favour the renamings `chain`: the odds the unread play's
    weak readings give its new card over `deduced`, times each renamed play's own odds of its
    new card over its old one; above one, the likelier story (seed 2047: a 9C read plainly,
    8C at 6% of its votes, is not renamed 8C because an unread 8C read weakly as 9C 3.6 times
    as often as 8C)."""
    odds = hints.get(chain[0][1], 0.0) / max(hints.get(deduced, 0.0), 1e-9)
    for i, card in chain[1:]:
        old = view.plays[i][1]
        track = track_of(tracks, old or "")
        if track is not None:
            odds *= track.odds(card, old or "")
    return odds


def favoured_over(hints: Mapping[str, float], deduced: str,
                  factor: float = SWAP_FAVOUR) -> list[str]:
    """The cards the weak readings of an unread play favour `factor` times over `deduced` (and
    more than it), each with FAVOURED_SHARE of their votes at least, the most favoured first."""
    own = hints.get(deduced, 0.0)
    floor = max(factor * own, FAVOURED_SHARE * sum(hints.values()))
    return [c for c, votes in sorted(hints.items(), key=lambda kv: -kv[1])
            if c != deduced and votes > own and votes >= floor]


def breaks_no_more(view: DealView, filled: Sequence[tuple[str, str | None]],
                    chain: list[tuple[int, str]], before: int, most_favoured: bool) -> bool:
    """Whether the plays `filled` renamed by `chain` break fewer rules than `before`, or as
    many when the chain gives the unread play the card its readings favour most."""
    swapped = list(filled)
    for i, card in chain:
        swapped[i] = (swapped[i][0], card)
    after = view.rules_broken(swapped)
    return after is not None and (after < before or (most_favoured and after == before))


def misread_pair(view: DealView, tracks: Sequence[CardTrack],
                 hints: Mapping[int, Mapping[str, float]]) -> list[tuple[int, str]] | None:
    """The deal's end, every play named: two plays whose cards, swapped, break fewer rules, when
    the first reads the second's card PAIR_SHARE of its votes and the second's name rests on
    next to no picture of it (NIL_SHARE of its votes, or of its weak readings, `hints`: play ->
    {card: votes}, when it was never read plainly); the renamings (play, card) of the swap
    breaking the fewest, else None. Seed 2074 deal 12 (ancient French): W's QD read QH 0.57 /
    QD 0.41; N's QH read KH 0.62 / JH 0.33, both played plainly elsewhere, so N's was named QD
    on 0.03 of its votes: W then failed to follow diamonds and N hearts, two false revokes."""
    plays = [(seat, card) for seat, card in view.plays if card is not None]
    before = view.rules_broken(plays) if len(plays) == len(view.plays) else None
    if not before:
        return None
    best: tuple[int, float, list[tuple[int, str]]] | None = None
    for i, (_seat, card) in enumerate(plays):
        track = track_of(tracks, card)
        for other, share in track.readings() if track is not None else ():
            j = view.play_of(other)
            if other == card or share < PAIR_SHARE or j is None:
                continue
            held = track_of(tracks, other)
            votes = held.votes if held is not None and held.votes else hints.get(j, {})
            if votes.get(other, 0.0) >= NIL_SHARE * sum(votes.values()) > 0.0:
                continue
            swapped = list(plays)
            swapped[i], swapped[j] = (plays[i][0], other), (plays[j][0], card)
            after = view.rules_broken(swapped)
            if after is not None and after < before and (best is None
                                                         or (after, -share) < best[:2]):
                best = (after, -share, [(i, other), (j, card)])
    return None if best is None else best[2]


def dealt_otherwise(view: DealView, proven: Sequence[tuple[int, str]],
                    hints: Mapping[int, Mapping[str, float]]) -> dict[int, str] | None:
    """The unread plays `proven` (index, card) by the rules (or named among their ties), their
    cards dealt out another way among the plays with weak readings (`hints`: index -> {card:
    votes}), when those readings favour it by OTHERWISE_VOTES over the rules' way (and by
    HINT_MARGIN over any other way) and it breaks one rule more at most: {index: card} for the
    plays that change, else None."""
    where = [i for i, _card in proven if i in hints]
    if len(where) < 2:
        return None
    cards = tuple(card for i, card in proven if i in hints)

    def votes(dealt: tuple[str, ...]) -> float:
        return sum(hints[i].get(card, 0.0) for i, card in zip(where, dealt, strict=True))

    ranked = sorted(permutations(cards), key=votes, reverse=True)
    best = ranked[0]
    if best == cards or votes(best) < votes(cards) + OTHERWISE_VOTES \
            or votes(best) - votes(ranked[1]) < HINT_MARGIN:
        return None
    filled = dict(proven)
    plays = [(seat, filled.get(i, card)) for i, (seat, card) in enumerate(view.plays)]
    before = view.rules_broken(plays)
    for i, card in zip(where, best, strict=True):
        plays[i] = (plays[i][0], card)
    after = view.rules_broken(plays)
    if before is None or after is None or after > before + 1:
        return None
    return {i: card for i, card, old in zip(where, best, cards, strict=True) if card != old}
