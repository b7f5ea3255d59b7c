"""Unread plays and cards misread elsewhere: which takes which card, and the swaps the rules
call for."""

from __future__ import annotations

import pytest
from tracker_script import (
    SPOT,
    bare_at_start,
    dealt_by_referee,
    det,
    fixed,
    kinds,
    last_trick_swept,
    lying_at,
    plays,
    run,
    seven_tricks_logged,
    started,
    tracker,
    with_fixes,
)

from vision.detections import Detection


@pytest.mark.parametrize("favour", [2.5, 1.8, 0.8])
def test_a_weaker_picture_takes_a_card_misread_elsewhere_when_the_rules_side_with_it(
        favour) -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H is read 9S (9H its second reading); W's 9S is only read too weakly to name, 9S
    # `favour` times as often as 9H. By the cards left W's card is 9H, but E holding 9S and W
    # 9H breaks two rules earlier in the deal, the true way round none: 2.5 times as often is
    # enough then (the odds of E's picture, 0.3 / 0.6, times W's, 2.5, favour the swap); not
    # 1.8 (those odds favour E's reading), nor less than once.
    weak = det(UNNAMED, "W", 0.0, (("9S", 0.1 * favour), ("9H", 0.1)))
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.3)]), det("KC", "N")]  # noqa: E731
    events = last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if favour < 2.0:
        assert [(f["play"], f["card"], f["before"]) for f in fixes] == [(30, "9H", None)]
        return
    assert fixes == [{"play": 28, "card": "9H", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert with_fixes(events, 28) == last and "deal_over" in kinds(events)


@pytest.mark.parametrize("later", [0.8, 0.6])
def test_an_unread_card_takes_a_card_misread_elsewhere_when_both_pictures_favour_it(
        later) -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC reads 9S (KC 0.3) as it is recorded, then KC at `later` (9S 0.1) until the trick
    # is swept; W's 9S is read only weakly, 9S twice as often as KC. The rules break no more
    # either way round, and W's picture alone favours 9S only twice: the swap needs N's picture
    # too: its votes, KC 1.7 times 9S (read 0.8 later), make 3.4 times in all, enough; KC 1.4
    # times 9S (0.6), 2.7 times, not.
    weak = det(UNNAMED, "W", 0.0, (("9S", 0.2), ("KC", 0.1)))

    def first(t: float) -> list[Detection]:
        n_card = det("9S", "N", 0.6, [("KC", 0.3)]) if t < 1.5 else \
            det("KC", "N", later, [("9S", 0.1)])
        return [det("9H", "E"), n_card]

    events = last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    if later < 0.8:
        assert fixes == [{"play": 30, "card": "KC", "before": None, "deduced": True}]
        return
    assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert with_fixes(events, 28) == last


def test_a_card_named_among_the_rules_ties_may_take_a_card_misread_elsewhere() -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC is read 9S; W's and S's cards are never read, W's only weakly: 9S four times as
    # much as KC. The rules leave W and S with KC and TC either way round; W's weak KC votes
    # pick W: KC, S: TC among those ties, yet W's picture said 9S, N's second reading KC.
    x, y = SPOT["W"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     (("9S", 0.4), ("KC", 0.1)))
    first = lambda t: [det("9H", "E"), det("9S", "N", 0.6, [("KC", 0.3)])]  # noqa: E731
    events = last_trick_swept(tr, first, [weak])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes[0] == {"play": 29, "card": "KC", "before": "9S", "uncertain": True}
    assert [(f["play"], f["card"], f["uncertain"]) for f in fixes[1:]] == [
        (30, "9S", True), (31, "TC", True)]
    assert tr.view.plays[28:] == last and "deal_over" in kinds(events)


def test_two_unread_cards_read_as_two_misread_ones_take_them_when_the_rules_cannot_tell(
        ) -> None:
    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # Seed 2066 deal 7: E's 9H reads 9S and N's KC reads TC (their own cards a mere 9% of
    # their votes), then W's 9S and S's TC land, read plainly: being recorded already, they
    # are left unread. The cards left, 9H and KC, fit W and S either way round for the rules;
    # only one way lets each unread play take the card its picture reads, E and N getting
    # their second readings back.
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.06)]),  # noqa: E731
                       det("TC", "N", 0.6, [("KC", 0.06)])]
    events = last_trick_swept(tr, first, [det("9S", "W", 0.9), det("TC", "S", 0.9)])
    assert plays(events) == [("E", "9S"), ("N", "TC"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert {(f["play"], f["card"], f["before"]) for f in fixes} == {
        (28, "9H", "9S"), (29, "KC", "TC"), (30, "9S", None), (31, "TC", None)}
    assert all(f["uncertain"] for f in fixes)  # (the referee checks them)
    assert with_fixes(events, 28) == last and "deal_over" in kinds(events)


def test_of_two_cards_an_unread_play_reads_alike_the_one_the_whole_chain_favours_is_taken(
        ) -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # Seed 2073 deal 8: W's 9S is never read, its place weakly read KC a little more often than
    # 9S; E's 9H was recorded 9S (9H 0.3). Giving W KC means N's KC, read KC 0.89 and 9S 0.08,
    # was 9S and E's 9S 9H; giving W 9S, only that E's was 9H: ten times likelier.
    weak = det(UNNAMED, "W", 0.0, (("KC", 0.32), ("9S", 0.3)))
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.3)]),  # noqa: E731
                       det("KC", "N", 0.89, [("9S", 0.08)])]
    events = last_trick_swept(tr, first, [weak, det("TC", "S")])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", "TC")]
    assert with_fixes(events, 28) == last


