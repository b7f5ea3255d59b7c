"""Scoring: every branch and knob, every preset, the worked examples of docs/rules.md §6.

Each case gives the card points (raw, 162 in all) and says the arithmetic in a comment.
"""

from __future__ import annotations

import pytest

from engine.annonces import Declared, annonce_of
from engine.cards import Seat, Team, parse_cards
from engine.contract import Contract, Trump
from engine.rules import PRESETS, find_rules
from engine.scoring import ScoringError, round_points, score_deal, score_points
from engine.tricks import Trick

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
MIXED = [N, E, S, W, N, E, S, W]  # no capot
NS_CAPOT = [N, S, N, S, N, S, N, S]
N_ALONE = [N] * 8
NS_SEVEN = [N, S, N, S, N, S, N, E]  # the defence took the last trick


def tierce(seat: Seat, cards: str = "7D 8D 9D") -> Declared:
    return Declared(seat, annonce_of(parse_cards(cards.split()), Trump.HEARTS, PRESETS[
        "ffb-coinche"]))


def score(rules: str | dict[str, object], bid: int | str, ns: int, *, coinche: int = 1,
          taker: Seat = N, winners: list[Seat] | None = None, belote: tuple[Seat, ...] = (),
          declared: tuple[Declared, ...] = (), false: tuple[Declared, ...] = (),
          trump: Trump = Trump.HEARTS) -> tuple[str, int, int]:
    """(result, NS score, EW score) for NS card points `ns` (EW has 162 - ns)."""
    r = score_points(find_rules(rules), Contract(taker, bid, trump, coinche),  # type: ignore[arg-type]
                     {Team.NS: ns, Team.EW: 162 - ns}, winners or MIXED, declared=declared,
                     false_declared=false, belote=belote)
    return r.result, r.score[Team.NS], r.score[Team.EW]


# --- docs/rules.md §6, the worked examples taken from the seeds --------------------------------
def test_funbelote_made_plus_bid_80_takers_110_score_190() -> None:
    # takers 110 + bid 80 = 190; defence 52 → 50
    assert score("funbelote-contree", 80, 110) == ("made", 190, 50)


@pytest.mark.parametrize("points,rounded", [(85, 90), (84, 80), (89, 90), (80, 80), (162, 160),
                                            (0, 0), (5, 10), (4, 0)])
def test_rounding_nearest10(points: int, rounded: int) -> None:
    assert round_points(points, find_rules("ffb-coinche")) == rounded
    assert round_points(points, find_rules("gameduell-contree")) == points  # rounding none


def test_rounding_never_helps_make_a_contract_89_for_90_fails() -> None:
    # 89 would round to 90 but the test is on raw points: failed, defence 160 + 90
    assert score("funbelote-contree", 90, 89) == ("failed", 0, 250)
    assert score("ffb-coinche", 90, 89) == ("failed", 0, 250)


@pytest.mark.parametrize("coinche,points", [(2, 180), (4, 360)])
def test_funbelote_bid_mode_90_coinche_180_surcontre_360(coinche: int, points: int) -> None:
    rules = {"preset": "funbelote-contree", "scoring_mode": "bid"}
    assert score(rules, 90, 100, coinche=coinche) == ("made", points, 0)
    # the same value goes to the defence when the takers fail
    assert score(rules, 90, 60, coinche=coinche) == ("failed", 0, points)


def test_004_capot_bid_worth_500_made_or_failed() -> None:
    # made: 250 for the cards + 250 for the bid
    assert score("coinche-1000", "capot", 162, winners=NS_CAPOT) == ("capot", 500, 0)
    # failed (the defence took the last trick): defence 250 + the bid 250
    assert score("coinche-1000", "capot", 150, winners=NS_SEVEN) == ("failed", 0, 500)


