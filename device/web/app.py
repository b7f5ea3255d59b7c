"""The FastAPI application: live score page, referee console, stream overlay and the JSON API.

Pages: `/` (score, `?lang=en`), `/referee` (PIN), `/overlay?layout=bar|trick|score&position=
top-left|top|top-right|bottom-left|bottom|bottom-right&delay=N&flag_s=10&flags=1` (transparent,
1920x1080; a new flagged play pops up for flag_s seconds),
`/sheet` (the game's score sheet, printable on one A4 page).
Read API: `/api/state[?delay=N]`, `/api/events[?since=&limit=]`, `/api/events/stream` (SSE,
`?delay=N`), `/api/record[?deal=N]` and `/api/record/game` (the engine's record format, as
downloads), `/api/health`, `/api/i18n?lang=`, `/cards/{JH|back}.svg`, `/evidence/{path}`.
Referee API (header `X-Referee-Pin`): POST `/api/referee/{game,deal,contract,auction,coinche,
announce,belote,play,correction,ruling,deal_over,undo}`, GET `/api/referee/{check,possible,audit}`.
OpenAPI at `/docs` and `/openapi.json`. Bodies over 64 KiB: 413.

>>> from device.store import EventStore
>>> app = create_app(EventStore(":memory:"), referee_pin="1234")
>>> "/api/state" in app.openapi()["paths"]
True
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from device.store import EventStore
from device.web.push import Broadcaster
from device.web.routes_api import api_router
from device.web.routes_referee import referee_router
from device.web.state import StateCache

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024


class BodyLimit:
    """ASGI middleware: refuse request bodies over `limit` bytes with 413, before any handler."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(send, self.limit)
            return
        # Chunked bodies have no length: read them here, counting, then replay to the app.
        if scope.get("method") in ("POST", "PUT", "PATCH") and length is None:
            chunks, total, more = [], 0, True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    break
                chunks.append(message.get("body", b""))
                total += len(chunks[-1])
                if total > self.limit:
                    await _too_large(send, self.limit)
                    return
                more = message.get("more_body", False)
            body = b"".join(chunks)
            sent = False

            async def replay() -> dict[str, Any]:
                nonlocal sent
                if sent:
                    later: dict[str, Any] = await receive()
                    return later
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}

            await self.app(scope, replay, send)
            return
        await self.app(scope, receive, send)


async def _too_large(send: Any, limit: int) -> None:
    body = json.dumps({"detail": f"request body over {limit // 1024} KiB"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _setting(config: object | None, section: str, name: str) -> Any:
    """config.<section>.<name> if the config has it (device.config.Config), else None."""
    return getattr(getattr(config, section, None), name, None)


def create_app(store: EventStore, health: object | None = None, config: object | None = None,
               *, referee_pin: str | None = None, broadcast_delay_max: float = 300) -> FastAPI:
    """The web app over one event store.

    `health`: the loop's health (a dict, a dataclass, or an object with `snapshot()`), shown on the
    pages. `config`: a `device.config.Config` (server.referee_pin, storage.evidence_dir).
    `referee_pin` overrides the config's PIN; with neither, the referee console is disabled.
    `broadcast_delay_max`: the longest `?delay=` the overlay may ask for.
    """
    pin = referee_pin if referee_pin is not None else _setting(config, "server", "referee_pin")
    evidence = _setting(config, "storage", "evidence_dir")
    if evidence is None and store.path != ":memory:":
        evidence = Path(store.path).parent / "evidence"
    cache = StateCache(store)
    push = Broadcaster(store, prepare=cache.message)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        push.start()
        try:
            yield
        finally:
            push.stop()

    app = FastAPI(
        title="Belote companion",
        version="1",
        summary="Live score page, referee console and stream overlay for a camera-watched "
                "belote table.",
        lifespan=lifespan,
    )
    app.state.cache = cache
    app.state.push = push
    app.add_middleware(BodyLimit, limit=MAX_BODY)

    @app.exception_handler(ValueError)
    async def _value_error(_: Request, exc: ValueError) -> JSONResponse:
        # Engine errors (CardError, ContractError, RulesError) that slipped past the checks.
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        messages = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            messages.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        detail = "; ".join(messages) or "invalid request"
        return JSONResponse({"detail": detail, "errors": json.loads(json.dumps(
            exc.errors(), default=str))}, status_code=422)

    app.include_router(api_router(cache, push, health, Path(evidence) if evidence else None,
                                  broadcast_delay_max))
    app.include_router(referee_router(store, cache, pin))

    for route, page in (("/", "index.html"), ("/referee", "referee.html"),
                        ("/overlay", "overlay.html"), ("/sheet", "sheet.html")):
        app.add_api_route(route, page_route(page), methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def page_route(name: str) -> Any:
    path = STATIC / name

    async def page() -> FileResponse:
        if not path.is_file():
            raise HTTPException(404, f"page {name} missing")
        return FileResponse(path, media_type="text/html")

    return page
