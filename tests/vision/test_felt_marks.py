"""Marks of the felt (`vision.felt_marks`): weak boxes where no card lies are not glimpses."""

from __future__ import annotations

from vision.felt_marks import MARK_SEEN, FeltMarks

MARK = (178.0, 250.0, 230.0, 284.0)  # seed 2062 deal 4: W's place, read "KS 0.3" all deal
CARD = (241.0, 226.0, 295.0, 269.0)  # W's card of the trick


def test_a_weak_box_seen_again_and_again_beside_the_trick_is_a_mark_after_the_sweep() -> None:
    marks = FeltMarks()
    for i in range(MARK_SEEN):
        marks.note((MARK[0] + i, MARK[1], MARK[2] + i, MARK[3]), [CARD])  # (a pixel or two off)
    assert not marks.covers(MARK)  # (learnt for the trick after the sweep)
    marks.swept()
    assert marks.covers(MARK)
    assert not marks.covers(CARD)  # a card put down elsewhere in front of the seat


def test_a_weak_box_seen_a_few_times_or_on_a_card_of_the_trick_is_no_mark() -> None:
    marks = FeltMarks()
    for _ in range(MARK_SEEN - 1):
        marks.note(MARK, [CARD])
    for _ in range(MARK_SEEN):
        marks.note((243.0, 228.0, 293.0, 270.0), [CARD])  # the trick's card, read weakly
    marks.swept()
    assert not marks.covers(MARK) and not marks.covers(CARD)


def test_a_mark_seen_once_or_twice_beside_each_trick_counts_over_the_deal() -> None:
    # Seed 2084 deal 3: a mark in E's place read weakly 118 times in the deal, but once or twice
    # beside each whole trick; taken for E's card glimpsed after a sweep, it held S's lead.
    marks = FeltMarks()
    for trick in range(MARK_SEEN):
        marks.note(MARK, [CARD])
        marks.swept()
        assert marks.covers(MARK) is (trick == MARK_SEEN - 1)
    marks.swept()  # a trick over which the mark was not seen: still the felt
    assert marks.covers(MARK)


def test_a_place_seen_beside_one_trick_only_is_a_mark_until_the_next_sweep() -> None:
    # Seed 2062 deal 4: boxes on a hand hovering beside one trick, at W's place, are no mark
    # for the next tricks, where W's card is glimpsed.
    marks = FeltMarks()
    for _ in range(5 * MARK_SEEN):
        marks.note(MARK, [])
    marks.swept()
    assert marks.covers(MARK)
    marks.swept()  # a trick over which it was not seen
    assert not marks.covers(MARK)


def test_a_new_deal_forgets_the_marks() -> None:
    marks = FeltMarks()
    for _ in range(MARK_SEEN):
        marks.note(MARK, [])
    marks.swept()
    marks.forget()  # (a glass moved between deals)
    assert not marks.covers(MARK)
    marks.note(MARK, [])
    marks.swept()
    assert not marks.covers(MARK)  # counted afresh
