"""The tournament room's web app: one page with a tile per table, fed by `device.room.Room`.

Pages: `/` (the board, `?lang=en`, `?cols=N` to force N tiles a row on a big screen).
API: `/api/room` (every tile, `device.room.Room.snapshot`, and the board's title), `/api/i18n`,
`/cards/{JH|back}.svg`.

>>> from device.room import Room, Table
>>> app = create_room_app(Room([Table("Table 1", "http://pi-1.local:8000")]))
>>> "/api/room" in app.openapi()["paths"]
True
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from device.room import Room
from device.web.app import STATIC, page_route
from device.web.routes_api import pages_router


def create_room_app(room: Room, *, title: str | None = None,
                    poll: bool = True) -> FastAPI:
    """The board over `room`, headed `title` (default: the page's own words); with `poll`, the
    room is polled while the app runs."""

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if poll:
            room.start()
        try:
            yield
        finally:
            if poll:
                room.stop()

    app = FastAPI(title="Belote companion: tournament room", version="1",
                  summary="Every table's game on one screen.", lifespan=lifespan)
    app.state.room = room

    @app.get("/api/room", tags=["room"], summary="Every table's tile, in the order given")
    def tiles() -> dict[str, Any]:
        return {**room.snapshot(), "title": title}

    app.include_router(pages_router())
    app.add_api_route("/", page_route("room.html"), methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
