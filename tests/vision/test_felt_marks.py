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


def test_marks_last_until_the_next_sweep() -> None:
    marks = FeltMarks()
    for _ in range(MARK_SEEN):
        marks.note(MARK, [])
    marks.swept()
    marks.swept()  # a trick over which the mark was not seen
    assert not marks.covers(MARK)
