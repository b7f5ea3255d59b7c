"""A play recorded from something that was no card (`vision.vanished_plays`): its box vanished
while its trick lay there, and the card its seat put down, lying beside it read surely, takes its
place."""

from __future__ import annotations

import pytest
from tracker_script import det, fixed, plays, run, started

from vision.detections import UNNAMED
from vision.vanished_plays import VANISHED_S

PATCH = (470, 300)  # in N's place, 70 px (over a card's width) beside N's spot


def first_trick(patch_s: float = 0.4, real_from: float = 0.4, patch_conf: float = 0.55,
                next_at: float = 2.6, real_conf: float = 0.93, unnamed_s: float = 0.0,
                seconds: float = 5.0):
    """Dealer E: N leads. A patch of the felt beside N's spot is read QC (`patch_conf`, TC
    next) for `patch_s` s, then boxed unnamed until `unnamed_s` s; N's 7D lies at N's spot
    from `real_from` s, read `real_conf` (7S next); W's 8D comes at `next_at` s, S's 9D and
    E's AD 0.6 s apart. Frames for `seconds` s. Returns (tracker, events)."""
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})
    others = [("W", "8D"), ("S", "9D"), ("E", "AD")]

    def script(t: float):
        out = []
        if t < patch_s - 1e-9:
            out.append(det("QC", PATCH, patch_conf, (("TC", 0.1),)))
        elif t < unnamed_s - 1e-9:
            out.append(det(UNNAMED, PATCH, 0.0))
        if t >= real_from - 1e-9:
            out.append(det("7D", "N", real_conf, (("7S", 0.01),)))
        out += [det(card, seat) for k, (seat, card) in enumerate(others)
                if t >= next_at + 0.6 * k - 1e-9]
        return out

    events, _ = run(tr, script, seconds=seconds)
    return tr, events


def test_a_play_whose_box_vanished_takes_the_card_lying_beside_it() -> None:
    tr, events = first_trick()
    assert plays(events)[0] == ("N", "QC")  # recorded from the patch, in doubt
    first = next(e for e in events if e["type"] == "card_played")
    assert first["data"]["uncertain"] is True
    fixes = [e for e in events if e["type"] == "correction"]
    assert [fixed(e) for e in fixes] == [{"play": 0, "card": "7D", "before": "QC",
                                          "uncertain": False}]
    # Once the patch is gone VANISHED_S and the 7D has lain there as long, before W plays.
    w_play = next(e for e in events if e["type"] == "card_played" and e["data"]["seat"] == "W")
    assert 0.4 + VANISHED_S <= fixes[0]["data"]["t"] < w_play["data"]["t"]
    assert tr.view.plays == [("N", "7D"), ("W", "8D"), ("S", "9D"), ("E", "AD")]
    # The 7D is the play now: not held for N's next turn.
    seven = next(o for o in tr.tracks if o.card == "7D")
    assert seven.state == "played" and not seven.held and not seven.name_doubted


@pytest.mark.parametrize(("case", "kwargs"), [
    # The recorded card is still seen: two cards in N's place, not a vanished play.
    ("still seen", {"patch_s": 10.0}),
    # Recorded surely: a card read so is no patch of the felt (a hand may hide it a while).
    ("recorded surely", {"patch_conf": 0.9}),
    # Boxed unnamed all along (read too weakly to name), the trick complete from about 4 s: it
    # lies there still.
    ("boxed unnamed", {"unnamed_s": 8.0, "seconds": 8.0}),
    # The card beside it read plainly but not surely: it may be a card in a hand.
    ("read weakly", {"real_conf": 0.55}),
])
def test_no_play_is_replaced_without_every_sign(case: str, kwargs: dict) -> None:
    tr, events = first_trick(**kwargs)
    assert plays(events)[0] == ("N", "QC"), case
    assert not any(e["type"] == "correction" and e["data"]["card"] == "7D"
                   and e["data"]["play"] == 0 for e in events), case
    assert tr.view.plays[0] == ("N", "QC"), case


def test_the_vanished_place_is_an_object_from_then_on() -> None:
    # E won the trick and leads the next; the patch, boxed again in N's place and read as
    # before, is nobody's play (it waits to be read surely), not N's card.
    tr, _events = first_trick()
    ev, t = run(tr, lambda t: [], t0=5.0, seconds=1.5)  # swept
    patch = det("QC", PATCH, 0.55, (("TC", 0.1),))
    ev2, _ = run(tr, lambda t: [det("KS", "E"), *([patch] if t >= 7.1 else [])], t0=t,
                 seconds=2.5)
    assert [e["type"] for e in ev] == ["trick_gathered"]
    assert plays(ev2) == [("E", "KS")] and tr.view.plays[-1] == ("E", "KS")
