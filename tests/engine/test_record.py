"""Records: reading (lenient and strict), errors naming the field, writing, judging, games."""

from __future__ import annotations

import copy
import doctest
import importlib
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.auction import next_dealer
from engine.cards import Seat
from engine.contract import Contract, Trump
from engine.record import RecordError, judge, load_record, read_record
from engine.rules import PRESETS, find_rules

FIXTURE = [HealthCheck.function_scoped_fixture]  # `gen` is session-scoped, safe to share
DATA = Path(__file__).parent.parent / "data" / "records"
ISSUE = {"rules": "ffb-coinche", "dealer": "E",
         "contract": {"taker": "N", "bid": 90, "trump": "H", "coinche": 1},
         "plays": [["N", "7S"], ["W", "8S"], ["S", "AS"], ["E", "10S"], ["S", "JC"]],
         "announces": [{"seat": "N", "cards": ["QD", "KD", "AD"]}],
         "belote": ["N"]}


def issue(**changes: Any) -> dict[str, Any]:
    obj = copy.deepcopy(ISSUE)
    for key, value in changes.items():
        if value is None and key != "contract":
            obj.pop(key, None)
        else:
            obj[key] = value
    return obj


def test_reads_the_issue_form() -> None:
    rec = load_record(ISSUE)
    (d,) = rec.deals
    assert rec.rules is PRESETS["ffb-coinche"] and not rec.game
    assert d.dealer is Seat.E and d.contract == Contract(Seat.N, 90, Trump.HEARTS)
    assert str(d.plays[3][1]) == "TS"  # "10" accepted as the ten
    assert [str(c) for c in d.announces[0].cards] == ["QD", "KD", "AD"] and d.belote == (Seat.N,)


@pytest.mark.parametrize("changes", [
    {"rules": {"preset": "coinche-1000", "target": 2000}},
    {"contract": {"taker": "W", "bid": "capot", "trump": "TA", "coinche": 4}},
    {"rules": "gameduell-contree", "contract": {"taker": "W", "bid": "generale", "trump": "C"}},
    {"contract": {"taker": "S", "bid": 160, "trump": "SA", "coinche": 2}, "announces": []},
    {"hands": None, "announces": None, "belote": None, "version": 1},
    {"plays": []},
])
def test_reads_variants(changes: dict[str, Any]) -> None:
    rec = load_record(issue(**changes))
    assert rec.deals and not rec.errors
    assert load_record(rec.to_json()) == rec  # writes back what it read


BAD = [
    ({"plays": [["N", "7S"], ["W", "8S"], ["S", "AS"], ["E", "XH"]]},
     "plays[3][1]: unknown card 'XH'"),
    ({"plays": [["N", "7S"], ["Z", "8S"]]}, "plays[1][0]: unknown seat 'Z'"),
    ({"plays": [["N"]]}, "plays[0]: expected [seat, card]"),
    ({"plays": "7S"}, "plays: expected a list"),
    ({"plays": [["N", "7S"]] * 33}, "plays: a deal has at most 32 plays"),
    ({"contract": {"taker": "N", "bid": 90, "trump": "X"}}, "contract: unknown trump 'X'"),
    ({"contract": {"taker": "N", "bid": 95, "trump": "H"}}, "contract.bid: 95 is not a bid"),
    ({"contract": {"taker": "N", "bid": 90, "trump": "H", "coinche": 3}},
     "contract: coinche must be 1, 2 or 4"),
    ({"contract": {"taker": "N", "bid": "generale", "trump": "H"}},
     "contract.bid: ffb-coinche has no générale bid"),
    ({"rules": "nope"}, "rules: unknown preset 'nope'"),
    ({"rules": {"preset": "ffb-coinche", "targett": 1}}, "rules: unknown knob 'targett'"),
    ({"rules": None}, "rules: missing"),
    ({"dealer": "Q"}, "dealer: unknown seat 'Q'"),
    ({"dealer": None}, "dealer: missing"),
    ({"version": 2}, "version: unknown version 2"),
    ({"colour": "red"}, "colour: unknown field"),
    ({"announces": [{"seat": "N", "cards": ["QD", "KD", "9D"]}]}, "announces[0].cards: [QD KD 9D]"),
    ({"announces": [{"seat": "N", "cards": ["QD", "KD", "AD"]},
                    {"seat": "N", "cards": ["AS", "AH", "AD", "AC"]}]},
     "announces[1].cards: AD is already in announces[0]"),
    ({"announces": [{"seat": "N"}]}, "announces[0]: expected"),
    ({"announces": [{"seat": "N", "cards": "QD KD AD"}]},
     "announces[0].cards: expected a list of cards"),
    ({"belote": ["N", "X"]}, "belote[1]: unknown seat 'X'"),
    ({"hands": {"N": ["7S"] * 8}}, "hands: expected an object with the four seats"),
]


