"""Public read-only API: the state, the events, the record, the live stream, cards and pictures."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse

from device.web.cards_svg import back_svg, card_svg
from device.web.fold import fold
from device.web.i18n import LANGS, words
from device.web.push import Broadcaster
from device.web.state import StateCache
from engine.cards import CARD_NAMES

Delay = Annotated[float, Query(ge=0, description="Broadcast delay in seconds: the state as it "
                                                  "was this long ago.")]


def health_json(health: object | None) -> dict[str, Any] | None:
    """Whatever the loop exposes as health (a dict, a dataclass, `snapshot()`, `to_json()`)."""
    if health is None:
        return None
    value: Any = health
    for name in ("snapshot", "to_json", "as_dict"):
        if callable(getattr(value, name, None)):
            value = getattr(value, name)()
            break
    else:
        if callable(value):
            value = value()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if isinstance(value, Mapping):
        plain: dict[str, Any] = json.loads(json.dumps(dict(value), default=str))
        return plain
    return {"status": str(value)}


def api_router(cache: StateCache, push: Broadcaster, health: object | None,
               evidence_dir: Path | None, delay_max: float) -> APIRouter:
    """The /api/* read routes plus /cards and /evidence."""
    router = APIRouter()
    router.include_router(pages_router())

    def limited(delay: float) -> float:
        if delay > delay_max:
            raise HTTPException(422, f"delay: at most {delay_max:g} seconds, got {delay:g}")
        return delay

    @router.get("/api/state", tags=["state"], summary="The game state the pages show")
    def state(delay: Delay = 0.0) -> dict[str, Any]:
        out = dict(cache.state(limited(delay)))
        out["health"] = health_json(health)
        return out

    @router.get("/api/events", tags=["state"], summary="The event log (the audit trail)")
    def events(since: Annotated[int, Query(ge=0)] = 0,
               limit: Annotated[int, Query(ge=1, le=5000)] = 1000) -> list[dict[str, Any]]:
        return [e.to_json() for e in cache.events() if e.seq > since][:limit]

    @router.get("/api/record", tags=["record"], summary="One deal in the engine's record format")
    def record(deal: Annotated[int | None, Query(ge=1, description="Deal number (default: the "
                                                 "current deal).")] = None) -> Response:
        game = fold(cache.events())
        if not game.deals:
            raise HTTPException(404, "no deal recorded yet")
        index = len(game.deals) if deal is None else deal
        if index > len(game.deals):
            raise HTTPException(404, f"no deal {index}: {len(game.deals)} deal(s) recorded")
        body = game.deals[index - 1].record(game.rules)
        return JSONResponse(body, headers={
            "Content-Disposition": f'attachment; filename="deal-{index:03d}.json"'})

    @router.get("/api/record/game", tags=["record"], summary="Every deal of the game")
    def record_game() -> Response:
        body = fold(cache.events()).record()
        return JSONResponse(body, headers={
            "Content-Disposition": 'attachment; filename="game.json"'})

    @router.get("/api/health", tags=["state"], summary="Camera and loop health")
    def get_health() -> dict[str, Any] | None:
        return health_json(health)

    @router.get("/api/events/stream", tags=["state"],
                summary="Server-sent events: `state` on every change, `health` every 2 s",
                response_class=StreamingResponse)
    async def stream(request: Request, delay: Delay = 0.0) -> StreamingResponse:
        limited(delay)

        async def messages() -> AsyncIterator[bytes]:
            sent = -1
            beat = 0.0
            loop = asyncio.get_running_loop()
            push.viewers += 1
            try:
                while True:
                    version = push.version
                    latest = cache.latest
                    if not delay and latest is not None and latest[1] == cache.store.last_seq:
                        message, seq = latest  # built once by the push thread for every viewer
                    else:
                        message, seq = await run_in_threadpool(cache.message, delay)
                    if seq != sent:
                        sent = seq
                        yield message
                    if health is not None and loop.time() - beat > 2.0:
                        beat = loop.time()
                        yield f"event: health\ndata: {json.dumps(health_json(health))}\n\n".encode()
                    if await request.is_disconnected():
                        return
                    # Delayed streams poll: an old event becomes due without the log growing.
                    if not await push.wait(version, 0.25 if delay else 2.0):
                        yield b": keep-alive\n\n"
            finally:
                push.viewers -= 1

        return StreamingResponse(messages(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @router.get("/evidence/{path:path}", tags=["pages"], summary="An evidence picture")
    def evidence(path: str) -> FileResponse:
        if evidence_dir is None:
            raise HTTPException(404, "no evidence folder configured")
        root = evidence_dir.resolve()
        for candidate in (root / path, root.parent / path):
            full = candidate.resolve()
            if full.is_relative_to(root) and full.is_file():
                return FileResponse(full)
        raise HTTPException(404, f"no evidence picture {path!r}")

    return router


def pages_router() -> APIRouter:
    """What every page needs whatever it shows: its words and the card pictures."""
    router = APIRouter()

    @router.get("/api/i18n", tags=["pages"], summary="The words of the pages")
    def i18n(lang: Annotated[str, Query(max_length=5)] = "fr") -> dict[str, str]:
        if lang not in LANGS:
            raise HTTPException(422, f"lang: expected one of {', '.join(LANGS)}, got {lang!r}")
        return words(lang)

    @router.get("/cards/{name}.svg", tags=["pages"], summary="A card picture")
    def card(name: str, lang: Annotated[str, Query(max_length=5)] = "fr") -> Response:
        key = name.upper()
        if key == "BACK":
            svg = back_svg()
        elif key in CARD_NAMES:
            svg = card_svg(key, lang if lang in LANGS else "fr")
        else:
            raise HTTPException(404, f"unknown card {name!r}: expected e.g. JH, TS, 7C or back")
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    return router
