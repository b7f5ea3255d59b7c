"""Pushing news to the pages: one thread watches the store and wakes every server-sent-event stream.

A single watcher (not one blocked thread per viewer) keeps a hundred viewers cheap: each stream
awaits an asyncio event that the watcher sets from its thread when the log grows.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

from device.store import EventStore


class Broadcaster:
    """Wakes every waiting stream when the store gets a new event."""

    def __init__(self, store: EventStore, poll: float = 0.5,
                 prepare: Callable[[], object] | None = None) -> None:
        self.store = store
        self.prepare = prepare  # run in the watcher thread before waking (builds the state once)
        self.poll = poll
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self.version = 0  # bumped on the event loop at every change
        self.viewers = 0  # open streams; with none, nothing is built ahead

    def start(self) -> None:
        """Start watching; call from the event loop that serves the streams."""
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._stop = threading.Event()  # a fresh flag: an old watcher may still be finishing
        self._thread = threading.Thread(target=self._watch, name="web-push", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask the watcher to end; it notices within `poll` seconds (not waited for)."""
        self._stop.set()
        self._thread = None
        self._loop = None

    def _watch(self) -> None:
        stop = self._stop
        last = self.store.last_seq
        while not stop.is_set():
            if self.store.wait(last, self.poll):
                last = self.store.last_seq
                if self.prepare is not None and self.viewers > 0:
                    # A state that fails to build must not stop the pushes; streams rebuild it.
                    with contextlib.suppress(Exception):
                        self.prepare()
                loop = self._loop
                if loop is not None and not loop.is_closed():
                    with contextlib.suppress(RuntimeError):  # loop closing under us
                        loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        self.version += 1
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    async def wait(self, seen: int, timeout: float) -> bool:
        """Until the log grows past `version` `seen` (True) or `timeout` seconds pass (False).

        Read `version` before looking at the state, then wait with it: a change that lands in
        between is not lost.
        """
        if self.version != seen:
            return True
        if self._changed is None:  # not started (no lifespan): fall back to polling
            await asyncio.sleep(min(timeout, self.poll))
            return False
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return False
        return True
