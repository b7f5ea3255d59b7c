"""The game's memory: an append-only event log in SQLite.

Every fact the companion learns (a card played, a contract entered, a referee's correction) is one
row, committed before anyone is told about it, so a power cut or a restart resumes exactly where the
game was: the state is always rebuilt from the log. Corrections and undos are events too, so the log
is also the audit trail (who, when, what before, what after).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    time  REAL NOT NULL,
    type  TEXT NOT NULL,
    actor TEXT NOT NULL,
    data  TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Event:
    """One row of the log. `seq` grows by one per event; `time` is wall-clock seconds."""

    seq: int
    time: float
    type: str
    actor: str
    data: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "type": self.type,
            "actor": self.actor,
            "data": dict(self.data),
        }


class EventStore:
    """Thread-safe append-only log. `path` may be ':memory:' for tests.

    >>> store = EventStore(":memory:")
    >>> store.append("deal_started", {"dealer": "E"}).seq
    1
    >>> [e.type for e in store.events()]
    ['deal_started']
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a play acknowledged is a play on disk
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        self._last_seq: int = int(row[0])

    def append(self, type: str, data: Mapping[str, Any], *, actor: str = "camera") -> Event:
        """Write one event durably and wake everyone waiting for news."""
        if not type or not isinstance(type, str):
            raise ValueError(f"event type must be a non-empty string, got {type!r}")
        payload = json.dumps(dict(data), separators=(",", ":"), sort_keys=True)
        now = time.time()
        with self._changed:
            cur = self._db.execute(
                "INSERT INTO events (time, type, actor, data) VALUES (?, ?, ?, ?)",
                (now, type, actor, payload),
            )
            seq = int(cur.lastrowid or 0)
            self._last_seq = seq
            self._changed.notify_all()
        return Event(seq, now, type, actor, json.loads(payload))

    def events(self, since: int = 0) -> list[Event]:
        """All events with seq > since, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, time, type, actor, data FROM events WHERE seq > ? ORDER BY seq",
                (since,),
            ).fetchall()
        return [Event(int(s), float(t), ty, a, json.loads(d)) for s, t, ty, a, d in rows]

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def wait(self, after: int, timeout: float) -> bool:
        """Block until an event with seq > after exists (True) or the timeout passes (False)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._last_seq <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    def close(self) -> None:
        with self._lock:
            self._db.close()