def test_coinchepassion_examples() -> None:
    cp = "coinchepassion-belote"
    # made: 82+ (belote counted) and more than the defence → both score rounded points + belote
    # takers E: 95 → 100 + belote 20 = 120; defence 67 → 70
    assert score(cp, 82, 67, taker=E, belote=(W,)) == ("made", 70, 120)
    # failed (75 < 82): defence 160 + its belote 20, takers only their belote 20
    assert score(cp, 82, 87, taker=E, belote=(W, N)) == ("failed", 180, 20)
    # belote makes the 82: 70 + 20 = 90 ≥ 82 and 90 > 92? no → failed, defence 160
    assert score(cp, 82, 92, taker=E, belote=(E,)) == ("failed", 160, 20)
    # 75 + 20 = 95 > 87 → made: 80 + 20 = 100, defence 87 → 90
    assert score(cp, 82, 87, taker=E, belote=(E,)) == ("made", 90, 100)
    # capot → 250 + belote to the capot team; the other team only its belote
    assert score(cp, 82, 162, winners=NS_CAPOT, belote=(S,)) == ("capot", 270, 0)
    assert score(cp, 82, 0, taker=E, winners=NS_CAPOT, belote=(E,)) == ("failed", 250, 20)


# --- FFB (ffb-coinche) ------------------------------------------------------------------------
FFB = [
    # issue example: 92 → 90 + bid 90 = 180; EW 70
    ("made", 90, 92, {}, ("made", 180, 70)),
    # 85 → 90 + 80 = 170; 77 → 80
    ("rounding up", 80, 85, {}, ("made", 170, 80)),
    # 84 → 80 + 80 = 160; 78 → 80
    ("rounding down", 80, 84, {}, ("made", 160, 80)),
    # 81-81: the defence needs only ≥: litige, scored as failed: 160 + 80
    ("litige", 80, 81, {}, ("litige", 0, 240)),
    # 75 + belote 20 = 95 ≥ 90 and > 87 → made: 80 + 20 + 90 = 190; 87 → 90
    ("belote makes it", 90, 75, {"belote": (N,)}, ("made", 190, 90)),
    # 85 + tierce 20 = 105 ≥ 100 → made: 90 + 20 + 100 = 210; 77 → 80
    ("annonce makes it", 100, 85, {"declared": (tierce(S),)}, ("made", 210, 80)),
    # 70 + 20 = 90 < 100 → failed: defence 160 + the takers' tierce 20 + bid 100 = 280
    ("annonces change hands", 100, 70, {"declared": (tierce(S),)}, ("failed", 0, 280)),
    # failed, the takers keep their belote (imprenable): 160 + 90 = 250 / 20
    ("belote kept", 90, 60, {"belote": (N,)}, ("failed", 20, 250)),
    # (160 + 90) x 2 = 500, the defence nothing
    ("coinche made", 90, 100, {"coinche": 2}, ("made", 500, 0)),
    # belote_multiplied: (160 + 90 + 20) x 2 = 540
    ("coinche belote", 90, 100, {"coinche": 2, "belote": (S,)}, ("made", 540, 0)),
    # (160 + 90) x 4 = 1000 to the defence; the takers keep their belote 20
    ("surcoinche failed", 90, 70, {"coinche": 4, "belote": (N,)}, ("failed", 20, 1000)),
    # capot not bid: 162 + 90 = 252 → 250, + 80 = 330
    ("capot", 80, 162, {"winners": NS_CAPOT}, ("capot", 330, 0)),
    # the defenders' tierce changes hands: 250 + 20 + 80 = 350
    ("capot takes annonces", 80, 162, {"winners": NS_CAPOT, "declared": (tierce(E),)},
     ("capot", 350, 0)),
    # capot bid made: 250 + 250 = 500
    ("capot bid", "capot", 162, {"winners": NS_CAPOT}, ("capot", 500, 0)),
    # capot bid failed: defence 160 + 250 = 410
    ("capot bid failed", "capot", 150, {"winners": NS_SEVEN}, ("failed", 0, 410)),
    # capot made when coinched: (250 + 80) x 2 = 660
    ("capot coinched", 80, 162, {"winners": NS_CAPOT, "coinche": 2}, ("capot", 660, 0)),
    # the takers are capot: defence 252 → 250 (more than 160) + 80 = 330
    ("takers capot", 80, 0, {"winners": [E, W] * 4}, ("failed", 0, 330)),
    # N's false tierce: 20 to EW (renonce); N still makes 100 → 100 + 80 = 180
    ("false annonce", 80, 100, {"false": (tierce(N),)}, ("made", 180, 80)),
]


@pytest.mark.parametrize("name,bid,ns,kw,expected", FFB, ids=[c[0] for c in FFB])
def test_ffb(name: str, bid: int | str, ns: int, kw: dict[str, object],
             expected: tuple[str, int, int]) -> None:
    assert score("ffb-coinche", bid, ns, **kw) == expected  # type: ignore[arg-type]