def test_a_few_weak_readings_of_a_card_recorded_elsewhere_do_not_stop_another_taking_it(
        ) -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # Seed 2067 deal 0: E's 9H reads 9S, W's 9S lands read plainly and is left unread; S's TC
    # is never read, its place only weakly, KC and QD now and then (3 votes: noise, not a
    # picture of N's KC, read surely). Of the rules' two ways, W: 9H or W: TC, the first lets
    # W take 9S.
    first = lambda t: [det("9S", "E", 0.6, [("9H", 0.06)]), det("KC", "N")]  # noqa: E731
    weak = det(UNNAMED, "S", 0.0, (("KC", 0.1), ("QD", 0.05)))
    events = last_trick_swept(tr, first, [det("9S", "W", 0.9), weak])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", None)]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert {(f["play"], f["card"], f["before"]) for f in fixes} == {
        (28, "9H", "9S"), (30, "9S", None), (31, "TC", None)}
    # S's weak readings are the referee's alternatives, as shares to 3 places.
    assert [f["alternatives"] for f in fixes if f["play"] == 31] == [[["KC", 0.667],
                                                                       ["QD", 0.333]]]
    assert with_fixes(events, 28) == last


@pytest.mark.parametrize("second, swapped", [(0.4, True), (0.2, False)])
def test_two_cards_are_swapped_when_one_reads_nearly_as_the_other_and_the_rules_say_so(
        second, swapped) -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # As seed 2074 deal 12: E's 9H reads 9S (9H `second` of its votes); W's 9S is never read, so
    # the rules deduce 9H there. Read so, E and W each kept a card of a suit they failed to
    # follow earlier: two revokes the camera made up. Swapped, none: taken when E's reading
    # of 9H is near even, not when it is a stray one.
    first = lambda t: [det("9S", "E", 0.6, [("9H", second)]), det("KC", "N")]  # noqa: E731
    events = last_trick_swept(tr, first, [det(UNNAMED, "W", 0.0, ()), det("TC", "S")])
    assert plays(events) == [("E", "9S"), ("N", "KC"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes[0] == {"play": 30, "card": "9H", "before": None, "deduced": True}
    if swapped:
        assert fixes[1:] == [{"play": 28, "card": "9H", "before": "9S", "uncertain": True},
                             {"play": 30, "card": "9S", "before": "9H", "uncertain": True}]
        assert with_fixes(events, 28) == last
    else:
        assert with_fixes(events, 28) == [("E", "9S"), ("N", "KC"), ("W", "9H"), ("S", "TC")]


@pytest.mark.parametrize("clear", [0.9, 0.5])
def test_a_card_read_clearly_since_it_came_to_rest_is_not_held_by_its_landing(clear) -> None:
    tr = tracker(max_wait=0.6)  # (a doubtful name waits 0.6 s here, to tell the two apart)
    tr.observe({"type": "deal_started", "data": {"dealer": "E"}})  # N leads
    x, y = SPOT["N"]
    # Slid in under a hand for a second, N's 9S reads 7S; at rest, 9S with `clear` confidence.
    sliding = lambda t: [det("7S", (x - 200 + 200 * t, y), 0.6, [("9S", 0.3)])]  # noqa: E731
    events, t = run(tr, sliding, seconds=1.0)
    rest = t
    ev, t = run(tr, lambda t: [det("9S", "N", clear, [("7S", 0.05)])], t0=t, seconds=1.5)
    events += ev
    assert plays(events) == [("N", "9S")]
    data = events[-1]["data"]
    if clear < 0.6:  # not clear now either: recorded in doubt once its votes favour what its
        # picture reads at rest (9S from the 7th frame), before steady_s + max_wait
        assert 0.55 <= data["t"] - rest <= 0.75 and data["uncertain"] is True
        return
    # (the votes of the whole track favour 9S by 0.6 only after 8 frames at rest)
    assert data["t"] - rest <= 0.5 and data["uncertain"] is False


def _trick_n_won_then_swept(tr, n_at, s_card) -> float:
    """N leads `n_at(t)` (a QH that wins, or a QD S's KD beats), then W's 8D, S's `s_card`
    and E's 9D come one by one, and the trick is swept; returns the time."""
    _, t = run(tr, lambda t: [n_at(t)], seconds=1.5)
    w_card, e_card = det("8D", "W"), det("9D", "E")
    for shown in ([w_card], [w_card, s_card], [w_card, s_card, e_card]):
        _, t = run(tr, lambda t, shown=shown: [n_at(t), *shown], t0=t, seconds=0.8)
    _, t = run(tr, lambda t: [], t0=t, seconds=1.0)  # swept
    return t


@pytest.mark.parametrize("other", [0.15, 0.3, 0.45])
def test_of_two_readings_that_explain_a_lead_the_likelier_is_taken(other) -> None:
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    # N's QD reads QH three frames in five (N won; as QD, S's KD won). S's KD also reads KS
    # (a trump: S won) with `other` of its votes.
    mixed = lambda t: det("QH" if round(t * 10) % 5 < 3 else "QD", "N")  # noqa: E731
    t = _trick_n_won_then_swept(tr, mixed, det("KD", "S", 1.0 - other, [("KS", other)]))
    assert tr.view.leaders() == {"N"}
    # S's card comes first (N and W would have played before it, unseen both): S led. Either
    # reading says so; the likelier is taken (QD has 0.4 of N's votes), for the seats' order
    # matters more than one card, which a later sighting may still correct.
    ev, t = run(tr, lying_at({"S": "7C"}), t0=t, seconds=1.0)
    if other > 0.4:
        assert fixed(ev[0]) == {"play": 2, "card": "KS", "before": "KD"}
    else:
        assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert plays(ev) == [("S", "7C")]


def test_a_lesser_weak_reading_takes_a_misread_card_only_when_fewer_rules_break() -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H is read KC (9H its second reading); N's KC is only read weakly: most of all as a
    # card played in the first trick (no play to rename), then KC, four times 9H. By the cards
    # left N's card is 9H; E's KC then breaks three rules, 9H none: the swap is taken.
    early = tr.view.plays[0][1]
    x, y = SPOT["N"]
    weak = Detection(UNNAMED, 0.0, (x - 28.5, y - 44, x + 28.5, y + 44),
                     ((early, 0.5), ("KC", 0.4), ("9H", 0.1)))
    first = lambda t: [det("KC", "E", 0.6, [("9H", 0.3)])]  # noqa: E731
    events = last_trick_swept(tr, first, [weak, det("9S", "W"), det("TC", "S")])
    assert plays(events) == [("E", "KC"), ("N", None), ("W", "9S"), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes == [{"play": 28, "card": "9H", "before": "KC", "uncertain": True},
                     {"play": 29, "card": "KC", "before": None, "deduced": True,
                      "uncertain": True}]
    assert with_fixes(events, 28) == last and "deal_over" in kinds(events)


def test_a_card_of_the_trick_seen_only_as_an_unnamed_box_still_lies_there() -> None:
    # Set I (seed 2031), deal 13: N's 9D, read 8D under the hand that put it down, was then
    # boxed but not named for 1.2 s; a second box on it read TD. That box was taken for N's
    # next lead: W, S and E got unread plays and 16 plays shifted.
    from vision.detections import UNNAMED

    tr = bare_at_start(dealt_by_referee("E"))  # N leads, then W
    x, y = SPOT["N"]
    box = (x - 28.5, y - 44, x + 28.5, y + 44)
    unnamed = Detection(UNNAMED, 0.0, box, (("9D", 0.4), ("TD", 0.3)))
    events, t = run(tr, lambda t: [det("8D", "N", 0.7, [("7D", 0.2)])], seconds=1.0)
    ev, t = run(tr, lambda t: [unnamed], t0=t, seconds=1.3)
    events += ev
    second = det("TD", (x + 2, y + 1), 0.55, [("9D", 0.24)])
    ev, t = run(tr, lambda t: [unnamed, second], t0=t, seconds=0.3)
    events += ev
    ev, t = run(tr, lambda t: [unnamed, second, det("JS", "W")], t0=t, seconds=1.5)
    events += ev
    assert plays(events) == [("N", "8D"), ("W", "JS")]
    assert "trick_gathered" not in kinds(events)


def test_a_box_among_a_complete_trick_still_lying_there_is_not_the_next_lead() -> None:
    # Set I (seed 2031), deal 17: while the four cards of the first trick lay there (one under
    # a hand), a box by the middle read TC for 0.4 s. It was recorded as the next lead by the
    # trick's winner, the trick gathered: 28 plays shifted.
    tr = started("E", {"taker": "N", "bid": 150, "trump": "TA"})  # N leads, then W, S, E
    cards = {"N": "9C", "W": "KC", "S": "QC", "E": "8C"}  # all trumps: N's 9C wins
    events, t = [], 0.0
    for seat in cards:
        shown = lying_at({k: cards[k] for k in list(cards)[: list(cards).index(seat) + 1]})
        ev, t = run(tr, shown, t0=t, seconds=1.0)
        events += ev
    three = lying_at({k: v for k, v in cards.items() if k != "E"})  # a hand over E's card
    ev, t = run(tr, lambda t: [*three(t), det("TC", "C", 0.83)], t0=t, seconds=0.4)
    events += ev
    ev, t = run(tr, lying_at(cards), t0=t, seconds=2.0)
    events += ev
    ev, t = run(tr, lambda t: [], t0=t, seconds=1.5)  # swept
    events += ev
    ev, t = run(tr, lying_at({"N": "8S"}), t0=t, seconds=1.0)
    events += ev
    assert plays(events) == [*cards.items(), ("N", "8S")]
    assert kinds(events).count("trick_gathered") == 1


def test_an_unread_card_read_plainly_as_a_card_of_its_trick_at_another_seat_takes_it() -> None:
    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # N's KC reads 9S, fairly surely (KC its second reading); W's real 9S reads 9S less surely
    # than that (9H, E's card, its other reading), so N's reading stands and W's card stays
    # unread: by the cards left, KC. Yet W's picture read 9S plainly all along, and a deck
    # holds one 9S: N's was the misread.
    first = lambda t: [det("9H", "E"), det("9S", "N", 0.75, [("KC", 0.2)])]  # noqa: E731
    events = last_trick_swept(tr, first, [det("9S", "W", 0.6, [("9H", 0.2)]), det("TC", "S")])
    assert plays(events) == [("E", "9H"), ("N", "9S"), ("W", None), ("S", "TC")]
    fixes = [fixed(e) for e in events if e["type"] == "correction"]
    assert fixes == [{"play": 29, "card": "KC", "before": "9S", "uncertain": True},
                     {"play": 30, "card": "9S", "before": None, "deduced": True,
                      "uncertain": True}]
    assert with_fixes(events, 28) == last


def test_an_unread_card_read_plainly_as_a_card_of_a_trick_gone_takes_it() -> None:
    tr, rest = seven_tricks_logged(2, tricks=6)
    seventh, last = rest[:4], rest[4:]
    (a_seat, a_card), (b_seat, b_card) = seventh[1], last[2]
    # The seventh trick's second card reads as the last trick's third, fairly surely; that card,
    # when it comes, reads so less surely (the last trick's lead its other reading) and stays
    # unread: by the cards left, the misread one. Its picture read it plainly all along.
    first = [det(b_card, s, 0.75, [(a_card, 0.2)]) if s == a_seat else det(c, s)
             for s, c in seventh]
    then = [det(b_card, s, 0.6, [(last[0][1], 0.2)]) if s == b_seat else det(c, s)
            for s, c in last]
    events, t = [], 0.0
    for cards in (first, then):  # each card lands in turn, then the trick is swept
        for k in range(1, 5):
            ev, t = run(tr, lambda t, lying=cards[:k]: lying, t0=t, seconds=1.0)
            events += ev
        ev, t = run(tr, lambda t: [], t0=t, seconds=3.0)
        events += ev
    assert plays(events)[1] == (a_seat, b_card) and plays(events)[6] == (b_seat, None)
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 25, "card": a_card, "before": b_card, "uncertain": True},
        {"play": 30, "card": b_card, "before": None, "deduced": True, "uncertain": True}]
    assert with_fixes(events, 24) == rest and "deal_over" in kinds(events)


def test_a_play_renamed_to_its_second_reading_gives_it_up_to_an_unread_play_read_as_it() -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(2)
    assert last == [("E", "9H"), ("N", "KC"), ("W", "9S"), ("S", "TC")]
    # E's 9H reads TC, 9S a quarter of its votes; W's 9S is read only weakly, as 9S; S's real
    # TC lands read surely, so E's is renamed 9S (its second reading: in doubt). At the deal's
    # end the rules leave 9H to W, whose readings all say 9S: E's play gives 9S up. (W's box
    # two frames in three: read alike every frame, it is a sighting, `vision.weak_streaks`, W's
    # play is recorded 9S in doubt, and E's renaming to 9S then takes it: 9H goes to W.)
    first = lambda t: [det("TC", "E", 0.9, [("9S", 0.3)]), det("KC", "N")]  # noqa: E731
    weak = det(UNNAMED, "W", 0.0, [("9S", 0.4), ("9H", 0.05)])
    rest = lambda t: [*([weak] if round(t * 10) % 3 else []), det("TC", "S")]  # noqa: E731
    events = last_trick_swept(tr, first, rest)
    assert plays(events) == [("E", "TC"), ("N", "KC"), ("W", None), ("S", "TC")]
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 28, "card": "9S", "before": "TC"},
        {"play": 28, "card": "9H", "before": "9S", "uncertain": True},
        {"play": 30, "card": "9S", "before": None, "deduced": True, "uncertain": True}]
    assert with_fixes(events, 28) == last


