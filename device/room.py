"""A tournament room's board: every table's companion asked for its state, one tile per table.

Each table runs its own companion (`belote run`, one Pi over each table). The room needs one
screen that follows them all: `belote room` polls each table's `/api/state` (the same JSON its
score page reads) and keeps, per table, a small summary — players, game score, the deal, its
contract, tricks, flags waiting for the referee, the camera — or says since when it has not
answered. A table that stops answering keeps its last known tile, marked offline: a Pi that
reboots mid-game must not blank the room.

    room = Room([Table("Table 1", "http://pi-1.local:8000")])
    room.poll()                # once: every table asked at the same time
    room.snapshot()            # {"time": ..., "tables": [{"name": ..., "status": ..., ...}]}
    room.start(); room.stop()  # polling in a thread, every `interval` seconds
"""

from __future__ import annotations

import errno
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POLL_S = 2.0  # how often each table is asked; a tile is at most this stale plus the fetch
TIMEOUT_S = 3.0  # a table slower than this is offline for this round
MAX_STATE_BYTES = 8 * 1024 * 1024  # a whole game's state is ~100 KB; more is not a companion
_NAME = re.compile(r"^[^=\s][^=]*$")


class RoomError(ValueError):
    """A table list that cannot be used: names the entry and what is wrong with it."""


@dataclass(frozen=True)
class Table:
    """One table of the room: the name shown on its tile and its companion's address."""

    name: str
    url: str  # e.g. http://pi-1.local:8000, no trailing slash


def table_url(url: str) -> str:
    """A companion's base address, checked: http(s)://host[:port][/prefix], no trailing slash."""
    text = url.strip().rstrip("/")
    match = re.fullmatch(r"(https?)://([^/\s?#]+)(/[^\s?#]*)?", text)
    if match is None:
        raise RoomError(f"table address {url!r}: expected http://HOST[:PORT], "
                        f"e.g. http://pi-1.local:8000")
    return text


def parse_table(text: str, number: int = 1) -> Table:
    """`NAME=URL` or a bare `URL` (then named "Table <number>")."""
    name, sep, url = text.partition("=")
    if not sep or "://" in name:  # a bare URL (whose query may hold '=')
        return Table(f"Table {number}", table_url(text))
    name = name.strip()
    if not _NAME.match(name):
        raise RoomError(f"table {text!r}: expected NAME=URL, e.g. 'Table 1=http://pi-1.local:8000'")
    return Table(name, table_url(url))