# --- 004 (coinche-1000) -----------------------------------------------------------------------
C1000 = [
    # cards 81 < 82 although 81 + belote 20 ≥ 80: failed; defence 160 + 80, takers keep 20
    ("card82", 80, 81, {"belote": (N,)}, ("failed", 20, 240)),
    # 85 ≥ 82 and 85 + 20 ≥ 100 → made: 90 + 20 + 100 = 210; 77 → 80
    ("annonce reaches the bid", 100, 85, {"declared": (tierce(N),)}, ("made", 210, 80)),
    # 81-81 is not a litige here: 81 < 82 fails
    ("81-81", 80, 81, {}, ("failed", 0, 240)),
    # coinched: (160 + 90) x 2 = 500, each team keeps its belote unmultiplied: + 20
    ("coinche belote kept", 90, 100, {"coinche": 2, "belote": (N, E)}, ("made", 520, 20)),
    # coinched capot bid failed: (250 + 250) x 2
    ("coinche capot bid failed", "capot", 150, {"coinche": 2, "winners": NS_SEVEN},
     ("failed", 0, 1000)),
    # capot not bid, coinched: (250 + 80) x 2 = 660
    ("coinche capot", 80, 162, {"coinche": 2, "winners": NS_CAPOT}, ("capot", 660, 0)),
    # capot flat250 made: 250 + 80
    ("capot", 80, 162, {"winners": NS_CAPOT}, ("capot", 330, 0)),
]


@pytest.mark.parametrize("name,bid,ns,kw,expected", C1000, ids=[c[0] for c in C1000])
def test_coinche_1000(name: str, bid: int | str, ns: int, kw: dict[str, object],
                      expected: tuple[str, int, int]) -> None:
    assert score("coinche-1000", bid, ns, **kw) == expected  # type: ignore[arg-type]


# --- FunBelote ---------------------------------------------------------------------------------
FUN = [
    # the belote counts towards the bid: 80 + 20 = 100 ≥ 90 → 80 + 20 + 90 = 190; 82 → 80
    ("belote makes it", {}, 90, 80, {"belote": (S,)}, ("made", 190, 80)),
    # failed: the takers' belote goes to the defence: 160 + 90 + 20 = 270
    ("belote to defence", {}, 90, 60, {"belote": (S,)}, ("failed", 0, 270)),
    # coinched made: 160 + 90 x 2 = 340; surcontré 160 + 90 x 4 = 520
    ("contre", {}, 90, 100, {"coinche": 2}, ("made", 340, 0)),
    ("surcontre", {}, 90, 100, {"coinche": 4}, ("made", 520, 0)),
    # coinched failed: 160 + 90 x 2 = 340 to the defence
    ("contre failed", {}, 90, 60, {"coinche": 2}, ("failed", 0, 340)),
    # points faits, contre: 320 flat (+ belote 20 = 340), surcontre 640
    ("made mode contre", {"scoring_mode": "made"}, 90, 100, {"coinche": 2, "belote": (N,)},
     ("made", 340, 0)),
    ("made mode surcontre", {"scoring_mode": "made"}, 90, 100, {"coinche": 4},
     ("made", 640, 0)),
    # points faits, plain: takers their points only
    ("made mode", {"scoring_mode": "made"}, 90, 100, {}, ("made", 100, 60)),
    # capot not bid: 250 + the bid 80
    ("capot", {}, 80, 162, {"winners": NS_CAPOT}, ("capot", 330, 0)),
    # capot bid: 250 + 250 = 500
    ("capot bid", {}, "capot", 162, {"winners": NS_CAPOT}, ("capot", 500, 0)),
    # points annoncés: made → the bid only, defence 0
    ("bid mode", {"scoring_mode": "bid"}, 90, 100, {}, ("made", 90, 0)),
]


@pytest.mark.parametrize("name,knobs,bid,ns,kw,expected", FUN, ids=[c[0] for c in FUN])
def test_funbelote(name: str, knobs: dict[str, object], bid: int | str, ns: int,
                   kw: dict[str, object], expected: tuple[str, int, int]) -> None:
    rules = {"preset": "funbelote-contree", **knobs}
    assert score(rules, bid, ns, **kw) == expected  # type: ignore[arg-type]


