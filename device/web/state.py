"""The game state the pages show, built from the event log and judged by the engine.

`GameState.build(events)` folds the log (`device.web.fold`), turns each deal into an engine record,
judges it (`engine.record.judge`) and follows the play live (`engine.observe.ObservedDeal`): the
current trick, whose turn, points so far, the deal history with scores, and every flagged play with
its proof. States are cached by the last event folded, so a hundred viewers cost one fold.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, cast

from device.store import Event, EventStore
from device.web.fold import DealLog, Folded, fold
from engine.cards import Card, Seat
from engine.contract import Contract
from engine.rules import RulesError, RuleSet, find_rules

SEATS = ("N", "E", "S", "W")


def rules_of(game: Folded) -> RuleSet:
    try:
        return find_rules(game.rules)  # type: ignore[arg-type]
    except RulesError as exc:
        game.errors.append(f"rules {game.rules!r}: {exc}; using ffb-coinche")
        return find_rules("ffb-coinche")


def observed(rules: RuleSet, deal: DealLog, upto: int | None = None) -> Any:
    """The engine's live view of a deal (ObservedDeal) after its first `upto` plays."""
    from engine.observe import ObservedDeal

    od = ObservedDeal(rules, Contract.from_json(deal.contract or {}), Seat.from_str(deal.dealer))
    for p in deal.plays[:upto]:
        if p.card is None:
            break  # an unread card: who won its trick, and who leads next, is unknown
        od.play(Seat.from_str(p.seat), Card.from_str(p.card))
    return od


def judged(game: Folded, deal: DealLog, od: Any) -> dict[str, Any]:
    """`engine.record.judge` on the deal's record (the `belote score` object).

    Without engine.record (not installed yet), the tricks and flags of the live ObservedDeal, with
    no score.
    """
    try:
        from engine.record import judge, load_record
    except ImportError:
        tricks = [{"leader": str(t.leader), "winner": str(t.winner), "points": t.points}
                  for t in od.tricks]
        return {"tricks": tricks, "card_points": None, "result": None, "score": None,
                "violations": [v.to_json() for v in od.violations]}
    return dict(judge(load_record(deal.record(game.rules))))


def possible_cards(game: Folded, deal: DealLog, play: int) -> list[str]:
    """Cards the player of `play` may have played, given every other play of the deal."""
    others = {p.card for i, p in enumerate(deal.plays) if i != play}
    seat = deal.plays[play].seat
    cards = [str(c) for c in _all_cards()]
    if deal.contract is not None:
        try:
            allowed = observed(rules_of(game), deal, play).possible_cards(Seat.from_str(seat))
            cards = [str(c) for c in allowed]
        except (ImportError, ValueError):
            pass  # no engine (yet) or a log it cannot follow: every unplayed card is possible
    return sorted((c for c in cards if c not in others), key=_card_order)


def _all_cards() -> Sequence[Card]:
    from engine.cards import DECK

    return DECK


def _card_order(card: str) -> int:
    return Card.from_str(card).index


def penalty_score(rules: RuleSet, contract: dict[str, Any] | None, offender: str) -> dict[str, int]:
    """A deal lost on a revoke: the other team scores as for a failed contract (FFB renonce).

    The opponents of the offending team get failed_base plus the bid, times the coinche level;
    the offenders score nothing for the deal.
    """
    bid = (contract or {}).get("bid", 0)
    value = bid if isinstance(bid, int) else {"capot": rules.capot_bid,
                                              "generale": rules.generale_bid}.get(bid) or 0
    level = int((contract or {}).get("coinche", 1))
    mult = {1: 1, 2: rules.coinche_multiplier, 4: rules.surcoinche_multiplier}.get(level, 1)
    offending = Seat.from_str(offender).team.value
    other = "EW" if offending == "NS" else "NS"
    return {other: (rules.failed_base + value) * mult, offending: 0}


