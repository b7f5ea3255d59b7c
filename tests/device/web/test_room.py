"""The tournament room's board: the table list, each table's tile, polling, the API and the CLI."""

from __future__ import annotations

import socket
import threading
import urllib.error
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import LiveServer, first_proof, free_port, play, start

from device.cli import main
from device.room import Room, RoomError, Table, fetch_state, load_tables, parse_table, tile
from device.store import EventStore
from device.web.room_app import create_room_app
from device.web.state import StateCache


@pytest.mark.parametrize(("text", "name", "url"), [
    ("Table 1=http://pi-1.local:8000", "Table 1", "http://pi-1.local:8000"),
    ("Salle B / 4=http://10.0.0.4:8000/", "Salle B / 4", "http://10.0.0.4:8000"),
    ("http://pi-7.local:8000", "Table 3", "http://pi-7.local:8000"),
    ("https://club.example/table2/", "Table 3", "https://club.example/table2"),
    (" Centre = http://pi-c:80 ", "Centre", "http://pi-c:80"),
])
def test_a_table_is_named_and_its_address_kept_without_trailing_slash(text, name, url) -> None:
    assert parse_table(text, 3) == Table(name, url)


@pytest.mark.parametrize(("text", "named"), [
    ("Table 1=ftp://pi", "'ftp://pi'"),
    ("Table 1=pi-1.local:8000", "'pi-1.local:8000'"),
    ("Table 1=", "''"),
    ("http://", "'http://'"),
    ("http://pi-1/state?x=1", "'http://pi-1/state?x=1'"),  # a query is no base address
    ("=http://pi", "'=http://pi': expected NAME=URL"),
])
def test_a_bad_table_is_an_error_naming_it(text, named) -> None:
    with pytest.raises(RoomError, match="expected") as err:
        parse_table(text)
    assert named in str(err.value)


def test_tables_from_a_file_in_order_and_strictly(tmp_path: Path) -> None:
    good = tmp_path / "tables.yaml"
    good.write_text("tables:\n  - {name: Table 1, url: 'http://pi-1:8000/'}\n"
                    "  - {url: 'http://pi-2:8000'}\n")
    assert load_tables(good) == [Table("Table 1", "http://pi-1:8000"),
                                 Table("Table 2", "http://pi-2:8000")]
    cases = {
        "tables:\n  - {name: A, ulr: 'http://a'}\n": "unknown key 'ulr'",
        "tables:\n  - {name: A}\n": "'url' is missing",
        "table:\n  - {name: A, url: 'http://a'}\n": "unknown key 'table'",
        "tables: http://a\n": "expected one key 'tables' holding a list",
        "tables:\n  - {name: A, url: 'http://a'}\n  - {name: A, url: 'http://b'}\n":
            "table name 'A' given twice",
        "tables:\n  - {name: A, url: 'http://a'}\n  - {name: B, url: 'http://a/'}\n":
            "table url 'http://a' given twice",
        "tables: []\n": "no tables",
        "tables:\n  - {name: A, url: 'file:///etc/passwd'}\n": "tables[1]: table address",
        "tables: [\n": "not valid YAML",
    }
    for text, message in cases.items():
        bad = tmp_path / "bad.yaml"
        bad.write_text(text)
        with pytest.raises(RoomError, match=message.replace("[", r"\[").replace("]", r"\]")):
            load_tables(bad)
    with pytest.raises(RoomError, match="cannot read"):
        load_tables(tmp_path / "missing.yaml")


