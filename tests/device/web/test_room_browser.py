"""The tournament room's board in headless Chromium: tiles of live, silent and unreachable tables.

Two table companions run as uvicorn servers in threads (one of them stopped mid-test, as a Pi
that loses power), a third address answers nothing; the board is served the same way. The
screenshot lands in docs/screenshots/room.png.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from web_helpers import BROWSER, LiveServer, first_proof, free_port, play, shot, sim_deal, start

from device.room import Room, Table
from device.store import EventStore
from device.web.room_app import create_room_app
from device.web.state import StateCache

pytestmark = BROWSER


def test_the_board_shows_every_table_and_keeps_a_silent_ones_last_score(
        browser: Any, js_errors: list[str], revoke_deal: Any) -> None:
    first, second = EventStore(":memory:"), EventStore(":memory:")
    start(first, revoke_deal, players={"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"})
    for i in range(first_proof(revoke_deal) + 1):  # the revoke and the card proving it
        play(first, revoke_deal, i)
    other = sim_deal(11, 0)
    start(second, other, players={"N": "Élise", "E": "Farid", "S": "Gaëlle", "W": "Hugo"})
    for i in range(32):
        play(second, other, i)
    second.append("deal_over", {})
    later = sim_deal(12, 0)
    second.append("deal_started", {"dealer": str(later.dealer)})
    second.append("contract", {**later.contract.to_json(), "coinche": 2}, actor="referee")
    for i in range(2):
        play(second, later, i)
    between = EventStore(":memory:")  # a deal just over, the next not started: its result shows
    start(between, other)
    for i in range(32):
        play(between, other, i)
    between.append("deal_over", {})
    nobody = f"http://127.0.0.1:{free_port()}"
    # A game won: what a companion answers then (its state with a winner and the score over 1500).
    won = FastAPI()
    won.get("/api/state")(lambda: {**StateCache(second).state(), "winner": "EW",
                                   "score": {"NS": 1230, "EW": 1540}})
    with LiveServer(first) as one, LiveServer(second) as two, LiveServer(None, app=won) as four, \
            LiveServer(between) as five:
        room = Room([Table("Table 1", one.url), Table("Table 2", two.url),
                     Table("Table 3", nobody), Table("Table 4", four.url),
                     Table("Table 5", five.url)], interval=0.3)
        app = create_room_app(room, title="Club de Lyon · tournoi du 5 décembre")
        with LiveServer(None, app=app) as board:
            ctx = browser.new_context(viewport={"width": 1600, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(5000)
            page.goto(board.url + "/")
            page.wait_for_function(
                "document.querySelectorAll('.tile[data-status=live]').length === 4")
            assert page.locator("h1").text_content() == "Club de Lyon · tournoi du 5 décembre"
            tile1 = page.locator('.tile[data-table="Table 1"]')
            tile2 = page.locator('.tile[data-table="Table 2"]')
            assert "Nous · Anne & Chloé" in tile1.text_content()
            assert "1 à juger" in tile1.locator(".badge.pending").text_content()
            assert tile1.get_attribute("href") == one.url + "/"
            assert tile2.locator('.tile-score[data-team="NS"]').text_content() == \
                str(StateCache(second).state()["score"]["NS"])
            assert "Donne 2" in tile2.text_content() and "Coinché" in tile2.text_content()
            assert tile2.locator(".tile-trick img.mini").count() == 2
            assert "1 donne jouée" in tile2.text_content()
            tile4 = page.locator('.tile[data-table="Table 4"]')
            assert "over" in tile4.get_attribute("class")
            assert tile4.locator(".tile-banner").text_content() == \
                "Vainqueur : Eux · Farid & Hugo"
            assert tile4.locator(".tile-score.winner").get_attribute("data-team") == "EW"
            assert tile4.locator(".tile-trick").count() == 0  # no deal shown once it is won
            result = StateCache(between).state()["deal"]["result"]
            assert page.locator('.tile[data-table="Table 5"] .tile-result').text_content() == \
                {"made": "fait", "failed": "chute"}[result]
            tile3 = page.locator('.tile[data-table="Table 3"]')
            assert tile3.get_attribute("data-status") == "waiting"
            assert "connexion refusée : le companion de la table est-il lancé ?" in \
                tile3.text_content()
            assert "4 en direct · 1 sans réponse" in page.locator("#room-counts").text_content()
            page.wait_for_function("[...document.images].every((i) => i.complete)")
            shot(page, "room.png")
            before = tile1.locator('.tile-score[data-team="NS"]').text_content()
            one.__exit__(None, None, None)  # table 1's Pi goes dark (exiting twice is harmless)
            page.wait_for_function("document.querySelector('.tile[data-table=\"Table 1\"]')"
                                   ".dataset.status === 'offline'")
            assert "sans réponse depuis" in tile1.text_content()
            assert tile1.locator('.tile-score[data-team="NS"]').text_content() == before
            assert "3 en direct · 2 sans réponse" in page.locator("#room-counts").text_content()
            ctx.close()
    for store in (first, second, between):
        store.close()
