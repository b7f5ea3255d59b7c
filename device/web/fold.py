"""Fold the event log into games, deals and plays, with undos, corrections and rulings applied.

This is pure bookkeeping over `device.store.Event`s; judging the deals is `device.web.state`'s job.
Events that cannot be applied (a correction of a play that does not exist, a card that cannot be
read) are skipped and reported in `Folded.errors` rather than breaking the page: the log is what
the camera and the referee wrote, and it is never rewritten.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from device.store import Event

DEFAULT_RULES = "ffb-coinche"
# Another reading with at least this share of a card's votes puts the play in doubt: the record
# lists it, and a violation it would clear is marked for the referee (`engine.referee`).
DOUBT_SHARE = 0.1


@dataclass
class Play:
    """One card seen on the table (possibly corrected by the referee)."""

    seq: int
    seat: str
    card: str | None  # None: seen played, never read (engine.deduce may name it)
    actor: str
    t: float | None = None
    confidence: float | None = None
    uncertain: bool = False
    alternatives: list[list[Any]] = field(default_factory=list)
    evidence: str | None = None
    read_as: str | None = None  # what the camera read, when a correction changed it
    deduced: bool = False  # unread, named by `engine.deduce` at the deal's end

    def record_entry(self) -> list[Any]:
        """`[seat, card]` for the engine's record, with the camera's other readings in doubt as
        a third item (docs/record-format.md)."""
        others = []
        for alt in self.alternatives:
            if (isinstance(alt, (list, tuple)) and len(alt) == 2 and isinstance(alt[1], float)
                    and alt[1] >= DOUBT_SHARE and alt[0] != self.card):
                others.append(str(alt[0]))
        if self.deduced:  # written unread, as seen: the engine deduces it again
            return [self.seat, None]
        return [self.seat, self.card, others] if self.card and others else [self.seat, self.card]


@dataclass
class DealLog:
    """What the log says about one deal."""

    index: int
    dealer: str
    seq: int
    contract: dict[str, Any] | None = None
    turned: str | None = None
    plays: list[Play] = field(default_factory=list)
    announces: list[dict[str, Any]] = field(default_factory=list)
    belote: list[str] = field(default_factory=list)
    rulings: dict[int, dict[str, Any]] = field(default_factory=dict)
    gathered: int = 0
    over: bool = False

    def record(self, rules: object | None) -> dict[str, Any]:
        """The deal in the engine's record form (docs/record-format.md); no `rules` in a game."""
        out: dict[str, Any] = {"version": 1} if rules is not None else {}
        if rules is not None:
            out["rules"] = rules
        out.update(dealer=self.dealer, contract=self.contract,
                   plays=[p.record_entry() for p in self.plays])
        if self.announces:
            out["announces"] = [dict(a) for a in self.announces]
        if self.belote:
            out["belote"] = list(self.belote)
        return out


@dataclass
class Folded:
    """The game as the log tells it, up to some event."""

    rules: object = DEFAULT_RULES
    players: dict[str, str] = field(default_factory=dict)
    teams: dict[str, str] = field(default_factory=lambda: {"NS": "NS", "EW": "EW"})
    deals: list[DealLog] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    last_seq: int = 0
    last_time: float | None = None
    started: bool = False
    started_at: float | None = None  # the game_started event's time (the score sheet's date)

    @property
    def deal(self) -> DealLog | None:
        return self.deals[-1] if self.deals else None

    def record(self) -> dict[str, Any]:
        """The game in the engine's game-record form, names kept in `meta`."""
        return {"version": 1, "rules": self.rules,
                "dealer": self.deals[0].dealer if self.deals else "N",
                "deals": [d.record(None) for d in self.deals],
                "meta": {"players": self.players, "teams": self.teams}}


def cancelled(events: Sequence[Event]) -> set[int]:
    """Seqs cancelled by `undo` events; an undone undo restores its target."""
    out: set[int] = set()
    for ev in reversed(events):
        if ev.type == "undo" and ev.seq not in out:
            target = ev.data.get("seq")
            if isinstance(target, int) and not isinstance(target, bool) and target < ev.seq:
                out.add(target)
    return out


def fold(events: Sequence[Event]) -> Folded:
    """Apply every event that was not undone, in order."""
    dead = cancelled(events)
    game = Folded()
    for ev in events:
        game.last_seq = ev.seq
        game.last_time = ev.time
        if ev.seq in dead or ev.type == "undo":
            continue
        handler = _HANDLERS.get(ev.type)
        if handler is None:
            continue  # unknown types are someone else's (health, notes): not ours to judge
        try:
            handler(game, ev)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            game.errors.append(f"event {ev.seq} ({ev.type}) skipped: {exc}")
    return game


def _game_started(game: Folded, ev: Event) -> None:
    fresh = Folded(last_seq=game.last_seq, last_time=game.last_time, started=True,
                   started_at=ev.time)
    fresh.rules = ev.data.get("rules", DEFAULT_RULES)
    fresh.players = {str(k): str(v) for k, v in dict(ev.data.get("players") or {}).items()}
    fresh.teams.update({str(k): str(v) for k, v in dict(ev.data.get("teams") or {}).items()})
    game.__dict__.update(fresh.__dict__)


def _deal_started(game: Folded, ev: Event) -> None:
    game.deals.append(DealLog(len(game.deals) + 1, str(ev.data["dealer"]), ev.seq))


