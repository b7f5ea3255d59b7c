"""The pages in headless Chromium (Debian's /usr/bin/chromium), driven by Playwright.

The server is uvicorn on 127.0.0.1 in a thread; cards are appended to its store as a replayed deal
would. Screenshots of the three pages land in docs/screenshots/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from web_helpers import BROWSER, PIN, doubtful_revoke, play, shot, start

from device.web.i18n import card_name

pytestmark = BROWSER


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq || 0) >= {seq}")


def test_a_played_card_appears_within_a_second_without_reload(live, page, revoke_deal) -> None:
    start(live.store, revoke_deal, players={"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"})
    page.goto(live.url + "/")
    wait_seq(page, live.store.last_seq)
    page.evaluate("window.__noReload = true")
    for i in range(6):
        seat, card = revoke_deal.plays[i]
        t0 = time.monotonic()
        play(live.store, revoke_deal, i)
        if i % 4 == 3:
            continue  # the trick is gathered at once: the table clears
        page.locator(f'.seat-{seat} img[data-card="{card}"]').wait_for(timeout=1000)
        assert time.monotonic() - t0 < 1.0
    assert page.evaluate("window.__noReload") is True
    assert page.locator(".trick-no").text_content().startswith("Pli 2")


def test_screenshot_of_a_game_in_progress(live, browser, js_errors, revoke_deal, tmp_path) -> None:
    from PIL import Image, ImageDraw
    from web_helpers import replay, sim_deal

    replay(live.store, revoke_deal)
    flagged = revoke_deal.illegal[0]
    evidence = tmp_path / "evidence"
    evidence.mkdir(exist_ok=True)
    img = Image.new("RGB", (480, 270), (15, 107, 69))
    ImageDraw.Draw(img).rectangle((200, 90, 260, 175), fill=(250, 250, 245), outline=(40, 40, 40))
    img.save(evidence / f"{flagged:06d}.jpg")
    second = sim_deal(11, 0)
    live.store.append("deal_started", {"dealer": str(second.dealer)})
    live.store.append("contract", {**second.contract.to_json(), "coinche": 2}, actor="referee")
    for i in range(6):
        play(live.store, second, i)
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = ctx.new_page()
    page.goto(live.url + "/")
    wait_seq(page, live.store.last_seq)
    page.locator(".flag img.evidence").wait_for()
    page.wait_for_function("[...document.images].every((i) => i.complete)")
    assert page.locator(".history tbody tr").count() == 1
    assert page.locator(".seat img.card").count() == 2
    shot(page, "score-page.png")
    ctx.close()


def test_a_referee_correction_changes_the_score_page(live, browser, js_errors, revoke_deal) -> None:
    players = {"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"}
    start(live.store, revoke_deal, players=players)
    real = str(revoke_deal.plays[0][1])
    who = players[str(revoke_deal.plays[0][0])]
    wrong = str(revoke_deal.plays[20][1])  # a card seen later: the camera misread play 0
    play(live.store, revoke_deal, 0, card=wrong)
    play(live.store, revoke_deal, 1)
    ctx = browser.new_context(viewport={"width": 1366, "height": 1000})
    score, console = ctx.new_page(), ctx.new_page()
    score.goto(live.url + "/")
    score.locator(f'img[data-card="{wrong}"]').first.wait_for(timeout=3000)
    console.goto(live.url + "/referee")
    console.fill("#pin", PIN)
    console.click("#pin-form button")
    console.wait_for_function("!document.body.classList.contains('locked')")
    console.click('button.play[data-play="0"]')
    console.click(f'button.choice[data-card="{real}"]')
    score.locator(f'.seat img[data-card="{real}"]').wait_for(timeout=2000)
    assert score.locator(f'.seat img[data-card="{wrong}"]').count() == 0
    row = console.locator('#audit tr[data-type="correction"]').first
    row.wait_for(timeout=2000)  # the journal says it in words: play, who played it, the cards
    cells = row.locator("td").all_inner_texts()
    assert cells[2] == "Correction · Donne 1"
    assert cells[3:] == [f"pli 1, carte 1 ({who}) : {card_name(wrong)}",
                         f"pli 1, carte 1 ({who}) : {card_name(real)}"]
    shot(console, "referee-console.png", full_page=True)
    assert live.store.events()[-1].type == "correction"
    fixed = live.store.last_seq
    console.click("#undo")
    undo = console.locator('#audit tr[data-type="undo"]').first
    undo.wait_for(timeout=2000)
    assert undo.locator("td").all_inner_texts()[3:] == [
        f"#{fixed} Correction : pli 1, carte 1 : {card_name(real)}", "annulé"]
    assert console.locator('#audit tr.undone[data-type="correction"]').count() == 1
    ctx.close()


def test_the_console_refuses_actions_without_the_pin(live, page, revoke_deal) -> None:
    start(live.store, revoke_deal)
    before = live.store.last_seq
    page.goto(live.url + "/referee")
    page.evaluate("sessionStorage.clear()")
    page.goto(live.url + "/referee")
    assert "locked" in page.evaluate("document.body.className")
    page.wait_for_function("document.body.dataset.seq")
    assert "null" not in page.locator("#mini").inner_text()
    page.fill("#pin", "0000")
    page.click("#pin-form button")
    page.locator(".message.error").wait_for()
    assert "PIN" in page.locator("#message").inner_text()
    status = page.evaluate("""async () => (await fetch('/api/referee/undo', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: '{}'})).status""")
    assert status == 401
    with pytest.raises(Exception, match="Timeout"):  # locked console: buttons take no clicks
        page.click("#undo", timeout=500)
    assert live.store.last_seq == before


def _alpha(path: Path, x: int, y: int) -> int:
    from PIL import Image

    with Image.open(path) as img:
        return int(img.convert("RGBA").getpixel((x, y))[3])


def test_the_overlay_background_is_transparent(live, browser, js_errors, revoke_deal) -> None:
    start(live.store, revoke_deal, players={"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"})
    for i in range(3):
        play(live.store, revoke_deal, i)
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.goto(live.url + "/overlay?layout=bar&position=bottom-left")
    wait_seq(page, live.store.last_seq)
    page.locator(".o-trick img").nth(2).wait_for()
    colours = page.evaluate("""[getComputedStyle(document.documentElement).backgroundColor,
                                getComputedStyle(document.body).backgroundColor]""")
    assert colours == ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]
    path = shot(page, "overlay.png", omit_background=True)
    assert _alpha(path, 1900, 20) == 0  # far corner: see-through
    box = page.locator("#box").bounding_box()
    assert box["x"] < 100 and box["y"] + box["height"] > 1000  # bottom-left
    assert _alpha(path, int(box["x"] + box["width"] / 2), int(box["y"] + 5)) > 0
    ctx.close()


def test_a_new_flag_pops_up_on_the_overlay_for_a_while(live, browser, js_errors,
                                                      revoke_deal) -> None:
    from web_helpers import first_proof

    players = {"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"}
    start(live.store, revoke_deal, players=players)
    proof = first_proof(revoke_deal)
    offender = players[str(revoke_deal.plays[revoke_deal.illegal[0]][0])]
    for i in range(proof):
        play(live.store, revoke_deal, i)
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    stream, quiet = ctx.new_page(), ctx.new_page()
    stream.goto(live.url + "/overlay?position=bottom&flag_s=2")
    quiet.goto(live.url + "/overlay?flags=0")
    for page in (stream, quiet):
        wait_seq(page, live.store.last_seq)
    assert stream.locator("#flag").is_hidden()
    t0 = time.monotonic()
    play(live.store, revoke_deal, proof)  # the card that proves the flag
    banner = stream.locator("#flag")
    banner.wait_for(state="visible", timeout=3000)
    assert time.monotonic() - t0 < 1.5
    # At its first proof (a trump) the revoke is a failure to trump; later cards rename it.
    assert banner.locator(".o-flag-rule").text_content() == "⚑ devait couper"
    assert banner.locator(".o-flag-why").text_content().startswith(f"{offender} devait couper au")
    assert banner.bounding_box()["y"] < 200  # at the top: the score box is at the bottom
    shot(stream, "overlay-flag.png", omit_background=True)
    wait_seq(quiet, live.store.last_seq)
    assert quiet.locator("#flag").is_hidden()  # ?flags=0
    quiet.goto(live.url + "/overlay?position=top-right")  # the box at the top: the banner below
    assert quiet.locator("#flag").get_attribute("class") == "o-flag at-bottom"
    banner.wait_for(state="hidden", timeout=4000)  # gone after flag_s
    stream.reload()
    wait_seq(stream, live.store.last_seq)
    stream.wait_for_timeout(500)
    assert stream.locator("#flag").is_hidden()  # a flag already there on load is not news
    ctx.close()


def test_the_score_page_fits_a_phone(live, browser, js_errors, revoke_deal) -> None:
    from web_helpers import replay

    replay(live.store, revoke_deal)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(live.url + "/?lang=en")
    wait_seq(page, live.store.last_seq)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert "null" not in page.locator("body").inner_text()
    assert page.locator(".flag .rule").first.inner_text().startswith(("did not", "had to"))
    shot(page, "score-page-phone-en.png", full_page=True)
    ctx.close()


def test_a_flag_in_doubt_says_which_card_to_check(live, page, revoke_deal) -> None:
    i, other = doubtful_revoke(live.store, revoke_deal)
    page.goto(live.url + "/?lang=en")
    wait_seq(page, live.store.last_seq)
    line = page.locator("#flags .flag .unless")
    line.wait_for(timeout=3000)
    assert f"no fault if trick {i // 4 + 1}, card {i % 4 + 1} was" in line.text_content()
    assert line.locator(f'img[data-card="{other}"]').count() == 1


def test_a_flag_says_in_one_sentence_what_was_broken_and_what_proves_it(live, page,
                                                                         revoke_deal) -> None:
    from device.web.state import StateCache

    players = {"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"}
    start(live.store, revoke_deal, players=players)
    for i in range(32):  # the whole deal: its first proof flags a must-trump, later plays a revoke
        play(live.store, revoke_deal, i)
    flag = StateCache(live.store).state()["flags"][0]
    i, proof = flag["play"], flag["proof"]
    assert flag["rule"] == "follow-suit"
    assert flag["led"] == str(revoke_deal.plays[i - i % 4][1])  # the trick's first card
    suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[flag["led"][-1]]
    page.goto(live.url + "/")
    wait_seq(page, live.store.last_seq)
    assert page.locator("#flags .flag .why").text_content() == (
        f"{players[flag['seat']]} n'a pas fourni à {suit} au pli {i // 4 + 1} "
        f"({card_name(flag['card'])}) — la preuve : {players[proof['seat']]} joue "
        f"{card_name(proof['card'])} au pli {proof['play'] // 4 + 1}.")
    rule = page.locator("#flags .flag details.rule-def")
    assert rule.locator("summary").text_content() == "La règle"
    rule.locator("summary").click()  # a tap on a phone opens it
    assert rule.text_content().endswith("Qui a de la couleur demandée doit en jouer.")
    page.goto(live.url + "/sheet?lang=en")
    wait_seq(page, live.store.last_seq)
    assert (f"{players[flag['seat']]} did not follow {suit} in trick {i // 4 + 1} "
            f"({card_name(flag['card'], 'en')}) — the proof: ") in page.locator(
                ".sheet-flag").text_content()
    assert "Ruling: pending." in page.locator(".sheet-flag").text_content()  # no French space


def test_the_score_page_says_when_pictures_could_not_be_saved(tmp_path, page,
                                                              revoke_deal) -> None:
    from web_helpers import LiveServer

    from device.store import EventStore

    store = EventStore(tmp_path / "belote.db")
    health = {"camera": "up", "fps": 9.5, "dropped": 0, "evidence_failures": 3}
    with LiveServer(store, health=health) as server:
        start(store, revoke_deal)
        page.goto(server.url + "/")
        page.wait_for_function("document.getElementById('health').textContent.includes('fps')")
        text = page.locator("#health").text_content()
        assert "Caméra en marche · 9.5 fps" in text
        assert "3 photos non enregistrées (disque plein ?)" in text
    store.close()
