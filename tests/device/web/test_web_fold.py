"""Folding the log: undos (and undone undos), corrections, rulings, events that cannot apply."""

from __future__ import annotations

from device.store import EventStore
from device.web.fold import audit, fold


def _log(*events: tuple[str, dict, str]) -> EventStore:
    store = EventStore(":memory:")
    for type_, data, actor in events:
        store.append(type_, data, actor=actor)
    return store


def test_an_undone_undo_restores_its_target() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("card_played", {"seat": "N", "card": "7S"}, "camera"),
                 ("undo", {"seq": 2}, "referee"))
    assert fold(store.events()).deal.plays == []
    store.append("undo", {"seq": 3}, actor="referee")
    assert [p.card for p in fold(store.events()).deal.plays] == ["7S"]


def test_corrections_keep_what_the_camera_read() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("card_played", {"seat": "N", "card": "7S"}, "camera"),
                 ("correction", {"play": 0, "card": "7C", "before": "7S"}, "referee"),
                 ("correction", {"play": 0, "card": "8C", "before": "7C"}, "referee"))
    (p,) = fold(store.events()).deal.plays
    assert (p.card, p.read_as) == ("8C", "7S")


def test_unread_cards_named_by_proof_or_by_weak_readings_are_written_differently() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("card_played", {"seat": "N", "card": None, "uncertain": True}, "camera"),
                 ("card_played", {"seat": "W", "card": None, "uncertain": True}, "camera"),
                 ("correction", {"play": 0, "card": "7S", "before": None, "deduced": True},
                  "camera"),
                 ("correction", {"play": 1, "card": "9S", "before": None, "uncertain": True,
                                 "alternatives": [["TS", 0.3]]}, "camera"))
    proven, hinted = fold(store.events()).deal.plays
    # Proven by the rules: written unread, the engine deduces it again from the record.
    assert proven.deduced and proven.record_entry() == ["N", None]
    # Read weakly (the rules left two ways): written with the other reading in doubt.
    assert not hinted.deduced and hinted.uncertain
    assert hinted.record_entry() == ["W", "9S", ["TS"]]


def test_a_card_named_from_weak_readings_then_read_plainly_is_no_longer_in_doubt() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("card_played", {"seat": "N", "card": None, "uncertain": True}, "camera"),
                 ("card_played", {"seat": "W", "card": None, "uncertain": True}, "camera"),
                 *(("correction", {"play": i, "card": "9S", "before": None, "uncertain": True,
                                   "alternatives": [["TS", 0.3]]}, "camera") for i in (0,)),
                 ("correction", {"play": 1, "card": "8S", "before": None, "uncertain": True,
                                 "alternatives": [["7S", 0.2]]}, "camera"),
                 # N's card read plainly as what it was named; W's as another card
                 ("correction", {"play": 0, "card": "9S", "before": "9S", "uncertain": False},
                  "camera"),
                 ("correction", {"play": 1, "card": "7S", "before": "8S", "uncertain": False},
                  "camera"))
    confirmed, renamed = fold(store.events()).deal.plays
    assert (confirmed.card, confirmed.read_as, confirmed.uncertain) == ("9S", None, False)
    assert confirmed.record_entry() == ["N", "9S"]
    assert (renamed.card, renamed.read_as, renamed.uncertain) == ("7S", "8S", False)


def test_events_that_cannot_apply_are_reported_not_raised() -> None:
    store = _log(("correction", {"play": 0, "card": "7C"}, "referee"),
                 ("deal_started", {"dealer": "E"}, "camera"),
                 ("correction", {"play": 4, "card": "7C"}, "referee"),
                 ("ruling", {"play": -1, "rule": "x", "decision": "accepted"}, "referee"),
                 ("mystery", {}, "system"))
    game = fold(store.events())
    assert len(game.errors) == 3 and all("skipped" in e for e in game.errors)
    assert game.last_seq == 5


def test_a_card_before_any_deal_opens_one() -> None:
    game = fold(_log(("card_played", {"seat": "N", "card": "7S"}, "camera")).events())
    assert len(game.deals) == 1 and game.errors


def test_a_new_game_forgets_the_old_one() -> None:
    store = _log(("game_started", {"rules": "belote-501"}, "referee"),
                 ("deal_started", {"dealer": "E"}, "camera"),
                 ("game_started", {"rules": "ffb-coinche", "players": {"N": "Anne"}}, "referee"))
    game = fold(store.events())
    assert game.rules == "ffb-coinche" and game.deals == [] and game.players == {"N": "Anne"}


