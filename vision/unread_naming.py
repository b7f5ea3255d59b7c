"""Naming the plays the camera saw but could not read. Part of the table tracker
(`vision.tracker.TableTracker` mixes it in), which writes the names as `correction` events.

- As the deal goes on, the weak readings in an unread play's place may name it, in doubt: while
  its trick lies there, or later, once the cards played since leave one card clearly favoured
  among those the rules allow there (`_name_early`).
- At the deal's end, the rest of the deal proves each unread card or leaves several ways; the
  weak readings choose among them, and may say that a card recorded at another play was the
  misread one (`_swap`, `vision.swaps`). When they choose no way, the way in which every unread
  play whose pictures favour a card recorded elsewhere (several frames) can take it, renaming
  the misread plays, is taken (`_way_by_pictures`; seeds 2066 and 2067). Last, two plays the
  rules and a near-even reading say were swapped are swapped back (`_swap_pair`; seed 2074).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from vision.card_track import CardTrack, track_of
from vision.deal_view import DealView
from vision.swaps import (
    SURE_SHARE,
    SURE_VOTES,
    SWAP_FAVOUR,
    WEAK_FAVOUR,
    breaks_no_more,
    dealt_otherwise,
    favoured_over,
    given_up,
    misread_pair,
    picture_odds,
    swap_chain,
)
from vision.votes import alternatives, vote_shares

Event = dict[str, Any]
Chain = list[tuple[int, str]]  # (play, card): the unread play first, then the plays renamed

# An unread play is named, in doubt, from its weak readings when the card they favour most is not
# played yet and has EARLY_SHARE of the votes of the cards the rules allow there, EARLY_VOTES at
# least (several frames): the record shows it within seconds, or as soon as the cards played
# since rule out its rivals, not at the deal's end (`_name_early`).
EARLY_SHARE = 0.6
EARLY_VOTES = 2.0


class UnreadNaming:
    """The tracker's naming of unread plays (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    _hints: dict[tuple[int, str], dict[str, float]]
    _early: dict[int, str]  # unread plays named from weak readings (`_name_early`)
    _early_fit: dict[tuple[int, int, int], set[str] | None]
    _now: float

    if TYPE_CHECKING:  # provided by TableTracker
        def _emit(self, out: list[Event], kind: str, data: Mapping[str, Any], **extra: Any) -> None:
            ...

    def _name_early(self, out: list[Event]) -> None:
        """Each unread play of the deal (every frame, and as its trick is gathered) whose weak
        readings favour most a card not played yet that breaks no more rules there than any
        other unseen card would (`DealView.least_broken`, judged again for each play recorded),
        by EARLY_SHARE of the readings of such cards, is named now, uncertain, with their other
        readings as alternatives. A play of a trick gone is named once the cards played since
        leave its favourite that share (seed 2145 deal 19: N's QS, read QS 24 / JS 23 votes,
        was named when N played the JS, 30 s after it settled, not at the deal's end, 36 s;
        12 sets of seeds 2140-2160: 9 of the 19 cards named at the deal's end named sooner,
        none wrongly). A track holding those readings (`hinted`, no box) stands for it: the
        card read plainly in its place confirms it (`_commit` merges them) or renames it
        (`_fill_unread`); seen clearly elsewhere, it is corrected as any misread (`_recall`);
        else the deal's end judges it again."""
        view = self.view
        for i in view.unread:
            seat, _card = view.plays[i]
            hints = self._hints.get((i // 4, seat), {})
            if not hints:
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
            others = alternatives(vote_shares(votes).items(), top)
            self._emit(out, "correction", {"play": i, "card": top, "before": None,
                                           "uncertain": True, "alternatives": others})
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
        hints = {i: h for i, h in self._play_hints().items()
                 if view.plays[i][1] is None or i in early}
        proven, hinted, ways = view.deduced(hints, reopen=early)
        if ways:  # (the rules leave several ways and the weak readings chose none)
            hinted = self._way_by_pictures(ways, hints)
        # (the rules' way: proven, or among their ties; seed 2101 deal 2, a revoke explained away)
        rules_way = proven + [(i, card) for i, card, _shares in hinted]
        if (otherwise := dealt_otherwise(view, rules_way, hints)) is not None:
            proven = [(i, card) for i, card in proven if i not in otherwise]
            hinted = [h for h in hinted if h[0] not in otherwise]
            hinted += [(i, card, vote_shares(hints[i]))
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
            self._emit(out, "correction", {"play": i, "card": named[i], "before": None,
                                           "uncertain": True,
                                           "alternatives": alternatives(shares.items(), named[i])})
        self._swap_pair(out)

    def _play_hints(self) -> dict[int, dict[str, float]]:
        """The weak readings in each play's place during its trick (`_hints`), by play index."""
        return {i: self._hints[(i // 4, seat)] for i, (seat, _card) in enumerate(self.view.plays)
                if (i // 4, seat) in self._hints}

    def _swap_pair(self, out: list[Event]) -> None:
        """Every play named: two whose cards the rules and a near-even reading say were
        swapped (`misread_pair`) are written in the other way round, uncertain."""
        pair = misread_pair(self.view, self.tracks, self._play_hints())
        if pair is None:
            return
        before = {i: self.view.plays[i][1] for i, _card in pair}
        moved = [(track_of(self.tracks, before[i] or ""), card) for i, card in pair]
        for i, card in pair:
            self._emit(out, "correction", {"play": i, "card": card, "before": before[i],
                                           "uncertain": True})
        for track, card in moved:
            if track is not None:
                track.card = card

    def _swap(self, index: int, deduced: str, hints: Mapping[str, float],
              named: dict[int, str], out: list[Event]) -> bool:
        """Name unread play `index` (`named` by the rules as `deduced`, like every unread play)
        the card its weak readings favour most, renaming the plays of its chain (`_plan_swap`):
        the renamed plays are written in as uncertain corrections (the referee checks them) and
        `named[index]` is changed; the caller writes in the unread play."""
        planned = self._plan_swap(index, deduced, hints, named)
        if planned is None:
            return False
        chain, _odds = planned
        for i, card in reversed(chain[1:]):  # (each card is free when it is written in)
            old = self.view.plays[i][1]
            track = track_of(self.tracks, old or "")
            self._emit(out, "correction", {"play": i, "card": card, "before": old,
                                           "uncertain": True})
            if track is not None:
                track.card = card
        named[index] = chain[0][1]
        return True

    def _plan_swap(self, index: int, deduced: str, hints: Mapping[str, float],
                   named: Mapping[int, str]) -> tuple[Chain, float] | None:
        """The renamings (`swap_chain`, or `given_up`) that give unread play `index`, named
        `deduced`, the card its weak readings favour most, with the odds the pictures give them,
        when those odds favour them (`picture_odds`) and they break no more rules (the card
        they favour most of those some renaming could give it; a card they favour less must
        break fewer, and so must one they favour over the deduced one by less than SWAP_FAVOUR
        unless both pictures' odds do); of two such chains, the second only when its odds are
        SWAP_FAVOUR times the first's. None when there is none."""
        view = self.view
        favoured = favoured_over(hints, deduced, WEAK_FAVOUR)  # (the clearly favoured first)
        clearly = set(favoured_over(hints, deduced))
        if not favoured:
            return None
        filled = [(seat, card or named.get(i)) for i, (seat, card) in enumerate(view.plays)]
        before = view.rules_broken(filled)
        if before is None:
            return None  # (or an unread card not named: the rules cannot be counted)
        total = sum(hints.values())
        most_favoured = True  # (of the cards some renaming could give it)
        best: tuple[Chain, float] | None = None
        for card_favoured in favoured:
            swapped = swap_chain(view, self.tracks, index, deduced, card_favoured)
            odds = 0.0 if swapped is None else picture_odds(view, self.tracks, swapped, hints,
                                                            deduced)
            chains: list[Chain | None] = [swapped] if swapped is not None and odds > 1.0 else []
            votes = hints[card_favoured]
            if votes >= SURE_VOTES and votes >= SURE_SHARE * total:
                chains.append(given_up(view, self.tracks, index, deduced, card_favoured))
            # (favoured weakly, it must break fewer rules unless both pictures favour it)
            ties = (most_favoured or best is not None) \
                and (card_favoured in clearly or odds >= SWAP_FAVOUR)
            chain = next((c for c in chains if c is not None
                          and breaks_no_more(view, filled, c, before, ties)), None)
            if chain is not None:
                chain_odds = picture_odds(view, self.tracks, chain, hints, deduced)
                # A card its readings favour less, when the pictures of the whole chain favour
                # it SWAP_FAVOUR times over the chain found first (seed 2073 deal 8: an unread
                # JD read KD 13 times, JD 12; W's KD, read KD 0.89 / JD 0.08, is no JD).
                if best is None or 0.0 < best[1] * SWAP_FAVOUR <= chain_odds:
                    best = (chain, chain_odds)
                continue
            most_favoured = most_favoured and swapped is None and not any(chains)
        return best

    def _way_by_pictures(self, ways: Sequence[Mapping[int, str]],
                         hints: Mapping[int, Mapping[str, float]]
                         ) -> list[tuple[int, str, dict[str, float]]]:
        """The rules leave several `ways` to name the unread plays and their weak readings
        choose none: the way in which every unread play whose readings favour a card recorded
        at another play (SURE_VOTES at least: several frames) can take it (`_plan_swap`; the
        misread plays renamed, each once), the one whose pictures' odds are SWAP_FAVOUR times
        those of any other such way; as `DealView.deduced`'s hinted plays (index, card, shares
        of its readings), or none. Seed 2066 deal 7: N's KC read JS 0.6, E's QC read QS 0.6;
        N's QS (read QS) and W's JS (read JS 0.95) left unread; of the two ways to give them
        KC and QC, only one lets each take its own card back. Seed 2067 deal 0: S's 7C read
        7S; S's 7S, read plainly, and W's 9C, read weakly 9S or TS a few times, left unread."""
        if any(self.view.plays[i][1] is not None for way in ways for i in way):
            return []  # (plays named early, reopened: the rules judge them again as they stand)
        found = []
        for way in ways:
            odds, renamed = 1.0, dict[int, str]()
            for i, card in way.items():
                favoured = favoured_over(hints.get(i, {}), card, WEAK_FAVOUR)
                if not favoured or hints[i][favoured[0]] < SURE_VOTES:
                    continue  # (a few weak readings: they ask for no renaming)
                planned = self._plan_swap(i, card, hints[i], way)
                if planned is None or any(j in renamed or j in way for j, _c in planned[0][1:]):
                    break
                renamed |= dict(planned[0])
                odds *= planned[1]
            else:
                if renamed and self._breaks_no_more_renamed(way, renamed):
                    found.append((odds, way))
        found.sort(key=lambda f: -f[0])
        if not found or (len(found) > 1 and found[0][0] < SWAP_FAVOUR * found[1][0]):
            return []
        return [(i, card, vote_shares(hints.get(i, {}))) for i, card in found[0][1].items()]

    def _breaks_no_more_renamed(self, way: Mapping[int, str], renamed: Mapping[int, str]) -> bool:
        """Whether the plays, the unread ones named `way`, break no more rules with the plays of
        `renamed` (their chains: unread plays and the plays they rename) renamed, each card
        still once (`breaks_no_more`)."""
        filled = [(seat, card or way[i]) for i, (seat, card) in enumerate(self.view.plays)]
        cards = [renamed.get(i, card) for i, (_seat, card) in enumerate(filled)]
        if len(set(cards)) != len(cards):
            return False
        before = self.view.rules_broken(filled)
        return before is not None \
            and breaks_no_more(self.view, filled, list(renamed.items()), before, True)
