"""The JSON API: state from the log, the referee's writes, and refusals that change nothing."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from web_helpers import HEADERS, PIN, doubtful_revoke, play, replay, start

from device.store import EventStore
from device.web.app import create_app


def test_empty_log_gives_an_empty_game(client: TestClient) -> None:
    s = client.get("/api/state").json()
    assert s["deal"] is None and s["score"] == {"NS": 0, "EW": 0}
    assert s["target"] == 1501 and s["flags"] == [] and s["history"] == []


def test_cards_fill_the_trick_then_the_gather_clears_it(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    s = client.get("/api/state").json()
    leader = str(revoke_deal.dealer.next(False))
    assert s["deal"]["turn"] == leader and s["deal"]["trick"] == []
    for i in range(3):
        play(store, revoke_deal, i)
    d = client.get("/api/state").json()["deal"]
    assert [p["card"] for p in d["trick"]] == [str(c) for _, c in revoke_deal.plays[:3]]
    assert d["turn"] == str(revoke_deal.plays[3][0])
    play(store, revoke_deal, 3)  # the fourth card, then the tracker sees the trick gathered
    d = client.get("/api/state").json()["deal"]
    assert d["trick"] == [] and d["trick_number"] == 2
    assert sum(d["points"].values()) == d["tricks"][0]["points"] > 0


def test_a_full_trick_stays_until_gathered(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    for i in range(4):
        seat, card = revoke_deal.plays[i]
        store.append("card_played", {"seat": str(seat), "card": str(card)})
    d = client.get("/api/state").json()["deal"]
    assert len(d["trick"]) == 4 and d["trick_number"] == 1
    winner = d["tricks"][0]["winner"]
    assert d["turn"] == winner


def test_a_replayed_deal_is_scored_and_its_revoke_flagged(client, store, revoke_deal) -> None:
    replay(store, revoke_deal)
    s = client.get("/api/state").json()
    d = s["deal"]
    assert d["over"] and d["card_points"]["NS"] + d["card_points"]["EW"] == 162
    assert s["score"] == d["score"] and s["history"][0]["score"] == d["score"]
    (flag,) = s["flags"]
    assert flag["play"] == revoke_deal.illegal[0]
    seat, card = revoke_deal.plays[flag["play"]]
    assert (flag["seat"], flag["card"]) == (str(seat), str(card))
    # Its first proof (a trump: a failure to trump) came before the proof of the revoke named
    # (a card of the suit led): the play shown as proof is the second.
    assert flag["rule"] == "follow-suit" and flag["proven_by"] > flag["play"]
    assert flag["proof"]["play"] == flag["rule_proven_by"] > flag["proven_by"]
    assert flag["proof"]["card"][-1] == flag["led"][-1] != revoke_deal.contract.to_json()["trump"]
    assert flag["evidence"] == f"/evidence/evidence/{flag['play']:06d}.jpg"
    assert flag["decision"] == "pending"


def test_the_record_downloads_in_the_engine_format(client, store, revoke_deal) -> None:
    from engine.record import judge, load_record

    replay(store, revoke_deal)
    r = client.get("/api/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["plays"] == [[str(s), str(c)] for s, c in revoke_deal.plays]
    verdict = judge(load_record(record))
    assert verdict["score"] == client.get("/api/state").json()["deal"]["score"]
    game = client.get("/api/record/game").json()
    assert len(game["deals"]) == 1 and game["meta"]["teams"]["NS"] == "Nous"
    summary = judge(load_record(game))["game"]
    assert summary["score"] == client.get("/api/state").json()["score"]
    assert client.get("/api/record", params={"deal": 2}).status_code == 404


@pytest.mark.parametrize("headers,status", [({}, 401), ({"X-Referee-Pin": "0000"}, 401)])
def test_the_referee_api_needs_the_pin(client, store, headers, status) -> None:
    before = store.last_seq
    r = client.post("/api/referee/deal", json={"dealer": "N"}, headers=headers)
    assert r.status_code == status and "PIN" in r.json()["detail"]
    assert store.last_seq == before


def test_without_a_pin_configured_the_console_is_disabled(store) -> None:
    with TestClient(create_app(store)) as c:
        r = c.post("/api/referee/deal", json={"dealer": "N"}, headers=HEADERS)
        assert r.status_code == 403 and store.last_seq == 0


def test_the_config_pin_is_used(store) -> None:
    from device.config import parse_config

    config = parse_config({"server": {"referee_pin": "9999"}})
    with TestClient(create_app(store, config=config)) as c:
        assert c.get("/api/referee/check", headers={"X-Referee-Pin": "9999"}).status_code == 200
        assert c.get("/api/referee/check", headers=HEADERS).status_code == 401


BAD_CONTRACTS = [
    ({"taker": "N", "bid": 85, "trump": "H"}, 400, "85"),
    ({"taker": "N", "bid": 170, "trump": "H"}, 400, "170"),
    ({"taker": "N", "bid": "90", "trump": "H"}, 422, "bid"),
    ({"taker": "X", "bid": 90, "trump": "H"}, 422, "taker"),
    ({"taker": "N", "bid": 90, "trump": "Z"}, 422, "trump"),
    ({"taker": "N", "bid": 90, "trump": "H", "coinche": 3}, 422, "coinche"),
    ({"taker": "N", "bid": 90, "trump": "H", "extra": 1}, 422, "extra"),
    ({"taker": "N", "bid": True, "trump": "H"}, 422, "bid"),
]


@pytest.mark.parametrize("body,status,word", BAD_CONTRACTS)
def test_impossible_contracts_are_refused(client, store, body, status, word) -> None:
    client.post("/api/referee/game", json={"dealer": "E"}, headers=HEADERS)
    before = store.last_seq
    r = client.post("/api/referee/contract", json=body, headers=HEADERS)
    assert r.status_code == status and word in r.json()["detail"]
    assert store.last_seq == before


@pytest.mark.parametrize("rules,body", [
    ("gameduell-contree", {"taker": "N", "bid": 90, "trump": "SA"}),
    ("belote-501", {"taker": "N", "bid": "capot", "trump": "H"}),
    ("ffb-coinche", {"taker": "N", "bid": "generale", "trump": "H"}),
])
def test_contracts_the_preset_forbids_are_refused(client, store, rules, body) -> None:
    client.post("/api/referee/game", json={"rules": rules, "dealer": "E"}, headers=HEADERS)
    r = client.post("/api/referee/contract", json=body, headers=HEADERS)
    assert r.status_code == 400 and rules in r.json()["detail"]


@pytest.mark.parametrize("body", [
    {"rules": "no-such-preset"}, {"rules": {"preset": "ffb-coinche", "target": "x"}},
    {"rules": {"preset": "ffb-coinche", "bogus_knob": 1}}, {"players": {"Z": "Anne"}},
    {"players": {"N": ""}}, {"dealer": 3}, [1, 2],
])
def test_bad_game_starts_are_refused(client, store, body) -> None:
    r = client.post("/api/referee/game", json=body, headers=HEADERS)
    assert 400 <= r.status_code < 500 and r.json()["detail"]
    assert store.last_seq == 0


def test_unknown_cards_and_malformed_json_are_refused(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    before = store.last_seq
    for body in ({"seat": "N", "card": "1X"}, {"seat": "N", "card": 7}, {"seat": "N"}):
        r = client.post("/api/referee/play", json=body, headers=HEADERS)
        assert r.status_code == 422, body
    r = client.post("/api/referee/play", content=b"{not json",
                    headers={**HEADERS, "Content-Type": "application/json"})
    assert r.status_code == 422
    r = client.post("/api/referee/announce", json={"seat": "N", "cards": ["QD", "QD", "KD"]},
                    headers=HEADERS)
    assert r.status_code == 422 and "twice" in r.json()["detail"]
    assert store.last_seq == before


def test_oversized_bodies_are_refused(client, store) -> None:
    big = json.dumps({"dealer": "N", "pad": "x" * 70_000}).encode()
    r = client.post("/api/referee/deal", content=big,
                    headers={**HEADERS, "Content-Type": "application/json"})
    assert r.status_code == 413 and "KiB" in r.json()["detail"]

    def chunks():  # no Content-Length: counted while read
        for _ in range(20):
            yield b"x" * 5000

    r = client.post("/api/referee/deal", content=chunks(),
                    headers={**HEADERS, "Content-Type": "application/json"})
    assert r.status_code == 413 and store.last_seq == 0


def test_a_misread_card_is_corrected_among_the_possible_ones(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    real = str(revoke_deal.plays[0][1])
    wrong = str(revoke_deal.plays[20][1])  # a card seen later: the camera misread play 0
    play(store, revoke_deal, 0, card=wrong)
    play(store, revoke_deal, 1)
    possible = client.get("/api/referee/possible", params={"play": 0}, headers=HEADERS).json()
    assert possible["possible"][0] == real  # the camera's alternative comes first
    assert wrong not in possible["possible"]
    assert str(revoke_deal.plays[1][1]) not in possible["possible"]  # played by someone else
    taken = str(revoke_deal.plays[1][1])
    r = client.post("/api/referee/correction", json={"play": 0, "card": taken}, headers=HEADERS)
    assert r.status_code == 409 and "possible" in r.json()["detail"]
    r = client.post("/api/referee/correction", json={"play": 0, "card": real}, headers=HEADERS)
    assert r.status_code == 200 and r.json()["data"] == {"play": 0, "card": real, "before": wrong}
    trick = client.get("/api/state").json()["deal"]["trick"]
    assert trick[0]["card"] == real and trick[0]["read_as"] == wrong
    (entry, *_) = client.get("/api/referee/audit", headers=HEADERS).json()
    assert entry["before"] == {"play": 0, "card": wrong} and entry["after"]["card"] == real


def test_undo_cancels_the_last_event_and_is_audited(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    client.post("/api/referee/contract", json={"taker": "E", "bid": 120, "trump": "S"},
                headers=HEADERS)
    assert client.get("/api/state").json()["deal"]["contract"]["bid"] == 120
    done = client.post("/api/referee/undo", json={}, headers=HEADERS).json()
    assert client.get("/api/state").json()["deal"]["contract"] == revoke_deal.contract.to_json()
    log = client.get("/api/referee/audit", headers=HEADERS).json()
    assert log[0]["seq"] == done["seq"] and log[0]["after"] == "cancelled"
    assert log[1]["undone"] and log[1]["before"] == revoke_deal.contract.to_json()
    r = client.post("/api/referee/undo", json={"seq": done["seq"]}, headers=HEADERS)
    assert r.status_code == 409  # an undo is not undone by seq; nothing written
    assert client.post("/api/referee/undo", json={"seq": 999}, headers=HEADERS).status_code == 409


def test_an_accepted_revoke_applies_the_penalty(client, store, revoke_deal) -> None:
    replay(store, revoke_deal)
    s = client.get("/api/state").json()
    flag = s["flags"][0]
    r = client.post("/api/referee/ruling", json={"play": flag["play"] + 1, "rule": flag["rule"],
                                                 "decision": "accepted"}, headers=HEADERS)
    assert r.status_code == 409
    r = client.post("/api/referee/ruling", json={"play": flag["play"], "rule": flag["rule"],
                                                 "decision": "accepted"}, headers=HEADERS)
    assert r.status_code == 200
    after = client.get("/api/state").json()
    offenders = "NS" if flag["seat"] in "NS" else "EW"
    others = "EW" if offenders == "NS" else "NS"
    c = revoke_deal.contract
    assert after["flags"][0]["decision"] == "accepted"
    assert after["score"][offenders] == 0
    assert isinstance(c.bid, int)  # the simulated contract is a numeric bid
    assert after["score"][others] == (160 + c.bid) * c.coinche
    assert after["history"][0]["result"] == "penalty"
    client.post("/api/referee/ruling", json={"play": flag["play"], "rule": flag["rule"],
                                             "decision": "dismissed"}, headers=HEADERS)
    assert client.get("/api/state").json()["score"] == s["score"]


def test_the_contract_can_come_from_the_auction(client, store) -> None:
    client.post("/api/referee/game", json={"dealer": "E"}, headers=HEADERS)
    calls = ["pass", "80 H", "coinche", "pass", "pass", "pass"]
    r = client.post("/api/referee/auction", json={"calls": calls}, headers=HEADERS)
    assert r.status_code == 200  # N speaks first after dealer E, so W took
    assert r.json()["data"] == {"taker": "W", "bid": 80, "trump": "H", "coinche": 2}
    before = store.last_seq
    r = client.post("/api/referee/auction", json={"calls": ["pass", "75 H"]}, headers=HEADERS)
    assert r.status_code == 400 and "auction[1]" in r.json()["detail"]
    r = client.post("/api/referee/auction", json={"calls": ["pass"] * 4}, headers=HEADERS)
    assert r.status_code == 409 and "thrown in" in r.json()["detail"]
    assert store.last_seq == before


def test_the_coinche_changes_only_the_level(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    r = client.post("/api/referee/coinche", json={"coinche": 2}, headers=HEADERS)
    assert r.status_code == 200
    c = client.get("/api/state").json()["deal"]["contract"]
    assert c == {**revoke_deal.contract.to_json(), "coinche": 2}


def test_manual_plays_refuse_a_card_already_played(client, store, revoke_deal) -> None:
    start(store, revoke_deal)
    play(store, revoke_deal, 0)
    seat, card = revoke_deal.plays[0]
    r = client.post("/api/referee/play", json={"seat": "W", "card": str(card)}, headers=HEADERS)
    assert r.status_code == 409
    seat, card = revoke_deal.plays[1]
    r = client.post("/api/referee/play", json={"seat": str(seat), "card": str(card).lower()},
                    headers=HEADERS)
    assert r.status_code == 200
    assert client.get("/api/state").json()["deal"]["trick"][1]["actor"] == "referee"


def test_the_game_ends_at_the_target_as_the_engine_says(client, store, revoke_deal) -> None:
    replay(store, revoke_deal)
    store.append("game_started", {"rules": {"preset": "ffb-coinche", "target": 100}},
                 actor="referee")  # the same deal again, under a short game
    store.append("deal_started", {"dealer": str(revoke_deal.dealer)})
    store.append("contract", revoke_deal.contract.to_json(), actor="referee")
    for i in range(32):
        play(store, revoke_deal, i)
    s = client.get("/api/state").json()
    assert s["target"] == 100 and len(s["history"]) == 1
    best = max(s["score"], key=s["score"].get)
    assert s["winner"] == best and s["notes"]


def test_the_broadcast_delay_hides_recent_events(store, revoke_deal) -> None:
    from device.web.state import StateCache

    cache = StateCache(store)
    replay(store, revoke_deal, upto=5)
    now = store.events()[-1].time
    assert cache.state(delay=30, now=now).get("deal") is None
    assert len(cache.state(delay=30, now=now + 31)["deal"]["plays"]) == 5


def test_delay_over_the_maximum_is_refused(client) -> None:
    assert client.get("/api/state", params={"delay": 301}).status_code == 422
    assert client.get("/api/state", params={"delay": -1}).status_code == 422
    assert client.get("/api/state", params={"delay": 10}).status_code == 200


def test_words_and_cards_speak_french_by_default(client) -> None:
    fr = client.get("/api/i18n").json()
    en = client.get("/api/i18n", params={"lang": "en"}).json()
    assert fr["trump"] == "Atout" and fr["trick"] == "Pli" and fr["failed"] == "chute"
    assert fr["rank_J"] == "V" and en["rank_J"] == "J" and en["trump"] == "Trump"
    assert set(fr) == set(en)
    svg = client.get("/cards/JH.svg").text
    assert "<svg" in svg and ">V<" in svg
    assert ">J<" in client.get("/cards/JH.svg", params={"lang": "en"}).text
    assert client.get("/cards/1X.svg").status_code == 404
    assert client.get("/api/i18n", params={"lang": "de"}).status_code == 422


def test_pages_and_openapi_are_served(client) -> None:
    for path in ("/", "/referee", "/overlay", "/sheet", "/static/style.css",
                 "/static/common.js", "/static/sheet.js"):
        assert client.get(path).status_code == 200, path
    spec = client.get("/openapi.json").json()
    assert "/api/referee/contract" in spec["paths"] and "/api/state" in spec["paths"]


def test_evidence_pictures_stay_inside_their_folder(tmp_path) -> None:
    store = EventStore(tmp_path / "belote.db")
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "000001.jpg").write_bytes(b"\xff\xd8jpeg")
    (tmp_path / "secret.txt").write_text("no")
    with TestClient(create_app(store, referee_pin=PIN)) as c:
        assert c.get("/evidence/evidence/000001.jpg").content == b"\xff\xd8jpeg"
        assert c.get("/evidence/000001.jpg").status_code == 200
        assert c.get("/evidence/../secret.txt").status_code == 404
        assert c.get("/evidence/%2e%2e/secret.txt").status_code == 404
    store.close()


def test_health_is_shown_from_the_loop(store) -> None:
    health = {"fps": 14.5, "camera_up": True, "dropped": 2}
    with TestClient(create_app(store, health=lambda: health)) as c:
        assert c.get("/api/health").json() == health
        assert c.get("/api/state").json()["health"]["fps"] == 14.5


def test_an_unread_play_is_shown_in_its_place_and_deduced_at_the_end(client, store,
                                                                      revoke_deal) -> None:
    start(store, revoke_deal)
    seat, card = revoke_deal.plays[5]
    for i in range(32):
        if i == 5:  # the tracker saw a card land there and never read it
            store.append("card_played", {"seat": str(seat), "card": None, "uncertain": True})
            continue
        play(store, revoke_deal, i)
    d = client.get("/api/state").json()["deal"]
    assert d["error"] is None and d["plays"][5]["card"] is None
    assert d["score"] is not None  # the engine deduced the card: the deal is scored
    store.append("correction", {"play": 5, "card": str(card), "before": None, "deduced": True})
    d = client.get("/api/state").json()["deal"]
    assert d["plays"][5]["card"] == str(card) and d["plays"][5]["read_as"] is None


def test_a_flag_a_misreading_would_clear_names_the_card_to_check(client, store, revoke_deal):
    replay(store, revoke_deal)
    (sure,) = client.get("/api/state").json()["flags"]
    assert sure["unless"] is None
    fresh = EventStore(":memory:")
    i, other = doubtful_revoke(fresh, revoke_deal)
    with TestClient(create_app(fresh, referee_pin=PIN)) as other_client:
        (flag,) = other_client.get("/api/state").json()["flags"]
    assert flag["play"] == i == sure["play"]  # (its rule may differ: the deal stops at the proof)
    assert flag["unless"] == {"play": i, "card": other}


def test_every_rule_the_engine_names_has_words_and_a_sentence_in_both_languages() -> None:
    import re

    from device.web.app import STATIC
    from device.web.i18n import LANGS, words
    from engine.deal import CARD_ALREADY_PLAYED, NOT_IN_HAND, OUT_OF_TURN
    from engine.legality import PLAY_RULES
    from engine.referee import FALSE_ANNOUNCE

    rules = (*PLAY_RULES, OUT_OF_TURN, CARD_ALREADY_PLAYED, NOT_IN_HAND, FALSE_ANNOUNCE)
    for lang in LANGS:
        table = words(lang)
        for rule in rules:
            assert {f"rule_{rule}", f"why_{rule}", f"def_{rule}"} <= set(table), (lang, rule)
            assert {"{who}", "{card}"} <= set(re.findall(r"\{\w+\}", table[f"why_{rule}"])) \
                or rule == FALSE_ANNOUNCE
        # Every word the pages ask for by name exists (T.key, data-t="key", say("key", ...)).
        for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
            text = path.read_text(encoding="utf-8")
            asked = {*re.findall(r"\bT\.([a-z_]+)", text), *re.findall(r'data-t="([a-z_]+)"', text),
                     *re.findall(r'say\("([a-z_]+)"', text)}
            assert asked <= set(table), (lang, path.name, asked - set(table))
