"""Scripted detections for the tracker tests (test_tracker*.py): cards at fixed spots of an
800 px felt, frames fed at 10 per second, and openings of deals the tests share."""

from __future__ import annotations

import random

from vision.detections import Detection
from vision.gathering import LAST_WAIT
from vision.geometry import TableGeometry
from vision.tracker import TableTracker, TrackerSettings

FPS = 10.0
PX = 10.0  # pixels per cm: an 80 cm felt filling an 800 px picture
SPOT = {"S": (400, 485), "N": (400, 315), "E": (485, 400), "W": (315, 400), "C": (400, 400)}


def det(card: str, where: str | tuple[float, float], conf: float = 0.9, alts=()) -> Detection:
    x, y = SPOT[where] if isinstance(where, str) else where
    return Detection(card, conf, (x - 28.5, y - 44, x + 28.5, y + 44), tuple(alts))


def tracker(rules: str = "ffb-coinche", **kw) -> TableTracker:
    return TableTracker(TableGeometry.full((800, 800)), TrackerSettings(**kw), rules)


def run(tr: TableTracker, script, t0: float = 0.0, seconds: float | None = None):
    """script(t) -> detections; feeds frames at FPS and returns (events, end time)."""
    events, t = [], t0
    end = t0 + (seconds if seconds is not None else 1.0)
    while t < end - 1e-9:
        events += tr.update(t, script(t))
        t = round(t + 1 / FPS, 6)
    return events, t


def kinds(events):
    return [e["type"] for e in events]


def plays(events):
    return [(e["data"]["seat"], e["data"]["card"]) for e in events if e["type"] == "card_played"]


def fixed(event) -> dict:
    """A correction the camera wrote, without the frame time it carries (checked here)."""
    assert event["type"] == "correction"
    data = dict(event["data"])
    assert isinstance(data.pop("t"), float)
    return data


def started(dealer: str = "E", contract=None) -> TableTracker:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": dealer}})
    if contract:
        tr.observe({"type": "contract", "data": contract})
    return tr


def lying_at(cards: dict[str, str]):
    return lambda t: [det(card, seat) for seat, card in cards.items()]


def one_by_one(tr, order, t=0.0, pace=0.6):
    """Cards land one every `pace` s and stay; returns (events, t)."""
    events = []
    for k in range(len(order)):
        ev, t = run(tr, lying_at(dict(order[: k + 1])), t0=t, seconds=pace)
        events += ev
    return events, t


def seven_tricks_logged(seed: int, tricks: int = 7
                         ) -> tuple[TableTracker, list[tuple[str, str]]]:
    """A tracker whose log holds the first seven tricks (or `tricks`) of a random deal (N takes,
    hearts), and the plays of the rest, still to be seen."""

    from engine.contract import Contract
    from engine.playout import play_out
    from engine.rules import find_rules

    contract = Contract.from_json({"taker": "N", "bid": 80, "trump": "H"})
    deal = play_out(random.Random(seed), find_rules("ffb-coinche"), contract)
    tr = started(str(deal.dealer), contract.to_json())
    for i, (seat, card) in enumerate(deal.plays[: 4 * tricks]):
        tr.observe({"type": "card_played", "data": {"seat": str(seat), "card": str(card)}})
        if i % 4 == 3:
            tr.observe({"type": "trick_gathered", "data": {}})
    return tr, [(str(s), str(c)) for s, c in deal.plays[4 * tricks:]]


def last_trick_swept(tr: TableTracker, first, rest) -> list:
    """The first cards of the last trick lie 1.2 s, the `rest` join them for 2 s, then all are
    swept (3 s): the events. (`rest`: detections, or a script of them.)"""
    rest_at = rest if callable(rest) else lambda t: rest
    events, t = run(tr, first, seconds=1.2)
    ev, t = run(tr, lambda t: [*first(t), *rest_at(t)], t0=t, seconds=2.0)
    events += ev
    ev, _ = run(tr, lambda t: [], t0=t, seconds=3.0)
    return events + ev


def with_fixes(events, start: int) -> list[tuple[str, str | None]]:
    """The plays recorded from play `start` on, with the corrections written in."""
    record = plays(events)
    for fix in (e["data"] for e in events if e["type"] == "correction"):
        record[fix["play"] - start] = (record[fix["play"] - start][0], fix["card"])
    return record


def dealt_by_referee(dealer: str) -> TableTracker:
    tr = tracker()
    tr.observe({"type": "deal_started", "data": {"dealer": dealer}, "actor": "referee"})
    return tr


def bare_at_start(tr: TableTracker) -> TableTracker:
    """The deal's first frame shows the felt bare, as a real deal's does (the lead comes after
    it): whatever lies in a seat's place at that frame is an object (`before_deal`)."""
    tr.update(-1 / FPS, [])
    return tr


def logged(tr, plays_, gathered=True):
    for seat, card in plays_:
        tr.observe({"type": "card_played", "data": {"seat": seat, "card": card}})
    if gathered:
        tr.observe({"type": "trick_gathered", "data": {}})


def misread_first_trick(tr, swept: bool = True, rest=(("W", "KD"), ("S", "8D"), ("E", "9D"))):
    """N's QD reads QH three frames in five: recorded QH, N seems to win the trick (nobody
    followed hearts); as QD, W's KD (the KD of `rest`, the others' cards) won it. Returns
    (events, t), after the sweep if `swept`."""
    mixed = lambda t: det("QH" if round(t * 10) % 5 < 3 else "QD", "N")  # noqa: E731
    events, t = run(tr, lambda t: [mixed(t)], seconds=1.5)
    lying: dict[str, str] = {}
    for seat, card in rest:
        lying[seat] = card
        ev, t = run(tr, lambda t: [mixed(t), *lying_at(lying)(t)], t0=t, seconds=0.8)
        events += ev
    if swept:
        ev, t = run(tr, lambda t: [], t0=t, seconds=1.0)
        events += ev
    return events, t


def second_trick_with_w_unread(weak: tuple, first=(("N", "7D"), ("W", "8D"), ("S", "9D"),
                                                    ("E", "AD")),
                                late: str | Detection | None = None):
    """E won the first trick (logged; trumps spades); E leads the second, N follows, W's card
    is never read (only `weak`ly: its readings two frames in three, too seldom for a sighting,
    `vision.weak_streaks`), S's AC; (W's card read plainly as `late`, a card name or a
    detection, a second before) the sweep."""
    from vision.detections import UNNAMED

    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    logged(tr, list(first))
    x, y = SPOT["W"]
    box = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44), weak)
    cards = [("E", "7C"), ("N", "8C"), ("S", "AC")]
    events, t = [], 0.0
    for k in range(len(cards)):
        lying = lying_at(dict(cards[: k + 1]))
        ev, t = run(tr, lambda t, lying=lying, k=k: [
            *lying(t), *([box] if k and round(t * 10) % 3 else [])], t0=t,
                    seconds=LAST_WAIT + 1.0 if k == 2 else 0.6)
        events += ev
    if late is not None:
        seen = det(late, "W") if isinstance(late, str) else late
        ev, t = run(tr, lambda t: [*lying_at(dict(cards))(t), seen], t0=t, seconds=1.0)
        events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # swept
    return tr, events + ev, t