def test_an_unread_play_takes_the_card_its_readings_favour_most_of_those_it_could_be() -> None:
    from vision.detections import UNNAMED

    tr, last = seven_tricks_logged(1)
    assert last == [("S", "TD"), ("E", "QD"), ("N", "8D"), ("W", "7H")]
    # S's TD reads 8D in doubt (TD 45%); N's 8D is read only weakly, most often as E's QD (read
    # surely: no play could give it up), then as 8D, hardly as TD. The rules leave TD to N, and
    # both stories break no rule: of the cards N's could be, its readings favour 8D most.
    first = lambda t: [det("8D", "S", 0.55, [("TD", 0.45)]), det("QD", "E")]  # noqa: E731
    weak = det(UNNAMED, "N", 0.0, [("QD", 0.4), ("8D", 0.15), ("TD", 0.03)])
    events = last_trick_swept(tr, first, [weak, det("7H", "W")])
    assert plays(events) == [("S", "8D"), ("E", "QD"), ("N", None), ("W", "7H")]
    assert [fixed(e) for e in events if e["type"] == "correction"] == [
        {"play": 28, "card": "TD", "before": "8D", "uncertain": True},
        {"play": 30, "card": "8D", "before": None, "deduced": True, "uncertain": True}]


def test_a_lone_lead_lost_a_while_and_read_again_as_another_card_is_no_new_trick() -> None:
    # Seed 2116 deal 1: N's 8C, read 7C under the hand and recorded so, then not seen for a
    # second, then read 8C where it lay. Taken for N's next lead, it closed the trick with
    # three unread plays and shifted every later play of the deal. A trick of one card is not
    # swept while its three others go unseen: that 8C is the 7C seen again.
    tr = bare_at_start(dealt_by_referee("E"))  # N leads, then W
    x, y = SPOT["N"]

    def script(t):
        found = [det("AH", "W", 0.95)] if t >= 1.9 else []
        if t < 0.5:
            return [det("7C", "N", 0.55), *found]
        if t >= 1.7:
            return [det("8C", (x, y - 8), 0.53, (("9C", 0.3),)), *found]
        return found

    events, _ = run(tr, script, seconds=4.0)
    assert "trick_gathered" not in kinds(events)
    assert plays(events) == [("N", "7C"), ("W", "AH")]


def test_of_two_readings_that_explain_a_lead_one_of_a_card_read_in_doubt_is_taken() -> None:
    # Seed 2116 deal 5: E's 7C, read surely (7C 0.64-0.72 a frame; 7S its second reading, 0.29
    # of its votes), and W's QC, read QS in doubt (0.52-0.77; QC 0.23 of its votes). Either
    # renaming made W, whose card came first, the last trick's winner; E's 7S, the larger
    # share, was taken, and the deal ended 27/32. A card read surely is the less likely misread.
    tr = started("E", {"taker": "N", "bid": 80, "trump": "S"})  # N leads, then W, S, E
    n_card = det("QH", "N", 0.55, [("QD", 0.15)])  # as QD, S's KD wins
    s_card = det("KD", "S", 0.72, [("KS", 0.28)])  # as KS, a trump, S wins
    t = _trick_n_won_then_swept(tr, lambda t: n_card, s_card)
    assert tr.view.leaders() == {"N"}
    ev, t = run(tr, lying_at({"S": "7C"}), t0=t, seconds=1.0)
    assert fixed(ev[0]) == {"play": 0, "card": "QD", "before": "QH"}
    assert plays(ev) == [("S", "7C")]
