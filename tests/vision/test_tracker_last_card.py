"""The deal's last card (`vision.recording.last_card`): once the other 31 plays are recorded with
their cards, the card put down in the last seat's place is the one left, whatever it reads."""

from __future__ import annotations

from tracker_script import det, last_trick_swept, lying_at, plays, seven_tricks_logged


def _play_of(seat: str, events: list) -> dict:
    return next(e["data"] for e in events
                if e["type"] == "card_played" and e["data"]["seat"] == seat)


def test_the_deals_last_card_is_the_one_left_whatever_its_picture_reads() -> None:
    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    assert tr.view.plays[2] == ("E", "QC")
    # S's TC reads as the QC played in the first trick, and hardly as itself.
    events = last_trick_swept(tr, lying_at(dict(last[:3])), [det("QC", "S", 0.65, (("TC", 0.1),))])
    assert plays(events) == last
    s_play = _play_of("S", events)
    assert 1.2 < s_play["t"] < 2.2  # recorded as it settles (it lies there from 1.2 s)
    assert s_play["uncertain"] is True  # the picture did not read it: the referee sees so
    assert not any(e["type"] == "correction" for e in events)


def test_with_two_cards_unrecorded_the_picture_alone_names_the_last_seats_card() -> None:
    tr, last = seven_tricks_logged(2)
    # W's 9S is never seen (recorded unread when S's card settles): two cards are left, so S's
    # reading of a card played names nothing, and S's play is recorded unread at the sweep.
    events = last_trick_swept(tr, lying_at(dict(last[:2])), [det("QC", "S", 0.65, (("TC", 0.1),))])
    assert plays(events) == [("E", "9H"), ("N", "KC"), ("W", None), ("S", None)]
    assert _play_of("S", events)["t"] > 3.2  # the trick swept at 3.2 s
