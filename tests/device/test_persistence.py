"""A power cut mid-deal: kill -9 the companion twice, start it again, lose and double nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.store import EventStore

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import scripted_table  # noqa: E402


def _start(db: Path, epoch: float | None, tricks: int) -> subprocess.Popen[bytes]:
    """The scripted table's companion; `epoch` None: its script starts once it is ready."""
    clock = [] if epoch is None else ["--epoch", str(epoch)]
    return subprocess.Popen(
        [sys.executable, str(HERE / "scripted_table.py"), "--db", str(db), *clock,
         "--tricks", str(tricks)],
        stderr=subprocess.PIPE,
    )


def _plays(db: Path) -> list[tuple[str, str]]:
    store = EventStore(db)
    try:
        return [(e.data["seat"], e.data["card"]) for e in store.events() if e.type == "card_played"]
    finally:
        store.close()


def _wait_for(db: Path, n: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists() and len(_plays(db)) >= n:
            return
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.05)
    raise AssertionError(f"{n} plays not recorded within {timeout} s")


@pytest.mark.slow
def test_kill_9_mid_deal_loses_and_duplicates_no_play(tmp_path) -> None:
    db, tricks = tmp_path / "game.db", 3
    epoch = time.time() + 1.0  # the table's clock keeps running while the process is dead
    for recorded in (3, 7):  # killed inside the first trick, then inside the second
        proc = _start(db, epoch, tricks)
        _wait_for(db, recorded, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert proc.returncode == -signal.SIGKILL
    proc = _start(db, epoch, tricks)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert _plays(db) == scripted_table.PLAYS[: 4 * tricks]
    store = EventStore(db)
    types = [e.type for e in store.events()]
    assert types.count("trick_gathered") == tricks and types.count("deal_started") == 1


@pytest.mark.slow
def test_sigterm_stops_cleanly(tmp_path) -> None:
    db = tmp_path / "game.db"
    proc = _start(db, None, 1)
    _wait_for(db, 1, proc)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert "stopping (SIGTERM)" in err.decode()
    assert 1 <= len(_plays(db)) < 4  # it stopped mid-trick, with what it had recorded
