"""The referee's API: every change is one event with actor "referee", checked before it is written.

Requests carry the PIN in the `X-Referee-Pin` header. A request that is refused (bad PIN, a card
that cannot be there, a contract the rules do not allow) gets a 4xx with a message and writes
nothing; checks and the write happen under one lock so two referees cannot race.
"""

from __future__ import annotations

import secrets
import threading
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Query

from device.store import EventStore
from device.web.fold import audit, cancelled, fold
from device.web.models import (
    AnnounceIn,
    AuctionIn,
    BeloteIn,
    CoincheIn,
    ContractIn,
    CorrectionIn,
    DealStart,
    Done,
    GameStart,
    PlayIn,
    RulingIn,
    UndoIn,
)
from device.web.state import StateCache, possible_cards, rules_of
from engine.contract import Contract, ContractError
from engine.rules import RulesError, RuleSet, find_rules

PIN_HEADER = "X-Referee-Pin"


def referee_router(store: EventStore, cache: StateCache, pin: str | None) -> APIRouter:
    """The /api/referee/* routes, bound to one store and one PIN (None: console disabled)."""
    lock = threading.Lock()

    def check_pin(
        x_referee_pin: Annotated[str | None, Header(description="The referee PIN.")] = None,
    ) -> None:
        if not pin:
            raise HTTPException(403, "the referee console is disabled: set server.referee_pin")
        given = (x_referee_pin or "").encode()
        if not secrets.compare_digest(given, pin.encode()):
            raise HTTPException(401, f"wrong or missing referee PIN ({PIN_HEADER} header)")

    router = APIRouter(prefix="/api/referee", tags=["referee"], dependencies=[Depends(check_pin)])

    def write(type_: str, data: dict[str, Any]) -> Done:
        ev = store.append(type_, data, actor="referee")
        return Done(seq=ev.seq, type=ev.type, data=dict(ev.data))

    def current() -> tuple[Any, RuleSet]:
        game = fold(cache.events())
        return game, rules_of(game)

    @router.get("/check", summary="Check the PIN")
    def check() -> dict[str, bool]:
        return {"ok": True}

    @router.post("/game", response_model=Done, summary="Start a game")
    def start_game(body: GameStart) -> Done:
        try:
            find_rules(body.rules)
        except RulesError as exc:
            raise HTTPException(400, f"rules: {exc}") from None
        with lock:
            done = write("game_started", {"rules": body.rules, "players": dict(body.players),
                                          "teams": dict(body.teams)})
            if body.dealer is not None:
                write("deal_started", {"dealer": body.dealer})
        return done

    @router.post("/deal", response_model=Done, summary="Start a deal")
    def start_deal(body: DealStart) -> Done:
        with lock:
            return write("deal_started", {"dealer": body.dealer})

    @router.post("/contract", response_model=Done, summary="Enter the deal's contract")
    def contract(body: ContractIn) -> Done:
        with lock:
            game, rules = current()
            if game.deal is None or game.deal.over:
                raise HTTPException(409, "no deal in progress: start a deal first")
            data = body.model_dump()
            check_contract(rules, data)
            return write("contract", data)

    @router.post("/auction", response_model=Done, summary="Enter the auction (contract derived)")
    def auction(body: AuctionIn) -> Done:
        from engine.record import load_record

        with lock:
            game, rules = current()
            deal = game.deal
            if deal is None or deal.over:
                raise HTTPException(409, "no deal in progress: start a deal first")
            record: dict[str, Any] = {"rules": game.rules, "dealer": deal.dealer,
                                      "auction": list(body.calls), "plays": []}
            turned = body.turned or deal.turned
            if turned is not None:
                record["turned"] = turned
            try:
                derived = load_record(record).deals[0].contract
            except ValueError as exc:
                raise HTTPException(400, str(exc)) from None
            if derived is None:
                raise HTTPException(409, "every player passed: the deal is thrown in; start "
                                         "the next deal")
            data = derived.to_json()
            check_contract(rules, data)
            return write("contract", data)

    @router.post("/coinche", response_model=Done, summary="Change the coinche level")
    def coinche(body: CoincheIn) -> Done:
        with lock:
            game, rules = current()
            if game.deal is None or game.deal.contract is None:
                raise HTTPException(409, "no contract to coinche: enter the contract first")
            data = {**game.deal.contract, "coinche": body.coinche}
            check_contract(rules, data)
            return write("contract", data)

    @router.post("/announce", response_model=Done, summary="Record an annonce")
    def announce(body: AnnounceIn) -> Done:
        with lock:
            game, _ = current()
            if game.deal is None:
                raise HTTPException(409, "no deal in progress")
            return write("announce", body.model_dump())

    @router.post("/belote", response_model=Done, summary="Record a belote declaration")
    def belote(body: BeloteIn) -> Done:
        with lock:
            game, _ = current()
            if game.deal is None:
                raise HTTPException(409, "no deal in progress")
            return write("belote", body.model_dump())

    @router.post("/play", response_model=Done, summary="Enter a card the camera missed")
    def play(body: PlayIn) -> Done:
        with lock:
            game, _ = current()
            deal = game.deal
            if deal is None or deal.over:
                raise HTTPException(409, "no deal in progress")
            if len(deal.plays) >= 32:
                raise HTTPException(409, "the deal already has 32 plays")
            if any(p.card == body.card for p in deal.plays):
                raise HTTPException(409, f"{body.card} was already played in this deal")
            return write("card_played", {"seat": body.seat, "card": body.card, "t": None,
                                         "confidence": 1.0, "uncertain": False,
                                         "alternatives": [], "evidence": None})

    @router.get("/possible", summary="Cards a misread play may really have been")
    def possible(play: Annotated[int, Query(ge=0, le=63)]) -> dict[str, Any]:
        game, _ = current()
        deal = game.deal
        if deal is None or play >= len(deal.plays):
            raise HTTPException(404, f"no play {play} in the current deal")
        p = deal.plays[play]
        cards = [c for c in possible_cards(game, deal, play) if c != p.card]
        # Likeliest first: the camera's own alternatives, then the rest in deck order.
        alts = [str(a[0]) for a in p.alternatives if a and str(a[0]) in cards]
        ordered = alts + [c for c in cards if c not in alts]
        return {"play": play, "seat": p.seat, "card": p.card, "possible": ordered}

    @router.post("/correction", response_model=Done, summary="Correct a misread card")
    def correction(body: CorrectionIn) -> Done:
        with lock:
            game, _ = current()
            deal = game.deal
            if deal is None or body.play >= len(deal.plays):
                raise HTTPException(409, f"no play {body.play} in the current deal")
            before = deal.plays[body.play].card
            if body.card == before:
                raise HTTPException(409, f"play {body.play} is already {before}")
            cards = possible_cards(game, deal, body.play)
            if body.card not in cards:
                raise HTTPException(409, f"{body.card} cannot be play {body.play}: possible "
                                         f"cards are {' '.join(cards) or 'none'}")
            return write("correction", {"play": body.play, "card": body.card, "before": before})

    @router.post("/ruling", response_model=Done, summary="Accept or dismiss a flagged play")
    def ruling(body: RulingIn) -> Done:
        with lock:
            state = cache.state()
            flags = (state["deal"] or {}).get("violations", [])
            if not any(f["play"] == body.play and f["rule"] == body.rule for f in flags):
                raise HTTPException(409, f"play {body.play} is not flagged for {body.rule!r} in "
                                         "the current deal")
            return write("ruling", body.model_dump())

    @router.post("/deal_over", response_model=Done, summary="Close the current deal")
    def deal_over() -> Done:
        with lock:
            game, _ = current()
            if game.deal is None or game.deal.over:
                raise HTTPException(409, "no deal in progress")
            return write("deal_over", {})

    @router.post("/undo", response_model=Done, summary="Cancel the last event (or one by seq)")
    def undo(body: UndoIn) -> Done:
        with lock:
            events = cache.events()
            dead = cancelled(events)
            live = [e for e in events if e.seq not in dead and e.type != "undo"]
            if body.seq is None:
                if not live:
                    raise HTTPException(409, "nothing to undo")
                target = live[-1].seq
            elif body.seq not in {e.seq for e in live}:
                raise HTTPException(409, f"event {body.seq} does not exist, is an undo or is "
                                         "already cancelled")
            else:
                target = body.seq
            return write("undo", {"seq": target})

    @router.get("/audit", summary="The referee's changes, newest first")
    def audit_log(limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> list[dict[str, Any]]:
        return audit(cache.events())[:limit]

    return router


def check_contract(rules: RuleSet, data: dict[str, Any]) -> None:
    """Refuse (400) a contract the preset does not allow, naming the field."""
    try:
        contract = Contract.from_json(data)
    except ContractError as exc:
        raise HTTPException(400, f"contract: {exc}") from None
    if contract.trump not in rules.trump_modes:
        modes = " ".join(str(m) for m in rules.trump_modes)
        raise HTTPException(400, f"contract trump: {contract.trump} is not allowed by "
                                 f"{rules.name} (allowed: {modes})")
    bid = contract.bid
    if bid == "capot" and rules.capot_bid is None:
        raise HTTPException(400, f"contract bid: {rules.name} has no capot bid")
    if bid == "generale" and rules.generale_bid is None:
        raise HTTPException(400, f"contract bid: {rules.name} has no générale bid")
    if isinstance(bid, int) and rules.auction == "coinche" and not (
        rules.bid_min <= bid <= rules.bid_max and (bid - rules.bid_min) % rules.bid_step == 0
    ):
        raise HTTPException(400, f"contract bid: {bid} is not a bid of {rules.name} (from "
                                 f"{rules.bid_min} to {rules.bid_max} by {rules.bid_step})")
    if rules.auction == "belote" and contract.coinche != 1:
        raise HTTPException(400, f"contract coinche: {rules.name} has no coinche")


__all__ = ["PIN_HEADER", "check_contract", "referee_router"]