# --- GameDuell (rounding none, failed 162, x2 on the bid, générale) -----------------------------
GD = [
    # made: 97 + 80 = 177, defence 65
    ("made", 80, 97, {}, ("made", 177, 65)),
    # failed: 162 + 80 = 242
    ("failed", 80, 70, {}, ("failed", 0, 242)),
    # bid 80 and 81-81: a litige, "l'équipe qui a pris perd ses points": 162 + 80
    ("litige", 80, 81, {}, ("litige", 0, 242)),
    # 80 reaches the bid but not the defence's 82: failed ("son contrat de 82 points")
    ("80 against 82", 80, 80, {}, ("failed", 0, 242)),
    # contré made: 97 + 2 x 80 = 257, + belote 20
    ("contre made", 80, 97, {"coinche": 2, "belote": (N,)}, ("made", 277, 0)),
    # contré failed: 162 + 2 x 80 = 322; surcontré 162 + 4 x 80 = 482
    ("contre failed", 80, 70, {"coinche": 2}, ("failed", 0, 322)),
    ("surcontre failed", 80, 70, {"coinche": 4}, ("failed", 0, 482)),
    # générale not bid: last trick 350 → 152 + 350 = 502, + 80 = 582
    ("generale", 80, 162, {"winners": N_ALONE}, ("generale", 582, 0)),
    # générale bid: 502 + 500
    ("generale bid", "generale", 162, {"winners": N_ALONE}, ("generale", 1002, 0)),
    # générale bid, the partner took one trick: failed, 162 + 500
    ("generale bid failed", "generale", 162, {"winners": NS_CAPOT}, ("failed", 0, 662)),
    # capot: "le dernier pli vaut alors 100 points" → 152 + 100 = 252 (no rounding), + 80
    ("capot", 80, 162, {"winners": NS_CAPOT}, ("capot", 332, 0)),
    # capot bid 260: 252 + 260
    ("capot bid", "capot", 162, {"winners": NS_CAPOT}, ("capot", 512, 0)),
    # the defence takes all eight tricks of a failed contract: 252 + 80
    ("capot against", 80, 0, {"winners": [E, W] * 4}, ("failed", 0, 332)),
    # contré and made with a capot: 252 + 2 x 80
    ("contre capot", 80, 162, {"coinche": 2, "winners": NS_CAPOT}, ("capot", 412, 0)),
]


@pytest.mark.parametrize("name,bid,ns,kw,expected", GD, ids=[c[0] for c in GD])
def test_gameduell(name: str, bid: int | str, ns: int, kw: dict[str, object],
                   expected: tuple[str, int, int]) -> None:
    assert score("gameduell-contree", bid, ns, **kw) == expected  # type: ignore[arg-type]


# --- belote-501 (rounding none, capot +90, litige reserve) -------------------------------------
def test_belote501_litige_reserve() -> None:
    r = score_points(find_rules("belote-501"), Contract(N, 82, Trump.HEARTS),
                     {Team.NS: 81, Team.EW: 81}, MIXED)
    # the defence scores its 81, the takers' 81 wait for the winner of the next deal
    assert (r.result, r.score[Team.NS], r.score[Team.EW], r.reserve, r.winner) == \
        ("litige", 0, 81, 81, None)


def test_belote501_capot_plus90_and_annonces() -> None:
    # capot: 162 + 90 = 252 (not rounded) + tierce 20 + belote 20 = 292
    assert score("belote-501", 82, 162, winners=NS_CAPOT, belote=(N,),
                 declared=(tierce(S),)) == ("capot", 292, 0)
    # failed (60 + 20 < 82): "tous ses points iront au binôme adverse": the defence 162 (all
    # the cards, no rounding) + every annonce (the takers' tierce too)
    assert score("belote-501", 82, 60, declared=(tierce(S),)) == ("failed", 0, 182)
    # the takers keep only their belote: 70 + 20 = 90 < 92 → failed, defence 162
    assert score("belote-501", 82, 70, belote=(N,)) == ("failed", 20, 162)
    # the annonce counts towards the 82: 70 + 20 = 90 ≥ 82 and > 92? no: failed
    assert score("belote-501", 82, 70, declared=(tierce(S),))[0] == "failed"
    # 75 + 20 = 95 > 87: made, each team its points: 95, 87
    assert score("belote-501", 82, 75, declared=(tierce(S),)) == ("made", 95, 87)