def _open_deal(game: Folded, ev: Event) -> DealLog:
    """The deal an event belongs to; a card with no deal started opens one (dealer unknown: E)."""
    deal = game.deal
    if deal is None or deal.over:
        if ev.type not in ("card_played", "contract", "turned_card"):
            raise ValueError("no deal in progress")
        deal = DealLog(len(game.deals) + 1, "E", ev.seq)
        game.deals.append(deal)
        game.errors.append(f"event {ev.seq}: {ev.type} before any deal_started; dealer taken as E")
    return deal


def _contract(game: Folded, ev: Event) -> None:
    _open_deal(game, ev).contract = dict(ev.data)


def _turned_card(game: Folded, ev: Event) -> None:
    _open_deal(game, ev).turned = str(ev.data["card"])


def _card_played(game: Folded, ev: Event) -> None:
    d = ev.data
    deal = _open_deal(game, ev)
    deal.plays.append(Play(
        seq=ev.seq, seat=str(d["seat"]), card=None if d["card"] is None else str(d["card"]),
        actor=ev.actor, t=d.get("t"),
        confidence=d.get("confidence"), uncertain=bool(d.get("uncertain", False)),
        alternatives=[list(a) for a in d.get("alternatives") or []], evidence=d.get("evidence"),
    ))


def _trick_gathered(game: Folded, ev: Event) -> None:
    deal = _open_deal(game, ev)
    deal.gathered = min(deal.gathered + 1, len(deal.plays) // 4)


def _deal_over(game: Folded, ev: Event) -> None:
    _open_deal(game, ev).over = True


def _announce(game: Folded, ev: Event) -> None:
    _current(game).announces.append({"seat": str(ev.data["seat"]),
                                     "cards": [str(c) for c in ev.data["cards"]]})


def _belote(game: Folded, ev: Event) -> None:
    _current(game).belote.append(str(ev.data["seat"]))


def _correction(game: Folded, ev: Event) -> None:
    play = _current(game).plays[_index(ev.data["play"])]
    if play.card is None and isinstance(ev.data.get("t"), (int, float)):
        play.t = float(ev.data["t"])  # an unread play read at last: named only then
    if play.read_as is None and play.card != str(ev.data["card"]):
        play.read_as = play.card
    play.card = str(ev.data["card"])
    play.deduced = play.read_as is None and bool(ev.data.get("deduced"))
    if ev.data.get("uncertain"):  # named from weak readings (the rules left several ways)
        play.uncertain = True
        play.alternatives = [list(a) for a in ev.data.get("alternatives", [])]
    else:
        if ev.data.get("uncertain") is False:  # the camera read it plainly since
            play.uncertain, play.alternatives = False, []
        if "alternatives" in ev.data:  # (filled by its card read plainly: its other readings)
            play.alternatives = [list(a) for a in ev.data["alternatives"]]
    if ev.actor != "camera":
        play.alternatives = []  # the referee looked: the card is no longer in doubt


def _ruling(game: Folded, ev: Event) -> None:
    deal = _current(game)
    index = _index(ev.data["play"])
    deal.rulings[index] = {"rule": str(ev.data["rule"]), "decision": str(ev.data["decision"]),
                           "seq": ev.seq}


def _current(game: Folded) -> DealLog:
    if game.deal is None:
        raise ValueError("no deal yet")
    return game.deal


def _index(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"play index must be a non-negative integer, got {value!r}")
    return value


_HANDLERS = {
    "game_started": _game_started,
    "deal_started": _deal_started,
    "contract": _contract,
    "turned_card": _turned_card,
    "card_played": _card_played,
    "trick_gathered": _trick_gathered,
    "deal_over": _deal_over,
    "announce": _announce,
    "belote": _belote,
    "correction": _correction,
    "ruling": _ruling,
}


def audit(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The referee's changes, newest first: who, when, what, before, after, whether undone, the
    deal it belongs to, and for a change of a play (correction, ruling) the seat that played it."""
    events = list(events)
    dead = cancelled(events)
    by_seq = {ev.seq: ev for ev in events}
    contract: Mapping[str, Any] | None = None
    deal, over = 0, False
    seats: list[str] = []  # who played each card of the deal, as `fold` numbers the plays
    out: list[dict[str, Any]] = []
    for ev in events:
        before: object = None
        after: object = dict(ev.data)
        live = ev.seq not in dead
        opens = ev.type in ("card_played", "contract", "turned_card") and (over or not deal)
        if live and (ev.type in ("game_started", "deal_started") or opens):  # as `_open_deal`
            contract, seats, over = None, [], False
            deal = 0 if ev.type == "game_started" else deal + 1
        if live and ev.type == "card_played":
            seats.append(str(ev.data.get("seat")))
        over = over or (live and ev.type == "deal_over")
        if ev.type == "contract":
            before, contract = contract, ev.data
        elif ev.type == "correction":
            before = {"play": ev.data.get("play"), "card": ev.data.get("before")}
            after = {"play": ev.data.get("play"), "card": ev.data.get("card")}
        elif ev.type == "ruling":
            before = {"play": ev.data.get("play"), "decision": "pending"}
        elif ev.type == "undo":
            target = by_seq.get(ev.data.get("seq", -1))
            before = target.to_json() if target is not None else None
            after = "cancelled"
        if ev.actor != "referee":
            continue
        row = {"seq": ev.seq, "time": ev.time, "actor": ev.actor, "type": ev.type,
               "before": before, "after": after, "undone": not live, "deal": deal}
        play = ev.data.get("play")
        if ev.type in ("correction", "ruling") and isinstance(play, int) and 0 <= play < len(seats):
            row["seat"] = seats[play]
        out.append(row)
    out.reverse()
    return out
