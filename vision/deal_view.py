"""What the tracker knows of the game, rebuilt from the event log: the current deal's dealer,
contract, plays and gathered tricks, and the engine's opinion (whose turn, what is still possible).

The engine is consulted only once a contract is known (the trump decides who wins a trick); before
that, the turn is worked out for the first trick alone and every unplayed card is possible.

>>> view = DealView("ffb-coinche")
>>> view.apply({"type": "deal_started", "data": {"dealer": "E"}})
>>> view.turn                      # the player after the dealer leads (counterclockwise: N)
'N'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from vision.card_track import DOUBTED_SHARE
from vision.votes import vote_shares

# Weak readings (votes: the classifier's probabilities summed over frames) must favour one way
# of filling the unread plays by this much over the next to name them.
HINT_MARGIN = 1.0
# A track read mostly as a card already played is a new card only when its next reading not
# played has this share of its votes (at 0.15, a woven table's pattern read QS 0.67, QC 0.19
# became a play and shifted the rest of a simulated deal).
OTHER_SHARE = 0.25
# An unread play named early (`least_broken`) judges each way of filling the unread plays so far:
# at most this many (two unread plays among 30 cards; ~0.2 ms each, once for each unread play
# each time a play is recorded; tracker alone on seed 2142, 18,517 frames: 26-27 s, 27-28 s before
# every unread play of the deal was judged so).
EARLY_FILLINGS = 900

_CCW = ("N", "W", "S", "E")
_CW = ("N", "E", "S", "W")


class DealView:
    """The game as the events tell it; `apply` one event at a time (dicts with type, data, seq)."""

    def __init__(self, rules: Any = "ffb-coinche") -> None:
        self.default_rules = rules
        self.history: list[Mapping[str, Any]] = []
        self._reset_game(rules)

    # --- state ---------------------------------------------------------------------------------

    def _reset_game(self, rules: Any) -> None:
        self.rules_spec = rules
        self.clockwise = False
        self.prise = False  # belote prise: a turned card during the auction
        try:
            from engine.rules import find_rules

            found = find_rules(rules)
            self.clockwise = bool(found.clockwise)
            self.prise = found.auction == "belote"
            self.rules: Any = found
        except (ImportError, ValueError):
            self.rules = None
        self.open = False
        self.dealer: str | None = None
        self.last_dealer: str | None = None
        # The dealer is known (not the tracker's guess) when the referee said so, and stays known
        # from deal to deal as the deal passes round.
        self.dealer_known = False
        self._new_deal(None)

    def _new_deal(self, dealer: str | None) -> None:
        self.dealer = dealer
        self.contract: Mapping[str, Any] | None = None
        self.turned_card: str | None = None
        self.plays: list[tuple[str, str | None]] = []  # card None: seen played, never read
        self.gathered = 0
        self.corrected: dict[str, str] = {}  # card before → card after, for the tracker
        self._engine: Any = None
        self._engine_key: tuple[Any, ...] | None = None  # what the cached engine has seen
        self._leaders: frozenset[str] | None = None
        self._leaders_key: tuple[Any, ...] | None = None

    def apply(self, event: Mapping[str, Any]) -> None:
        """Take one event into account; an undo replays the history without the undone event."""
        self.history.append(event)
        if event["type"] == "undo":
            self.rebuild()
        else:
            self._apply(event["type"], event.get("data") or {}, event.get("actor"))

    def rebuild(self) -> None:
        undone = {e["data"].get("seq") for e in self.history if e["type"] == "undo"}
        self._reset_game(self.default_rules)
        for e in self.history:
            if e["type"] != "undo" and e.get("seq") not in undone:
                self._apply(e["type"], e.get("data") or {}, e.get("actor"))

    def _apply(self, kind: str, data: Mapping[str, Any], actor: str | None = None) -> None:
        if kind == "game_started":
            self._reset_game(data.get("rules", self.default_rules))
        elif kind == "deal_started":
            self.open = True
            dealer = str(data.get("dealer") or self.next_dealer())
            passed = self.dealer_known and self.last_dealer is not None \
                and dealer == self.next_dealer()
            self.dealer_known = actor == "referee" or passed
            self._new_deal(dealer)
        elif kind == "contract":
            self.contract = dict(data)
        elif kind == "turned_card":
            self.turned_card = str(data["card"])
        elif kind == "card_played":
            if not self.open:  # a play seen before any deal_started opens a deal
                self.open = True
                self._new_deal(self.next_dealer())
            card = data.get("card")
            self.plays.append((str(data["seat"]), None if card is None else str(card)))
        elif kind == "trick_gathered":
            self.gathered = min(self.gathered + 1, len(self.plays) // 4)
        elif kind == "deal_over":
            self.open = False
            self.last_dealer = self.dealer
        elif kind == "correction":
            i = int(data["play"])
            if 0 <= i < len(self.plays):
                seat, before = self.plays[i]
                after = data.get("card", before)
                after = None if after is None else str(after)
                self.plays[i] = (str(data.get("seat", seat)), after)
                if before is not None and after is not None:
                    self.corrected[before] = after

    # --- questions the tracker asks -----------------------------------------------------------

    def next_dealer(self, default: str = "S") -> str:
        if self.last_dealer is None:
            return default
        return self.after(self.last_dealer)

    def after(self, seat: str) -> str:
        """The seat that plays after `seat`."""
        order = _CW if self.clockwise else _CCW
        return order[(order.index(seat) + 1) % 4]

    def before(self, seat: str) -> str:
        """The seat that plays before `seat`."""
        order = _CW if self.clockwise else _CCW
        return order[(order.index(seat) - 1) % 4]

    def order_from(self, seat: str) -> list[str]:
        """The four seats in the order they play a trick `seat` leads."""
        order = [seat]
        while len(order) < 4:
            order.append(self.after(order[-1]))
        return order

    def leaders(self, next_trick: bool = False, doubted: Collection[int] = ()) -> set[str] | None:
        """The seats that may lead the trick on the table (`next_trick`: the one after it, the
        trick on the table being complete), or None when any may: at the first trick, the one
        after the dealer if the referee gave it; later, the last trick's winner whichever card
        its unread plays were (`engine.deduce.possible_leaders`), and its plays `doubted` too."""
        start = 4 * (self.gathered + next_trick)
        if self.dealer is None or (start == 0 and not self.dealer_known):
            return None
        if start == 0:
            return {self.after(self.dealer)}
        if self.contract is None or self.rules is None or len(self.plays) < start:
            return None
        plays = [(seat, None if i in doubted else card)
                 for i, (seat, card) in enumerate(self.plays[:start])]
        key = (tuple(sorted(self.contract.items())), tuple(plays), self.dealer)
        if key != self._leaders_key:  # asked every frame: computed once per trick
            self._leaders_key, self._leaders = key, self._possible_leaders(start, plays)
        return None if self._leaders is None else set(self._leaders)

    def leaders_if(self, renamed: Mapping[int, str], start: int | None = None) -> set[str] | None:
        """The seats that may lead the trick after the gathered plays `renamed` (index: card,
        all of one trick) had those plays been those cards (None when any may, or the engine
        cannot say); or the trick from play `start` on, when some are played before it."""
        start = 4 * (max(renamed) // 4 + 1) if start is None else start
        if self.contract is None or self.rules is None or min(renamed) < 0 \
                or max(renamed) >= 4 * self.gathered:
            return None
        plays = list(self.plays[:start])
        for index, card in renamed.items():
            plays[index] = (plays[index][0], card)
        found = self._possible_leaders(start, plays)
        return None if found is None else set(found)

    def _possible_leaders(self, start: int, plays: list[tuple[str, str | None]] | None = None
                          ) -> frozenset[str] | None:
        try:
            from engine.deduce import possible_leaders

            found = possible_leaders(self.rules, *self._for_engine(start, plays))
        except (ImportError, ValueError):
            return None
        return frozenset(str(seat) for seat in found) if len(found) < 4 else None

    def lead_before(self, first: str) -> str:
        """Who led a trick whose first card seen was `first`'s: of the seats that may lead, the
        one nearest before `first` (or `first` itself); their cards were never read. (Which card
        landed first is no better a guide: a card read late gets a new track.)"""
        leaders = self.leaders() or {first}
        seat = first
        while seat in _CW:  # (a zone that is no seat: nobody before it)
            if seat in leaders:
                return seat
            seat = self.before(seat)
            if seat == first:
                break
        return first

    @property
    def turned_due(self) -> bool:
        """Whether the next card shown is a belote prise's turned card: the auction is not
        over, nothing is played, nothing turned yet. It lies wherever the dealer put it."""
        return self.prise and not self.plays and self.turned_card is None \
            and self.contract is None

    @property
    def played(self) -> set[str]:
        return {card for _seat, card in self.plays if card is not None}

    def play_of(self, card: str | None) -> int | None:
        """The index of the play recorded as `card`, if any."""
        return next((i for i, (_seat, c) in enumerate(self.plays) if c == card), None)

    @property
    def unread(self) -> list[int]:
        """Indices of the plays seen but never read (their card is None)."""
        return [i for i, (_seat, card) in enumerate(self.plays) if card is None]

    @property
    def trick_plays(self) -> list[tuple[str, str | None]]:
        """Plays of the trick on the table (not yet gathered)."""
        return self.plays[4 * self.gathered :]

    @property
    def complete(self) -> bool:
        return len(self.plays) >= 32

    def engine(self) -> Any:
        """An `engine.observe.ObservedDeal` replaying the plays, or None (no contract/engine, or
        an unread play: who won its trick, and so who leads next, is unknown)."""
        if self.contract is None:
            return None
        key = (tuple(sorted(self.contract.items())), tuple(self.plays), self.dealer)
        if key != self._engine_key:
            self._engine, self._engine_key = self._observed(len(self.plays)), key
        return self._engine

    def _observed(self, n: int) -> Any:
        """An `engine.observe.ObservedDeal` replaying the first `n` plays, or None (as
        `engine`)."""
        if self.contract is None or self.rules is None or self.dealer is None \
                or any(card is None for _seat, card in self.plays[:n]):
            return None
        try:
            from engine.observe import ObservedDeal

            contract, dealer, plays = self._for_engine(n)
            deal = ObservedDeal(self.rules, contract, dealer)
            for seat, card in plays:
                deal.play(seat, card)
        except (ImportError, ValueError):
            return None
        return deal

    @property
    def turn(self) -> str | None:
        """Whose turn it is, or None when nobody can tell (or the deal is complete)."""
        deal = self.engine()
        if deal is not None:
            seat = deal.turn
            return None if seat is None else str(seat)
        if self.dealer is None or self.complete:
            return None
        if not self.plays:
            return self.after(self.dealer)
        if len(self.plays) % 4:
            return self.after(self.plays[-1][0])
        return None  # the trick's winner leads, and that needs the trump

    def deduced(self, hints: Mapping[int, Mapping[str, float]] | None = None,
                reopen: Iterable[int] = ()
                ) -> tuple[list[tuple[int, str]], list[tuple[int, str, dict[str, float]]],
                           list[dict[int, str]]]:
        """(index, card) of each unread play the rest of the deal proves (`engine.deduce`); and
        when several ways to fill them break the fewest rules, the one the camera's `hints`
        (play index: {card: weak votes}) favour clearly: (index, card, share of each card's
        votes) for each of its plays, read weakly, not proven; else those ways ({index: card}
        for each open play). The plays in `reopen` (named in doubt) count as unread."""
        reopen = set(reopen)
        plays = [(seat, None if i in reopen else card) for i, (seat, card) in enumerate(self.plays)]
        if all(card is not None for _seat, card in plays) or self.rules is None \
                or self.contract is None or self.dealer is None:
            return [], [], []
        try:
            from engine.deduce import deduce

            found = deduce(self.rules, *self._for_engine(len(plays), plays))
        except (ImportError, ValueError):
            return [], [], []
        proven = [(i, str(found.plays[i][1])) for i in found.deduced]
        ways = [{i: str(tie[i][1]) for i in found.unread} for tie in found.ties]
        if not found.ties or not hints:
            return proven, [], ways
        open_ = [i for i in found.unread if i in hints]
        score = [sum(hints[i].get(str(tie[i][1]), 0.0) for i in open_) for tie in found.ties]
        ranked = sorted(range(len(score)), key=lambda k: -score[k])
        best = ranked[0]
        if score[best] < HINT_MARGIN or (len(ranked) > 1
                                         and score[best] - score[ranked[1]] < HINT_MARGIN):
            return proven, [], ways
        tie = found.ties[best]
        hinted = []
        for i in found.unread:
            hinted.append((i, str(tie[i][1]), vote_shares(hints.get(i, {}))))
        return proven, hinted, []

    def least_broken(self, index: int) -> set[str] | None:
        """The cards not played that, at unread play `index`, break the fewest rules of the deal
        so far, each counted at its best filling of the other unread plays
        (`engine.deduce.least_broken`); None when the engine cannot say or there are over
        EARLY_FILLINGS ways to judge."""
        if self.plays[index][1] is not None or self.rules is None or self.contract is None \
                or self.dealer is None:
            return None
        try:
            from engine.deduce import least_broken

            fit = least_broken(self.rules, *self._for_engine(len(self.plays)), index,
                               EARLY_FILLINGS)
        except (ImportError, ValueError):
            return None
        return None if fit is None else {str(c) for c in fit}

    def rules_broken(self, plays: Sequence[tuple[str, str | None]]) -> int | None:
        """How many rules the whole deal `plays` breaks (`engine.observe.audit`), or None when
        the engine cannot say (a card not named among them: the rules cannot be counted)."""
        if self.rules is None or self.contract is None or self.dealer is None \
                or any(card is None for _seat, card in plays):
            return None
        try:
            from engine.observe import audit

            contract, dealer, values = self._for_engine(len(plays), list(plays))
            return len(audit(self.rules, contract, dealer, values))
        except (ImportError, ValueError):
            return None

    def _for_engine(self, n: int, plays: Sequence[tuple[str, str | None]] | None = None
                    ) -> tuple[Any, Any, list[tuple[Any, Any]]]:
        """The contract, the dealer and the first `n` plays (of `plays`, by default the log's)
        as engine values (ValueError when the log holds something the engine cannot read;
        ImportError without the engine)."""
        from engine.cards import Card, Seat
        from engine.contract import Contract

        values = [(Seat.from_str(s), None if c is None else Card.from_str(c))
                  for s, c in (self.plays if plays is None else plays)[:n]]
        contract = Contract.from_json(dict(self.contract or {}))
        return contract, Seat.from_str(self.dealer or ""), values

    def possible(self, seat: str) -> set[str] | None:
        """Cards `seat` may still hold by what is proven, or None when the engine cannot say."""
        return _possible_cards(self.engine(), seat)

    def possible_at(self, index: int, seat: str) -> set[str] | None:
        """Cards `seat` could hold at play `index` by what the plays before it prove."""
        return _possible_cards(self._observed(index), seat)

    def news(self, readings: list[tuple[str, float]]) -> bool:
        """Whether a track's `readings` may name a card not played yet: False when every one
        is played, or the track reads a played card with no real second reading."""
        left = self.unplayed(readings)
        return bool(left) and (left[0][0] == readings[0][0] or left[0][1] >= OTHER_SHARE)

    def unplayed(self, readings: Sequence[tuple[str, float]],
                 but: str | None = None) -> list[tuple[str, float]]:
        """The `readings` (card, share) of cards not played yet, `but` one counted as not
        played: a deck holds one of each, so a reading of a card played is another's."""
        played = self.played - {but} if but is not None else self.played
        return [(c, v) for c, v in readings if c not in played]

    def choose(self, readings: list[tuple[str, float]], seat: str) -> tuple[str | None, bool]:
        """The card to record for `seat` from a track's `readings` (card, share of the votes),
        and whether anything but the picture chose it. None: every reading is already played."""
        if not self.news(readings):
            return None, False
        card = _pick(self.unplayed(readings), self.possible(seat))
        return card, card != readings[0][0]

    def choose_again(self, readings: list[tuple[str, float]], index: int) -> str | None:
        """The card `choose` picks now for play `index` (recorded in doubt) from its track's
        `readings`, as if it were being recorded now (the cards played since are out)."""
        seat, card = self.plays[index]
        left = self.unplayed(readings, but=card)
        return _pick(left, self.possible_at(index, seat)) if left else None


def _pick(left: list[tuple[str, float]], possible: set[str] | None) -> str:
    """The best of the readings `left` (cards not played, best first), unless the engine's
    proofs (`possible`, the cards the seat may hold) rule it out and it is weak: then the next
    one they allow with 0.15 of the votes. The proofs only break a weak reading: a strong one
    that breaks a rule is a violation to flag, never something to explain away."""
    top, share = left[0]
    if possible is not None and ruled_out(top, share, possible):  # (narrows it for below)
        return next((c for c, v in left[1:] if c in possible and v >= 0.15), top)
    return top


def ruled_out(card: str, share: float, possible: set[str] | None) -> bool:
    """Whether the engine's proofs (`possible`, the cards a seat may hold; None: no proof) rule
    out a reading of `card` with this share of the votes: only a weak one yields to them."""
    return possible is not None and card not in possible and share < DOUBTED_SHARE


def _possible_cards(deal: Any, seat: str) -> set[str] | None:
    if deal is None:
        return None
    from engine.cards import Seat

    return {str(c) for c in deal.possible_cards(Seat.from_str(seat))}


def view_from_events(events: Iterable[Any], rules: Any = "ffb-coinche") -> DealView:
    """Rebuild from stored events (`device.store.Event` objects or dicts)."""
    view = DealView(rules)
    for e in events:
        view.apply(e.to_json() if hasattr(e, "to_json") else e)
    return view