def test_a_tile_says_the_score_the_deal_its_trick_and_the_flags_to_judge(revoke_deal) -> None:
    store = EventStore(":memory:")
    players = {"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"}
    start(store, revoke_deal, players=players)
    upto = first_proof(revoke_deal) + 1  # up to the card proving a revoke: one flag to judge
    for i in range(upto):
        play(store, revoke_deal, i)
    state = StateCache(store).state()
    state["health"] = {"camera": "down", "fps": 0.0}
    t = tile(state)
    assert t["players"] == players and t["teams"] == {"NS": "Nous", "EW": "Eux"}
    assert t["score"] == {"NS": 0, "EW": 0} and t["deals"] == 0 and t["winner"] is None
    assert t["deal"]["index"] == 1 and t["deal"]["contract"] == revoke_deal.contract.to_json()
    assert t["deal"]["trick_number"] == upto // 4 + 1
    assert [p["card"] for p in t["deal"]["trick"]] == [
        str(c) for _s, c in revoke_deal.plays[4 * (upto // 4):upto]]
    assert sum(t["deal"]["tricks_won"].values()) == upto // 4
    assert t["flags"] == {"pending": 1, "total": 1}
    assert t["camera"] == "down" and t["started"] is True
    store.close()


def test_a_silent_table_keeps_its_last_tile_marked_offline_and_comes_back() -> None:
    answers: dict[str, Any] = {
        "http://a": {"score": {"NS": 120, "EW": 80}, "started": True, "target": 1000},
        "http://b": urllib.error.URLError(ConnectionRefusedError(111, "Connection refused")),
    }
    now = [1000.0]

    def fetch(url: str) -> dict[str, Any]:
        answer = answers[url]
        if isinstance(answer, Exception):
            raise answer
        return answer

    room = Room([Table("A", "http://a"), Table("B", "http://b")], fetch=fetch,
                clock=lambda: now[0])
    room.poll()
    a, b = room.snapshot()["tables"]
    assert (a["status"], a["last_seen"], a["game"]["score"]) == ("live", 1000.0,
                                                                  {"NS": 120, "EW": 80})
    assert (b["status"], b["why"], b["error"], b["game"]) == ("waiting", "refused",
                                                              "connection refused", None)
    now[0] = 1010.0
    answers["http://a"] = TimeoutError("timed out")
    answers["http://b"] = {"score": {"NS": 0, "EW": 0}}
    room.poll()
    a, b = room.snapshot()["tables"]
    assert (a["status"], a["why"], a["last_seen"]) == ("offline", "timeout", 1000.0)
    assert a["game"]["score"] == {"NS": 120, "EW": 80}  # what the room last knew
    assert (b["status"], b["last_seen"]) == ("live", 1010.0)
    answers["http://a"] = urllib.error.HTTPError("http://a/api/state", 500, "boom", None, None)
    room.poll()
    a = room.snapshot()["tables"][0]
    assert (a["why"], a["error"]) == ("http", "HTTP 500")
    answers["http://a"] = urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))
    room.poll()
    a = room.snapshot()["tables"][0]
    assert (a["why"], a["error"]) == ("unreachable", "name or service not known")
    answers["http://a"] = ValueError("not a companion's state")
    room.poll()
    assert room.snapshot()["tables"][0]["why"] == "other"
    answers["http://a"] = {"score": {"NS": 250, "EW": 80}}
    room.poll()
    a = room.snapshot()["tables"][0]
    assert (a["status"], a["error"], a["why"], a["game"]["score"]["NS"]) == ("live", None, None,
                                                                             250)
    room.stop()


def test_tables_are_asked_at_the_same_time() -> None:
    # Each fetch waits for the other: asked one after the other, both would time out.
    both = threading.Barrier(2, timeout=5)

    def fetch(url: str) -> dict[str, Any]:
        both.wait()
        return {"score": {"NS": 0, "EW": 0}}

    room = Room([Table("A", "http://a"), Table("B", "http://b")], fetch=fetch)
    room.poll()
    assert [t["status"] for t in room.snapshot()["tables"]] == ["live", "live"]
    room.stop()


def test_the_room_reads_real_companions_over_http(revoke_deal) -> None:
    store = EventStore(":memory:")
    start(store, revoke_deal)
    for i in range(5):
        play(store, revoke_deal, i)
    dead = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    with LiveServer(store) as table:
        state = fetch_state(table.url)
        assert state["seq"] == store.last_seq
        with pytest.raises(OSError):
            fetch_state(dead, timeout=2)
        room = Room([Table("Live", table.url), Table("Dead", dead)], interval=0.2)
        with TestClient(create_room_app(room)) as client:  # polls while it runs
            for _ in range(50):
                tiles = client.get("/api/room").json()["tables"]
                if tiles[0]["status"] == "live":
                    break
                threading.Event().wait(0.1)
            assert [t["status"] for t in tiles] == ["live", "waiting"]
            assert tiles[0]["game"]["deal"]["trick_number"] == 2
            assert tiles[1]["error"] == "connection refused"
            assert "room.js" in client.get("/").text
            assert client.get("/cards/JH.svg").headers["content-type"] == "image/svg+xml"
            assert client.get("/api/i18n?lang=en").json()["room_title"] == "Tournament room"
    store.close()


def test_an_address_that_answers_no_companion_state_is_an_error() -> None:
    from fastapi import FastAPI

    other = FastAPI()
    other.get("/api/state")(lambda: {"hello": "world"})
    with LiveServer(None, app=other) as server, pytest.raises(ValueError, match="no 'score'"):
        fetch_state(server.url)


def test_the_room_command_refuses_a_bad_table_list(tmp_path: Path, capsys) -> None:
    assert main(["room"]) == 2
    assert "room: no tables: give --table NAME=URL" in capsys.readouterr().err
    assert main(["room", "--table", "T1=pi-1.local:8000"]) == 2
    assert "expected http://HOST[:PORT]" in capsys.readouterr().err
    typo = tmp_path / "tables.yaml"
    typo.write_text("tables:\n  - {name: T1, adress: 'http://pi-1:8000'}\n")
    assert main(["room", "--tables", str(typo)]) == 2
    assert "tables[1]: unknown key 'adress'" in capsys.readouterr().err
    assert main(["room", "--table", "http://a", "--table", "http://a/"]) == 2
    assert "given twice" in capsys.readouterr().err
    assert main(["room", "--table", "http://a", "--interval", "0"]) == 2
    assert "--interval: expected 0.2 to 60 seconds" in capsys.readouterr().err