# --- one knob at a time, from ffb-coinche ------------------------------------------------------
KNOBS = [
    # contract_rule on NS 78 + belote 20 = 98 vs 84, bid 90
    ({"contract_rule": "ffb"}, 90, 78, {"belote": (N,)}, "made"),  # 98 ≥ 90 and 98 > 84
    ({"contract_rule": "card82-and-bid"}, 90, 78, {"belote": (N,)}, "failed"),  # 78 < 82
    ({"contract_rule": "bid-only"}, 90, 78, {"belote": (N,)}, "made"),  # 98 ≥ 90
    ({"contract_rule": "belote82"}, 90, 78, {"belote": (N,)}, "made"),  # 98 ≥ 82 and > 84
    # bid-only makes a contract the defence out-scores: 80 ≥ 80 though 80 < 82
    ({"contract_rule": "bid-only"}, 80, 80, {}, "made"),
    ({"contract_rule": "ffb"}, 80, 80, {}, "failed"),
    # belote82 ignores the bid: 90 ≥ 82 and > 72 though below 120
    ({"contract_rule": "belote82"}, 120, 90, {}, "made"),
    # litige: failed → result litige, reserve → litige too (scores differ, below)
    ({"litige": "reserve"}, 80, 81, {}, "litige"),
]


@pytest.mark.parametrize("knobs,bid,ns,kw,result", KNOBS)
def test_knob_contract_rule(knobs: dict[str, object], bid: int, ns: int, kw: dict[str, object],
                            result: str) -> None:
    rules = {"preset": "ffb-coinche", **knobs}
    assert score(rules, bid, ns, **kw)[0] == result  # type: ignore[arg-type]


SCORE_KNOBS = [
    # scoring_mode: made+bid 90 + 90 / made 90 / bid 90 and defence 0
    ({"scoring_mode": "made+bid"}, 90, 92, {}, (180, 70)),
    ({"scoring_mode": "made"}, 90, 92, {}, (90, 70)),
    ({"scoring_mode": "bid"}, 90, 92, {}, (90, 0)),
    # failed_base 162 vs 160: 162 + 90
    ({"failed_base": 162}, 90, 60, {}, (0, 252)),
    # belote_on_failure: kept (takers keep 20) vs to_defence (160 + 90 + 20)
    ({"belote_on_failure": "kept"}, 90, 60, {"belote": (N,)}, (20, 250)),
    ({"belote_on_failure": "to_defence"}, 90, 60, {"belote": (N,)}, (0, 270)),
    # capot: ffb 252 → 250, flat250 250, plus90 252 (rounding none keeps it)
    ({"capot": "flat250"}, 80, 162, {"winners": NS_CAPOT}, (330, 0)),
    ({"capot": "plus90", "rounding": "none"}, 80, 162, {"winners": NS_CAPOT}, (332, 0)),
    ({"capot": "ffb", "rounding": "none"}, 80, 162, {"winners": NS_CAPOT}, (332, 0)),
    # capot_takes_annonces false: EW keeps its tierce 20
    ({"capot_takes_annonces": False}, 80, 162,
     {"winners": NS_CAPOT, "declared": (tierce(E),)}, (330, 20)),
    # litige reserve: defence 81 → 80, takers 0 (their points in reserve)
    ({"litige": "reserve"}, 80, 81, {}, (0, 80)),
    # false_announce void: N's false tierce costs nothing
    ({"false_announce": "void"}, 80, 100, {"false": (tierce(N),)}, (180, 60)),
    # annonces false: a declared tierce does not count (85 + 0 < 100 fails)
    ({"annonces": False}, 100, 85, {"declared": (tierce(N),)}, (0, 260)),
    # belote_multiplied false: (160 + 90) x 2 + 20
    ({"belote_multiplied": False}, 90, 100, {"coinche": 2, "belote": (N,)}, (520, 0)),
    # coinched_scoring multiply-bid: own points 100 + 90 x 2 = 280
    ({"coinched_scoring": "multiply-bid"}, 90, 100, {"coinche": 2}, (280, 0)),
    # coinched_made_base: points 100 (→ 100) vs failed_base 160, + 90 x 2; surcoinché x 4
    ({"coinched_scoring": "multiply-bid", "coinched_made_base": "points"}, 90, 104,
     {"coinche": 2}, (280, 0)),
    ({"coinched_scoring": "multiply-bid", "coinched_made_base": "failed_base"}, 90, 104,
     {"coinche": 2}, (340, 0)),
    ({"coinched_scoring": "multiply-bid", "coinched_made_base": "failed_base"}, 90, 104,
     {"coinche": 4}, (520, 0)),
    # only multiply-bid reads it: multiply-all (160 + 90) x 2 either way
    ({"coinched_made_base": "points"}, 90, 104, {"coinche": 2}, (500, 0)),
    ({"coinched_made_base": "failed_base"}, 90, 104, {"coinche": 2}, (500, 0)),
    # multipliers are knobs: (160 + 90) x 3
    ({"coinche_multiplier": 3}, 90, 100, {"coinche": 2}, (750, 0)),
    # générale last trick as a knob on a base without générale: 152 + 350 = 502 → 500 + 80
    ({"generale_last_trick": 350}, 80, 162, {"winners": N_ALONE}, (580, 0)),
    # rounding none: 92 + 90
    ({"rounding": "none"}, 90, 92, {}, (182, 70)),
]


