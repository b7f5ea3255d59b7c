"""The score sheet (`/sheet`) in headless Chromium: every deal, the totals, the flags' rulings, and
one printed A4 page. The screenshot lands in docs/screenshots/score-sheet.png."""

from __future__ import annotations

import re
from typing import Any

from web_helpers import BROWSER, first_proof, play, shot, sim_deal, start

from device.web.state import StateCache

pytestmark = BROWSER


def test_the_score_sheet_lists_each_deal_with_totals_and_prints_on_one_page(
        live: Any, browser: Any, js_errors: list[str], revoke_deal: Any, tmp_path: Any) -> None:
    store = live.store
    start(store, revoke_deal, players={"N": "Anne", "E": "Bruno", "S": "Chloé", "W": "Driss"})
    for i in range(32):
        play(store, revoke_deal, i)
    flagged = StateCache(store).state()["flags"][0]
    assert flagged["proven_by"] == first_proof(revoke_deal)
    store.append("ruling", {"play": flagged["play"], "rule": flagged["rule"],
                            "decision": "dismissed"}, actor="referee")
    store.append("deal_over", {})
    second = sim_deal(31, 0)  # E holds the king and queen of trumps: a belote
    store.append("deal_started", {"dealer": str(second.dealer)})
    store.append("contract", second.contract.to_json(), actor="referee")
    store.append("belote", {"seat": "E"}, actor="referee")
    for i in range(32):
        play(store, second, i)
    store.append("deal_over", {})
    third = sim_deal(12, 0)
    store.append("deal_started", {"dealer": str(third.dealer)})
    store.append("contract", third.contract.to_json(), actor="referee")
    for i in range(3):
        play(store, third, i)
    state = StateCache(store).state()
    assert [h["belote"] for h in state["history"]] == [[], ["E"]]

    ctx = browser.new_context(viewport={"width": 1100, "height": 1300})
    page = ctx.new_page()
    page.set_default_timeout(5000)
    page.goto(live.url + "/sheet")
    page.wait_for_function(f"Number(document.body.dataset.seq || 0) >= {store.last_seq}")
    rows = page.locator(".deals tbody tr")
    assert rows.count() == 2
    assert "Bruno belote" in rows.nth(1).text_content()
    for team in ("NS", "EW"):
        assert page.locator(f'td[data-total="{team}"]').text_content() == str(state["score"][team])
        assert rows.nth(1).locator("td.num").nth(3 if team == "NS" else 4).text_content() == \
            str(state["history"][1]["total"][team])
    assert "Donne 3 en cours" in page.locator(".deals tfoot").text_content()
    flag = page.locator(".sheet-flag")
    assert flag.count() == 1 and flag.get_attribute("data-decision") == "dismissed"
    assert "Décision : rejeté" in flag.text_content()
    assert "Pour Nous" in page.locator(".signatures").text_content()
    shot(page, "score-sheet.png", full_page=True)

    page.emulate_media(media="print")
    assert page.locator(".sheet-actions").is_hidden()  # no buttons on paper
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    ctx.close()


def test_the_score_page_links_to_the_sheet_in_its_language(live: Any, browser: Any,
                                                           js_errors: list[str],
                                                           revoke_deal: Any) -> None:
    start(live.store, revoke_deal)
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(live.url + "/?lang=en")
    link = page.locator("a.sheet-link")
    link.wait_for()
    page.wait_for_function("document.querySelector('a.sheet-link').textContent === 'Score sheet'")
    link.click()
    page.wait_for_url("**/sheet?lang=en")
    page.wait_for_function("document.querySelector('.sheet h1')?.textContent === 'Score sheet'")
    assert "Game in progress" in page.locator(".sheet-final").text_content()
    ctx.close()


def test_the_sheet_fits_a_phone_its_table_scrolling_sideways(live: Any, browser: Any,
                                                             js_errors: list[str],
                                                             revoke_deal: Any) -> None:
    from web_helpers import replay

    replay(live.store, revoke_deal)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(live.url + "/sheet")
    page.wait_for_function(f"Number(document.body.dataset.seq || 0) >= {live.store.last_seq}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page: no overflow
    assert page.locator(".deals tbody tr").count() == 1
    ctx.close()