def load_tables(path: Path) -> list[Table]:
    """Tables from a YAML file: `tables:` then a list of `{name: ..., url: ...}` (both required;
    any other key is an error naming it)."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RoomError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except yaml.YAMLError as exc:
        raise RoomError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or set(data) != {"tables"} or not isinstance(
            data["tables"], list):
        extra = sorted(set(data) - {"tables"}) if isinstance(data, dict) else []
        raise RoomError(f"{path}: expected one key 'tables' holding a list of "
                        f"{{name, url}}{f'; unknown key {extra[0]!r}' if extra else ''}")
    tables = []
    for i, entry in enumerate(data["tables"], start=1):
        where = f"{path}: tables[{i}]"
        if not isinstance(entry, dict):
            raise RoomError(f"{where}: expected {{name: ..., url: ...}}, got {entry!r}")
        unknown = sorted(set(entry) - {"name", "url"})
        if unknown:
            raise RoomError(f"{where}: unknown key {unknown[0]!r} (expected name and url)")
        if "url" not in entry:
            raise RoomError(f"{where}: 'url' is missing")
        name = str(entry.get("name") or f"Table {i}").strip()
        try:
            tables.append(Table(name, table_url(str(entry["url"]))))
        except RoomError as exc:
            raise RoomError(f"{where}: {exc}") from exc
    return checked(tables)


def checked(tables: Sequence[Table]) -> list[Table]:
    """The list itself: at least one table, and no name or address twice (two tiles alike)."""
    if not tables:
        raise RoomError("no tables: give --table NAME=URL (repeatable) or --tables FILE")
    for attr in ("name", "url"):
        seen: set[str] = set()
        for t in tables:
            value = getattr(t, attr)
            if value in seen:
                raise RoomError(f"table {attr} {value!r} given twice")
            seen.add(value)
    return list(tables)


def fetch_state(url: str, timeout: float = TIMEOUT_S) -> dict[str, Any]:
    """A companion's `/api/state` (raises OSError or ValueError when it does not answer one)."""
    request = urllib.request.Request(f"{url}/api/state", headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = response.read(MAX_STATE_BYTES + 1)
    if len(body) > MAX_STATE_BYTES:
        raise ValueError(f"answer over {MAX_STATE_BYTES // 2**20} MiB: not a companion's state")
    state = json.loads(body)
    if not isinstance(state, dict) or "score" not in state:
        raise ValueError("not a companion's state (no 'score')")
    return state


def tile(state: Mapping[str, Any]) -> dict[str, Any]:
    """What a table's tile shows, from its companion's `/api/state`."""
    deal = state.get("deal") or None
    flags = state.get("flags") or []
    health = state.get("health") or {}
    camera = health.get("camera") if isinstance(health, dict) else None
    return {
        "players": state.get("players") or {},
        "teams": state.get("teams") or {},
        "score": state.get("score") or {"NS": 0, "EW": 0},
        "target": state.get("target"),
        "winner": state.get("winner"),
        "rules": (state.get("rules") or {}).get("name"),
        "started": bool(state.get("started")),
        "deals": sum(1 for h in state.get("history") or [] if h.get("score") is not None),
        "deal": None if deal is None else {
            key: deal.get(key) for key in ("index", "dealer", "contract", "trick_number",
                                           "tricks_won", "points", "turn", "over", "result",
                                           "trick")},
        "flags": {"pending": sum(1 for f in flags if f.get("decision") == "pending"),
                  "total": len(flags)},
        "camera": camera if isinstance(camera, str) else None,
        "seq": state.get("seq"),
    }


class Room:
    """The tables' latest tiles, refreshed by polling (`poll` once, or `start` a thread)."""

    def __init__(self, tables: Sequence[Table],
                 fetch: Callable[[str], dict[str, Any]] = fetch_state,
                 interval: float = POLL_S, clock: Callable[[], float] = time.time) -> None:
        self.tables = checked(tables)
        self.interval = interval
        self._fetch = fetch
        self._clock = clock
        self._lock = threading.Lock()
        self._tiles: dict[str, dict[str, Any]] = {
            t.url: {"name": t.name, "url": t.url, "status": "waiting", "error": None, "why": None,
                    "last_seen": None, "game": None} for t in self.tables}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pool = ThreadPoolExecutor(max_workers=min(16, len(self.tables)),
                                        thread_name_prefix="room")

    def poll(self) -> None:
        """Ask every table once, all at the same time; a slow table delays no other tile."""
        def ask(table: Table) -> None:
            try:
                game: dict[str, Any] | None = tile(self._fetch(table.url))
                error = None
            except (OSError, ValueError) as exc:  # URLError, timeouts, refused, bad JSON
                game, (why, error) = None, _reason(exc)
            now = self._clock()
            with self._lock:
                current = self._tiles[table.url]
                if game is not None:
                    current.update(status="live", error=None, why=None, last_seen=now, game=game)
                else:  # the last known game stays on the tile, marked offline
                    current.update(status="offline" if current["last_seen"] else "waiting",
                                   error=error, why=why)

        list(self._pool.map(ask, self.tables))

    def snapshot(self) -> dict[str, Any]:
        """Every tile in the order the tables were given (JSON-ready copies)."""
        with self._lock:
            tiles = [json.loads(json.dumps(self._tiles[t.url])) for t in self.tables]
        return {"time": self._clock(), "interval": self.interval, "tables": tiles}

    def start(self) -> None:
        """Poll every `interval` seconds in a daemon thread until `stop`."""
        if self._thread is not None:
            return

        def loop() -> None:
            while not self._stop.is_set():
                began = time.monotonic()
                self.poll()
                self._stop.wait(max(0.0, self.interval - (time.monotonic() - began)))

        self._thread = threading.Thread(target=loop, name="room-poll", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=TIMEOUT_S + self.interval)
            self._thread = None
        self._pool.shutdown(wait=False, cancel_futures=True)


_UNREACHABLE = {errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EHOSTDOWN}


def _reason(exc: BaseException) -> tuple[str, str]:
    """Why a table does not answer: a code the page words ('refused', 'timeout', 'http',
    'unreachable', or 'other') and a short text ('connection refused', 'HTTP 500', ...)."""
    if isinstance(exc, urllib.error.HTTPError):
        return "http", f"HTTP {exc.code}"
    if isinstance(exc, urllib.error.URLError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else OSError(str(exc.reason))
    if isinstance(exc, TimeoutError):
        return "timeout", "timed out"
    if isinstance(exc, ConnectionRefusedError):
        return "refused", "connection refused"
    text = (exc.strerror.lower() if isinstance(exc, OSError) and exc.strerror
            else str(exc) or type(exc).__name__)
    lost = isinstance(exc, socket.gaierror) or getattr(exc, "errno", None) in _UNREACHABLE
    return ("unreachable" if lost else "other"), text