@pytest.mark.parametrize("knobs,bid,ns,kw,expected", SCORE_KNOBS)
def test_knob_scores(knobs: dict[str, object], bid: int, ns: int, kw: dict[str, object],
                     expected: tuple[int, int]) -> None:
    rules = {"preset": "ffb-coinche", **knobs}
    assert score(rules, bid, ns, **kw)[1:] == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_scores_a_plain_made_and_failed_deal(preset: str) -> None:
    rules = PRESETS[preset]
    trump = Trump.SPADES
    made = score_points(rules, Contract(E, 100, trump), {Team.NS: 40, Team.EW: 122}, MIXED)
    failed = score_points(rules, Contract(E, 100, trump), {Team.NS: 100, Team.EW: 62}, MIXED)
    assert made.made and made.winner is Team.EW and made.result == "made"
    assert made.score[Team.EW] > made.score[Team.NS]
    assert not failed.made and failed.winner is Team.NS and failed.score[Team.EW] == 0
    assert failed.score[Team.NS] >= rules.failed_base
    assert all(isinstance(line, str) for line in made.lines) and made.lines[-1].startswith("score")


def test_score_deal_from_tricks_counts_points_per_team() -> None:
    cards = parse_cards("7S 8S 9S TS".split())
    tricks = [Trick(N, tuple(zip([N, W, S, E], cards, strict=True)), w, p)
              for w, p in zip(MIXED, [20, 20, 20, 20, 20, 20, 20, 22], strict=True)]
    r = score_deal(PRESETS["ffb-coinche"], Contract(N, 80, Trump.HEARTS), tricks)
    # NS won tricks 1, 3, 5, 7: 80 points; EW 82 → made? 80 ≥ 80 but not > 82: failed
    assert (r.card_points[Team.NS], r.card_points[Team.EW], r.result) == (80, 82, "failed")


def test_breakdown_to_json_has_every_number() -> None:
    r = score_points(PRESETS["ffb-coinche"], Contract(N, 90, Trump.HEARTS),
                     {Team.NS: 92, Team.EW: 70}, MIXED, belote=(E,))
    j = r.to_json()
    assert j["score"] == {"NS": 180, "EW": 90} and j["belote"] == {"NS": 0, "EW": 20}
    assert j["totals"] == {"NS": 92, "EW": 90} and j["multiplier"] == 1
    assert any("180" in line for line in j["lines"])  # type: ignore[union-attr]


@pytest.mark.parametrize("points,winners,message", [
    ({Team.NS: 100, Team.EW: 100}, MIXED, "162"),
    ({Team.NS: 100, Team.EW: 62}, MIXED[:7], "8 trick"),
])
def test_scoring_errors(points: dict[Team, int], winners: list[Seat], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        score_points(PRESETS["ffb-coinche"], Contract(N, 80, Trump.HEARTS), points, winners)


def test_capot_bid_without_capot_in_the_rules_is_an_error() -> None:
    with pytest.raises(ScoringError, match="no capot bid"):
        score_points(PRESETS["belote-501"], Contract(N, "capot", Trump.HEARTS),
                     {Team.NS: 162, Team.EW: 0}, NS_CAPOT)