@pytest.mark.parametrize("changes,message", BAD, ids=[m for _, m in BAD])
def test_bad_records_name_the_field(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as info:
        load_record(issue(**changes))
    assert any(e.startswith(message) for e in info.value.errors), info.value.errors
    assert isinstance(info.value, ValueError)


def hands_json(hands: dict[Seat, list[Any]]) -> dict[str, list[str]]:
    return {str(s): [str(c) for c in hands[s]] for s in Seat}


def test_bad_hands() -> None:
    rec = json.loads((DATA / "deal-ffb-coinche.json").read_text())
    rec["hands"]["N"][0] = rec["hands"]["E"][0]
    with pytest.raises(RecordError, match=r"hands\.E\[0\]: \w+ is also in hands\.N"):
        load_record(rec)
    rec["hands"]["N"] = rec["hands"]["N"][:7]
    with pytest.raises(RecordError, match=r"hands\.N: expected a list of 8 cards"):
        load_record(rec)


def test_the_lenient_reader_collects_every_error() -> None:
    rec = read_record(issue(dealer="Q", plays=[["N", "XX"], ["W", "8S"]], colour=1))
    assert len(rec.errors) >= 2
    assert any(e.startswith("colour") for e in rec.errors)
    assert read_record([1, 2]).errors == ("record must be a JSON object",)


def test_judge_incomplete_deal_has_null_points_and_score() -> None:
    out = judge(load_record(ISSUE))
    assert list(out) == ["tricks", "card_points", "result", "score", "violations"]
    # N 7S, W 8S, S AS, E TS: hearts are trump, S's ace wins: 0 + 0 + 11 + 10
    assert out["tricks"] == [{"leader": "N", "winner": "S", "points": 21}]
    assert out["card_points"] is None and out["score"] is None and out["result"] is None


@pytest.mark.parametrize("path", sorted(DATA.glob("deal-*.json")), ids=lambda p: p.name)
def test_example_deals(path: Path) -> None:
    obj = json.loads(path.read_text())
    out = judge(load_record(obj))
    n = len(obj["plays"])
    assert len(out["tricks"]) == n // 4
    if n == 32:
        cp = out["card_points"]
        assert cp["NS"] + cp["EW"] == 162 == sum(t["points"] for t in out["tricks"])
        assert out["result"] in ("made", "failed", "capot", "generale", "litige")
        assert set(out["score"]) == {"NS", "EW"}
    else:
        assert out["card_points"] is None and out["score"] is None


def test_example_capot_deal_has_the_cent_and_belote() -> None:
    out = judge(load_record(json.loads((DATA / "deal-ffb-capot.json").read_text())))
    # capot 252 → 250, cent 100, belote 20, bid 80
    assert (out["result"], out["score"]) == ("capot", {"NS": 450, "EW": 0})


def test_example_revokes_are_proven_by_later_plays() -> None:
    obj = json.loads((DATA / "deal-revokes.json").read_text())
    out = judge(load_record(obj))
    later = [v for v in out["violations"] if v["proven_by"] is not None]
    assert later and all(v["proven_by"] > v["play"] for v in later)
    for v in later:  # the proving play is by the same seat
        assert obj["plays"][v["proven_by"]][0] == v["seat"] == obj["plays"][v["play"]][0]


def test_game_record() -> None:
    obj = json.loads((DATA / "game-coinche-1000.json").read_text())
    out = judge(load_record(obj))
    deals, game = out["deals"], out["game"]
    assert len(deals) == len(obj["deals"]) and deals[0]["result"] == "thrown-in"
    total = {t: sum(d["score"][t] for d in deals) for t in ("NS", "EW")}
    assert game["score"] == total and game["is_over"] and game["winner"] in ("NS", "EW")
    assert game["running"][-1] == total


def test_game_record_errors() -> None:
    obj = json.loads((DATA / "game-coinche-1000.json").read_text())
    bad = copy.deepcopy(obj)
    bad["deals"][2]["dealer"] = bad["deals"][1]["dealer"]
    with pytest.raises(RecordError, match=r"deals\[2\]\.dealer: expected"):
        load_record(bad)
    bad = copy.deepcopy(obj)
    bad["deals"][1]["rules"] = "ffb-coinche"
    with pytest.raises(RecordError, match=r"deals\[1\]\.rules: a game record sets the rules once"):
        load_record(bad)
    bad = copy.deepcopy(obj)
    bad["deals"][1]["plays"] = bad["deals"][1]["plays"][:10]
    with pytest.raises(RecordError, match=r"deals\[1\]\.plays: only the last deal"):
        load_record(bad)
    bad = copy.deepcopy(obj)
    bad["contract"] = None
    with pytest.raises(RecordError, match=r"^contract: unknown field \(a game record"):
        load_record(bad)


def test_auction_in_a_record() -> None:
    obj = issue(contract=None, auction=["80 H", "90 S", "pass", "pass", "pass"])
    del obj["contract"]
    obj["announces"] = []
    # dealer E: N speaks first (80 H), W bids 90 S, then three passes
    assert load_record(obj).deals[0].contract == Contract(Seat.W, 90, Trump.SPADES)
    obj["contract"] = {"taker": "N", "bid": 90, "trump": "S"}
    with pytest.raises(RecordError, match="contract: the auction gives W 90 S"):
        load_record(obj)
    obj = {"rules": "coinchepassion-belote", "dealer": "N", "turned": "9H",
           "auction": ["pass", "pass", "pass", "pass", "take C"], "plays": []}
    assert load_record(obj).deals[0].contract == Contract(Seat.W, 82, Trump.CLUBS)
    obj["auction"] = ["pass", "take S"]
    with pytest.raises(RecordError, match=r"auction\[1\]: S cannot call take S"):
        load_record(obj)
    obj["auction"] = ["pass"] * 3
    with pytest.raises(RecordError, match="auction: the auction is not over"):
        load_record(obj)
    thrown = load_record({"rules": "ffb-coinche", "dealer": "N", "auction": ["pass"] * 4})
    assert thrown.deals[0].contract is None
    assert judge(thrown)["result"] == "thrown-in"


def complete(gen: SimpleNamespace, seed: int, preset: str = "ffb-coinche",
             contract: Contract | None = None) -> Any:
    return gen.play_out(random.Random(seed), PRESETS[preset], contract)


def test_false_announce_with_hands_and_without(gen: SimpleNamespace) -> None:
    p = complete(gen, 1, contract=Contract(Seat.N, 80, Trump.HEARTS))
    # a tierce N cannot hold: its lowest card is in E's hand
    ranks = "789TJQKA"
    held_by_e = {str(c) for c in p.hands[Seat.E]}
    seq = next([f"{r}{suit}" for r in ranks[i:i + 3]] for suit in "SHDC" for i in range(6)
               if f"{ranks[i]}{suit}" in held_by_e)
    obj = {"rules": "ffb-coinche", "dealer": str(p.dealer), "contract": p.contract.to_json(),
           "plays": [[str(s), str(c)] for s, c in p.plays],
           "announces": [{"seat": "N", "cards": seq}]}
    first_n = next(i for i, (s, _) in enumerate(p.plays) if s is Seat.N)
    out = judge(load_record(obj))
    (v,) = [v for v in out["violations"] if v["rule"] == "false-announce"]
    assert v["seat"] == "N" and v["play"] == first_n and v["card"] == seq[0]
    assert obj["plays"][v["proven_by"]] == ["E", seq[0]]
    obj["hands"] = hands_json(p.hands)
    out2 = judge(load_record(obj))
    (v2,) = [v for v in out2["violations"] if v["rule"] == "false-announce"]
    assert v2["proven_by"] is None
    # the renonce: EW score the 20 of the false tierce on top of the plain score
    plain = judge(load_record({k: v for k, v in obj.items() if k != "announces"}))
    assert out2["score"]["EW"] == plain["score"]["EW"] + 20


def test_belote_requires_declaration(gen: SimpleNamespace) -> None:
    for seed in range(200):
        p = complete(gen, seed, contract=Contract(Seat.N, 80, Trump.HEARTS))
        holders = [s for s in Seat if {"KH", "QH"} <= {str(c) for c in p.hands[s]}]
        if holders:
            break
    obj = {"rules": {"preset": "ffb-coinche", "belote_requires_declaration": True},
           "dealer": str(p.dealer), "contract": p.contract.to_json(),
           "plays": [[str(s), str(c)] for s, c in p.plays]}
    silent = judge(load_record(obj))
    obj["belote"] = [str(holders[0])]
    said = judge(load_record(obj))
    team = holders[0].team.value
    assert said["score"][team] != silent["score"][team] or said["result"] != silent["result"]
    obj["rules"] = "ffb-coinche"
    del obj["belote"]
    assert judge(load_record(obj))["score"] == said["score"]  # recognised from the plays


@settings(max_examples=15, deadline=None, suppress_health_check=FIXTURE)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 5), cut=st.integers(0, 5))
def test_scores_do_not_depend_on_how_a_record_is_split(gen: SimpleNamespace, seed: int, n: int,
                                                       cut: int) -> None:
    rng = random.Random(seed)
    rules = find_rules({"preset": "ffb-coinche", "target": 100000})
    dealer = rng.choice(list(Seat))
    deals: list[dict[str, Any]] = []
    for _ in range(n):
        if rng.random() < 0.2:
            deals.append({"dealer": str(dealer), "contract": None})
        else:
            p = gen.play_out(rng, rules, None, 0.1)
            while p.dealer is not dealer:  # the generator picks its dealer: draw until it fits
                p = gen.play_out(rng, rules, None, 0.1)
            deals.append({"dealer": str(dealer), "contract": p.contract.to_json(),
                          "plays": [[str(s), str(c)] for s, c in p.plays]})
        dealer = next_dealer(dealer, rules)
    spec = {"preset": "ffb-coinche", "target": 100000}
    whole = judge(load_record({"rules": spec, "deals": deals}))
    # each deal alone, as a deal record
    alone = [judge(load_record({"rules": spec, **d, "plays": d.get("plays", [])}))
             for d in deals]
    assert whole["deals"] == alone
    # the game cut in two: the halves' scores add up to the whole's
    cut = min(cut, n)
    halves = [deals[:cut], deals[cut:]]
    total = {"NS": 0, "EW": 0}
    for half in halves:
        if half:
            part = judge(load_record({"rules": spec, "deals": half}))
            for t in total:
                total[t] += part["game"]["score"][t]
    assert total == whole["game"]["score"]


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURE)
@given(seed=st.integers(0, 10**6), k=st.integers(0, 32))
def test_a_record_cut_mid_deal_judges_the_same_tricks(gen: SimpleNamespace, seed: int,
                                                      k: int) -> None:
    p = gen.play_out(random.Random(seed), None, None, 0.2)
    obj = {"rules": p.rules.name, "dealer": str(p.dealer), "contract": p.contract.to_json(),
           "plays": [[str(s), str(c)] for s, c in p.plays]}
    full = judge(load_record(obj))
    part = judge(load_record({**obj, "plays": obj["plays"][:k]}))
    assert part["tricks"] == full["tricks"][:k // 4]
    # a violation seen in the prefix stays in the full deal (proofs only grow)
    assert {v["play"] for v in part["violations"]} <= {v["play"] for v in full["violations"]}


@pytest.mark.parametrize("module", ["engine.annonces", "engine.auction", "engine.scoring",
                                    "engine.game", "engine.record", "engine.sheet", "engine.rules",
                                    "engine"])
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("path", sorted(DATA.glob("[dg]*.json")), ids=lambda p: p.name)
def test_records_write_back_what_they_read(path: Path) -> None:
    rec = load_record(json.loads(path.read_text()))
    again = load_record(json.loads(json.dumps(rec.to_json())))
    assert again == rec and judge(again) == judge(rec)