class _Memo:
    """A small thread-safe LRU: past deals are judged once, not at every new card."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: str, build: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = build()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


_DEALS = _Memo()
_GAMES = _Memo(64)


def _key(*parts: object) -> str:
    return json.dumps(parts, sort_keys=True, default=str)


def deal_state(game: Folded, rules: RuleSet, deal: DealLog) -> dict[str, Any]:
    """Everything the pages show about one deal (memoised on the deal's whole content)."""
    key = repr((game.rules, deal.index, deal.dealer, deal.contract, deal.turned, deal.announces,
                deal.belote, sorted(deal.rulings.items()), deal.gathered, deal.over,
                [(p.seq, p.seat, p.card, p.actor, p.t, p.confidence, p.uncertain,
                  p.alternatives, p.evidence, p.read_as) for p in deal.plays]))
    return cast(dict[str, Any], _DEALS.get(key, lambda: _deal_state(game, rules, deal)))


def _deal_state(game: Folded, rules: RuleSet, deal: DealLog) -> dict[str, Any]:
    n = len(deal.plays)
    complete = n // 4
    # A full trick stays on the table until the camera sees it gathered.
    start = n - 4 if n and n % 4 == 0 and deal.gathered < complete else complete * 4
    out: dict[str, Any] = {
        "index": deal.index, "dealer": deal.dealer, "contract": deal.contract,
        "turned": deal.turned, "over": deal.over, "announces": deal.announces,
        "belote": deal.belote, "trick_number": min(start // 4 + 1, 8),
        "trick": [_play_json(i, deal.plays[i]) for i in range(start, n)],
        "plays": [_play_json(i, p) for i, p in enumerate(deal.plays)],
        "turn": None, "leader": deal.plays[start].seat if start < n else None,
        "points": {"NS": 0, "EW": 0}, "tricks_won": {"NS": 0, "EW": 0},
        "tricks": [], "result": None, "score": None, "card_points": None,
        "violations": [], "penalty": None, "error": None,
    }
    if deal.contract is None:
        if n == 0:
            out["turn"] = Seat.from_str(deal.dealer).next(rules.clockwise).value
        return out
    try:
        od = observed(rules, deal)
        verdict = judged(game, deal, od)
    except ImportError:
        out["error"] = "engine not available: plays shown without judging"
        return out
    except ValueError as exc:  # the engine's RecordError / CardError / ContractError
        out["error"] = str(exc)
        return out
    turn = od.turn
    out["turn"] = None if turn is None else str(turn)
    out["tricks"] = verdict.get("tricks", [])
    for trick in out["tricks"]:
        team = Seat.from_str(str(trick["winner"])).team.value
        out["points"][team] += int(trick["points"])
        out["tricks_won"][team] += 1
    if start < n and start // 4 < len(out["tricks"]):
        out["leader"] = out["tricks"][start // 4]["leader"]
    elif start < n:
        out["leader"] = deal.plays[start].seat
    out.update(result=verdict.get("result"), score=verdict.get("score"),
               card_points=verdict.get("card_points"))
    out["violations"] = [_flag(deal, v) for v in verdict.get("violations", [])]
    accepted = [f for f in out["violations"] if f["decision"] == "accepted"]
    if accepted:
        out["penalty"] = {"play": accepted[0]["play"], "seat": accepted[0]["seat"],
                          "score": penalty_score(rules, deal.contract, accepted[0]["seat"])}
    return out


def _flag(deal: DealLog, v: dict[str, Any]) -> dict[str, Any]:
    index = int(v["play"])
    # The play shown as proof proves the rule named (a refined rule: not the earliest proof).
    proof = v.get("rule_proven_by", v.get("proven_by"))
    ruling = deal.rulings.get(index)
    play = deal.plays[index] if 0 <= index < len(deal.plays) else None
    proof_play = deal.plays[proof] \
        if isinstance(proof, int) and 0 <= proof < len(deal.plays) else None
    lead = index - index % 4  # the trick's first card: the suit asked for
    return {
        "deal": deal.index, "play": index, "seat": v["seat"], "card": v["card"],
        "rule": v["rule"], "proven_by": v.get("proven_by"),
        "rule_proven_by": v.get("rule_proven_by"),
        "proof": None if proof_play is None else {"play": proof, "seat": proof_play.seat,
                                                  "card": proof_play.card},
        "evidence": _evidence_url(play.evidence if play else None),
        "proof_evidence": _evidence_url(proof_play.evidence if proof_play else None),
        "led": deal.plays[lead].card if lead < index < len(deal.plays) else None,
        "decision": ruling["decision"] if ruling and ruling["rule"] == v["rule"] else "pending",
        # A misreading of this play would clear the flag: the referee checks that card first.
        "unless": v.get("unless"),
    }


def _evidence_url(path: str | None) -> str | None:
    return None if not path else "/evidence/" + path.lstrip("/")


def _play_json(index: int, p: Any) -> dict[str, Any]:
    return {"play": index, "seat": p.seat, "card": p.card, "uncertain": p.uncertain,
            "confidence": p.confidence, "alternatives": p.alternatives,
            "evidence": _evidence_url(p.evidence), "read_as": p.read_as, "actor": p.actor,
            "seq": p.seq}


def game_state(events: Sequence[Event]) -> dict[str, Any]:
    """The whole JSON state for a list of events (already cut at the broadcast delay)."""
    game = fold(events)
    rules = rules_of(game)
    deals = [deal_state(game, rules, d) for d in game.deals]
    total = {"NS": 0, "EW": 0}
    history = []
    for d in deals:
        score = d["penalty"]["score"] if d["penalty"] else d["score"]
        counted = bool(score) and (d["over"] or d["card_points"] is not None or d["penalty"])
        if counted:
            for team in total:
                total[team] += int(score.get(team, 0))
        if d is not deals[-1] or counted:
            history.append({"index": d["index"], "dealer": d["dealer"], "contract": d["contract"],
                            "announces": d["announces"], "belote": d["belote"],
                            "result": "penalty" if d["penalty"] else d["result"],
                            "score": score if counted else None, "card_points": d["card_points"],
                            "total": dict(total)})
    summary = None if any(d["penalty"] for d in deals) else engine_game(game)
    winner = _winner(rules, total)
    if summary is not None:  # the engine's game: litige reserve, no end on a belote, ties
        total, winner = dict(summary["score"]), summary["winner"]
    flags = [f for d in deals for f in d["violations"]]
    return {
        "seq": game.last_seq, "time": game.last_time, "started": game.started,
        "started_at": game.started_at,
        "rules": {"name": rules.name, "target": rules.target, "clockwise": rules.clockwise,
                  "spec": game.rules},
        "players": game.players, "teams": game.teams,
        "score": total, "target": rules.target, "winner": winner,
        "reserve": (summary or {}).get("reserve", 0), "notes": (summary or {}).get("notes", []),
        "deal": deals[-1] if deals else None, "history": history, "flags": flags,
        "errors": game.errors,
    }


def engine_game(game: Folded) -> dict[str, Any] | None:
    """The engine's game summary for the whole log, or None where it cannot judge it.

    None when a deal was left unfinished before the last, the dealers did not rotate as the
    rules say, or engine.record is missing: the page then sums the deal scores itself.
    """
    deals = list(game.deals)
    last = deals[-1] if deals else None
    if last is not None and (len(last.plays) < 32 if last.contract else not last.over):
        deals.pop()  # the deal in progress adds nothing to the game yet
    if not deals:
        return None
    record = {**game.record(), "deals": [d.record(None) for d in deals]}
    return cast(dict[str, Any] | None, _GAMES.get(_key(record), lambda: _summary(record)))


def _summary(record: dict[str, Any]) -> dict[str, Any] | None:
    try:
        from engine.record import judge, load_record

        out = judge(load_record(record))
    except (ImportError, ValueError):
        return None
    summary = out.get("game") if isinstance(out, dict) else None
    return dict(summary) if isinstance(summary, dict) else None


def _winner(rules: RuleSet, total: dict[str, int]) -> str | None:
    """First team at or above the target; both → the higher; an exact tie plays on."""
    over = [t for t in ("NS", "EW") if total[t] >= rules.target]
    if not over or total["NS"] == total["EW"]:
        return None
    return max(over, key=lambda t: total[t])


class StateCache:
    """Builds states from a store, once per (last event included); thread-safe."""

    def __init__(self, store: EventStore, keep: int = 64) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._events: list[Event] = []
        self._build = threading.Lock()
        self._states: dict[int, tuple[dict[str, Any], bytes, int]] = {}
        # The newest undelayed message, built by the push thread so streams need no thread hop.
        self.latest: tuple[bytes, int] | None = None
        self._keep = keep

    def events(self) -> list[Event]:
        """All events, read incrementally from the store."""
        with self._lock:
            last = self._events[-1].seq if self._events else 0
            self._events.extend(self.store.events(last))
            return list(self._events)

    def state(self, delay: float = 0.0, now: float | None = None) -> dict[str, Any]:
        """The state as it was `delay` seconds ago (0: now)."""
        return self._get(delay, now)[0]

    def message(self, delay: float = 0.0) -> tuple[bytes, int]:
        """The state as one server-sent event (bytes), and the last event it includes."""
        _, message, key = self._get(delay, None)
        if delay <= 0:
            self.latest = (message, key)
        return message, key

    def _get(self, delay: float, now: float | None) -> tuple[dict[str, Any], bytes, int]:
        events = self.events()
        if delay > 0:
            cut = (time.time() if now is None else now) - delay
            events = [e for e in events if e.time <= cut]
        key = events[-1].seq if events else 0
        # One builder at a time: a hundred viewers waking together cost one fold, not a hundred.
        with self._build:
            hit = self._states.get(key)
            if hit is None:
                state = game_state(events)
                text = json.dumps(state, separators=(",", ":"))
                hit = (state, f"event: state\nid: {key}\ndata: {text}\n\n".encode(), key)
                self._states[key] = hit
                while len(self._states) > self._keep:
                    self._states.pop(next(iter(self._states)))
        return hit
