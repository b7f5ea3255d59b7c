"""Who led the trick on the table (`vision.leads`): the last trick's readings in doubt."""

from __future__ import annotations

import pytest

from vision.card_track import CardTrack
from vision.deal_view import DealView
from vision.leads import leader_in_doubt, trick_won_by

# Clubs trump. N leads the first trick; W's JC wins it and W leads the second.
FIRST = [("N", "9D"), ("W", "JC"), ("S", "8D"), ("E", "QD")]
# W 7C, S 8C, E's card read JS, N 9S: S's 8C wins. Were E's card KC, E would have won.
SECOND = [("W", "7C"), ("S", "8C"), ("E", "JS"), ("N", "9S")]


def _view() -> DealView:
    view = DealView()
    view.apply({"type": "deal_started", "data": {"dealer": "E"}})
    view.apply({"type": "contract", "data": {"taker": "N", "bid": 80, "trump": "C"}})
    for trick in (FIRST, SECOND):
        for seat, card in trick:
            view.apply({"type": "card_played", "data": {"seat": seat, "card": card}})
        view.apply({"type": "trick_gathered", "data": {}})
    return view


def _es_card(votes: dict[str, float]) -> CardTrack:
    return CardTrack(box=None, zone="E", first_seen=0.0, last_seen=0.0, votes=votes,
                     state="gathered", card="JS")


@pytest.mark.parametrize(("votes", "in_doubt"), [
    # Seed 2090 deal 19: E's KC read mostly JC, a card played in the first trick: the votes
    # left are JS's, and KC's share of them (0.12) puts S's lead in doubt, though KC has
    # under 5% of all the votes.
    ({"JC": 25.0, "JS": 12.5, "KC": 1.8, "QS": 0.7}, True),
    ({"JS": 37.5, "KC": 1.8, "QS": 0.7}, False),  # read JS plainly: KC is a faint reading
    ({"JC": 25.0, "JS": 12.5, "QS": 2.5}, False),  # another reading, but E would not win
])
def test_other_readings_are_weighed_among_the_cards_a_card_may_be(votes, in_doubt) -> None:
    view = _view()
    assert view.leaders() == {"S"}
    tracks = [_es_card(votes)]
    assert leader_in_doubt(view, tracks) is in_doubt
    renamed = trick_won_by(view, tracks, "E")
    assert [(i, card) for i, card, _track in renamed] == ([(6, "KC")] if in_doubt else [])