def test_the_audit_shows_referee_changes_newest_first() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("contract", {"taker": "N", "bid": 80, "trump": "H"}, "referee"),
                 ("contract", {"taker": "N", "bid": 90, "trump": "H"}, "referee"),
                 ("undo", {"seq": 3}, "referee"))
    rows = audit(store.events())
    assert [r["seq"] for r in rows] == [4, 3, 2]
    assert rows[1]["before"]["bid"] == 80 and rows[1]["after"]["bid"] == 90 and rows[1]["undone"]
    assert rows[0]["before"]["seq"] == 3 and not rows[0]["undone"]


def test_the_audit_names_the_deal_and_the_seat_of_the_play_a_change_is_about() -> None:
    store = _log(("game_started", {"rules": "ffb-coinche"}, "referee"),
                 ("deal_started", {"dealer": "E"}, "referee"),
                 ("card_played", {"seat": "S", "card": "7H"}, "camera"),
                 ("card_played", {"seat": "W", "card": "8H"}, "camera"),  # undone below
                 ("undo", {"seq": 4}, "referee"),
                 ("card_played", {"seat": "N", "card": "9H"}, "camera"),
                 ("correction", {"play": 1, "card": "TH", "before": "9H"}, "referee"),
                 ("deal_over", {}, "camera"),
                 ("card_played", {"seat": "W", "card": "AS"}, "camera"),  # opens deal 2
                 ("ruling", {"play": 0, "rule": "follow-suit", "decision": "accepted"}, "referee"),
                 ("correction", {"play": 5, "card": "KS", "before": "AS"}, "referee"))
    rows = {r["seq"]: r for r in audit(store.events())}
    assert [rows[s]["deal"] for s in (1, 2, 5, 7, 10, 11)] == [0, 1, 1, 1, 2, 2]
    assert rows[7]["seat"] == "N"  # play 1 of deal 1 once W's card was undone
    assert rows[10]["seat"] == "W"  # play 0 of the deal the card after deal_over opened
    assert "seat" not in rows[11]  # no play 5: no seat guessed
    assert fold(store.events()).deal.plays[0].seat == "W"  # numbered as the pages number them


def test_the_record_lists_readings_in_doubt_and_writes_deduced_cards_unread() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("contract", {"taker": "N", "bid": 80, "trump": "S"}, "referee"),
                 ("card_played", {"seat": "N", "card": "QH",
                                  "alternatives": [["QD", 0.39], ["KH", 0.05]]}, "camera"),
                 ("card_played", {"seat": "W", "card": "KD",
                                  "alternatives": [["QD", 0.08]]}, "camera"),
                 ("card_played", {"seat": "S", "card": None}, "camera"),
                 ("correction", {"play": 2, "card": "8D", "before": None, "deduced": True},
                  "camera"))
    deal = fold(store.events()).deal
    assert [p.card for p in deal.plays] == ["QH", "KD", "8D"]  # the page names the deduced card
    # Only a real contender (>= DOUBT_SHARE of the votes) puts a play in doubt; the deduced
    # card goes to the engine unread, as it was seen, for the engine to deduce it again.
    assert deal.record(None)["plays"] == [["N", "QH", ["QD"]], ["W", "KD"], ["S", None]]
    store.append("correction", {"play": 0, "card": "QD", "before": "QH"}, actor="referee")
    assert fold(store.events()).deal.record(None)["plays"][0] == ["N", "QD"]  # settled


def test_an_unread_play_filled_by_a_plain_reading_keeps_that_cards_other_readings() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("card_played", {"seat": "N", "card": None, "t": 3.0}, "camera"),
                 ("correction", {"play": 0, "card": "QH", "before": None, "t": 4.5,
                                 "alternatives": [["QD", 0.18], ["KH", 0.02]]}, "camera"))
    (p,) = fold(store.events()).deal.plays
    assert (p.card, p.uncertain, p.alternatives) == ("QH", False, [["QD", 0.18], ["KH", 0.02]])
    # As for a card recorded directly: a revoke that QD would clear is in doubt.
    assert fold(store.events()).deal.record(None)["plays"] == [["N", "QH", ["QD"]]]


def test_an_unread_play_read_at_last_takes_the_time_it_was_read() -> None:
    store = _log(("deal_started", {"dealer": "E"}, "camera"),
                 ("card_played", {"seat": "N", "card": None, "t": 3.0}, "camera"),
                 ("correction", {"play": 0, "card": "7S", "before": None, "t": 4.5}, "camera"))
    (p,) = fold(store.events()).deal.plays
    assert (p.card, p.t, p.deduced) == ("7S", 4.5, False)
