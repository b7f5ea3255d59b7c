"""ObservedDeal: judging from the plays a camera sees, with and without the hands."""

from __future__ import annotations

from engine.cards import Card, Seat, Suit, parse_cards
from engine.contract import Contract, Trump
from engine.observe import ObservedDeal, Violation, audit
from engine.rules import find_rules

FFB = find_rules("ffb-coinche")

# A whole deal, dealer E so N leads; N wins every trick. W discards the TC on N's spade lead at
# play 9 while holding the 7S, which it shows at play 21.
HANDS = {
    Seat.N: parse_cards("AC AD KS KD JH AS 9H AH".split()),
    Seat.W: parse_cards("7C TC JC QC KC 7D 8D 7S".split()),
    Seat.S: parse_cards("8C 9D 8S QD 7H TS TH QH".split()),
    Seat.E: parse_cards("9C TD 9S JD 8H JS QS KH".split()),
}
TRICKS = ["AC 7C 8C 9C", "AD 7D 9D TD", "KS TC 8S 9S", "KD 8D QD JD",
          "JH JC 7H 8H", "AS 7S TS JS", "9H QC TH KH", "AH KC QH QS"]
PLAYS = [(seat, Card.from_str(c)) for trick in TRICKS
         for seat, c in zip((Seat.N, Seat.W, Seat.S, Seat.E), trick.split(), strict=True)]
CONTRACT = Contract(Seat.N, 80, Trump.HEARTS)


def _observe(plays, hands=None, rules=FFB, contract=CONTRACT, dealer=Seat.E):
    obs = ObservedDeal(rules, contract, dealer, hands)
    for seat, card in plays:
        obs.play(seat, card)
    return obs


def test_revoke_is_flagged_when_the_player_shows_the_suit() -> None:
    for upto in (21, 22):
        obs = _observe(PLAYS[:upto])
        flagged = obs.violations
        if upto == 21:
            assert flagged == [], "nothing proves the revoke before W shows a spade"
        else:
            assert flagged == [Violation(9, Seat.W, Card.from_str("TC"), "follow-suit", 21)]


def test_complete_deal_tricks_points_and_audit() -> None:
    obs = _observe(PLAYS)
    assert obs.is_complete and obs.turn is None
    assert [t.winner for t in obs.tricks] == [Seat.N] * 8
    assert sum(t.points for t in obs.tricks) == 162 and obs.tricks[-1].last
    assert [(v.play, v.rule) for v in obs.violations] == [(9, "follow-suit")]
    assert [(v.play, v.rule) for v in audit(FFB, CONTRACT, Seat.E, PLAYS, HANDS)] == [
        (9, "follow-suit")]


def test_hands_given_flag_at_once_with_no_proof_index() -> None:
    obs = _observe(PLAYS[:10], HANDS)
    assert obs.violations == [Violation(9, Seat.W, Card.from_str("TC"), "follow-suit", None)]


def test_not_in_hand_only_with_hands() -> None:
    plays = [(Seat.N, Card.from_str("KH"))]  # KH is E's card
    assert [v.rule for v in _observe(plays, HANDS).violations] == ["not-in-hand"]
    assert _observe(plays).violations == []


def test_out_of_turn_and_card_seen_twice_are_proven_by_the_play_itself() -> None:
    ac, seven = Card.from_str("AC"), Card.from_str("7C")
    obs = _observe([(Seat.N, ac), (Seat.S, seven), (Seat.S, ac)])
    assert obs.violations == [Violation(1, Seat.S, seven, "out-of-turn", 1),
                              Violation(2, Seat.S, ac, "card-already-played", 2)]
    assert obs.turn is Seat.E  # positions follow the expected order whoever played


def test_rule_is_refined_but_proof_index_kept() -> None:
    """coinche-1000: S discards over W's trump, shows a lower trump (must-undertrump) at play 5,
    then a higher one at play 10: the rule becomes must-overtrump, still proven by play 5 (the
    play was illegal from then on), the rule itself by play 10."""
    rules = find_rules("coinche-1000")
    seq = "N AS, W 9H, S 7C, E 8S, W 7H, S 8H, E TH, N AH, N KH, W QH, S JH, E KD"
    plays = [(Seat.from_str(p.split()[0]), Card.from_str(p.split()[1])) for p in seq.split(", ")]
    obs = _observe(plays[:6], rules=rules)
    assert obs.violations == [Violation(2, Seat.S, Card.from_str("7C"), "must-undertrump", 5)]
    obs = _observe(plays, rules=rules)
    assert obs.violations == [Violation(2, Seat.S, Card.from_str("7C"), "must-overtrump", 5,
                                        rule_proven_by=10)]
    assert obs.violations[0].to_json()["rule_proven_by"] == 10
    assert "rule_proven_by" not in _observe(plays[:6], rules=rules).violations[0].to_json()


def test_possible_cards_follow_proven_voids() -> None:
    obs = _observe(PLAYS[:6])  # W followed clubs then diamonds: nothing proven void yet
    assert Card.from_str("7S") in obs.possible_cards(Seat.W)
    obs = _observe(PLAYS[:18])  # W played JC on N's trump lead: W has no trump
    possible = obs.possible_cards(Seat.W)
    assert not any(c.suit is Suit.HEARTS for c in possible)
    assert not possible & obs.played
    with_hands = _observe(PLAYS[:18], HANDS)
    assert with_hands.possible_cards(Seat.W) == frozenset(parse_cards("QC KC 7S".split()))


def test_undo_recomputes() -> None:
    obs = _observe(PLAYS[:22])
    assert len(obs.violations) == 1
    assert obs.undo() == PLAYS[21]
    assert obs.violations == [] and obs.turn is Seat.W and len(obs.plays) == 21


def test_turn_follows_trick_winner_and_direction() -> None:
    clockwise = find_rules("gameduell-contree")
    obs = ObservedDeal(clockwise, CONTRACT, Seat.N)
    assert obs.turn is Seat.E
    for seat, card in zip((Seat.E, Seat.S, Seat.W, Seat.N), parse_cards("7S AS 8S 9S".split()),
                          strict=True):
        obs.play(seat, card)
    assert obs.tricks[0].winner is Seat.S and obs.turn is Seat.S and obs.violations == []


def test_belote_recognised_from_plays() -> None:
    plays = [(Seat.N, Card.from_str("KH")), (Seat.W, Card.from_str("7H")),
             (Seat.S, Card.from_str("8H")), (Seat.E, Card.from_str("9H")),
             (Seat.E, Card.from_str("AS")), (Seat.N, Card.from_str("QH"))]
    obs = _observe(plays)
    assert obs.belotes() == [(Seat.N, Suit.HEARTS)]
    ta = _observe(plays, contract=Contract(Seat.N, 80, Trump.ALL_TRUMP))
    assert ta.belotes() == [(Seat.N, Suit.HEARTS)]
    assert _observe(plays, contract=Contract(Seat.N, 80, Trump.NO_TRUMP)).belotes() == []
    assert _observe(plays, contract=Contract(Seat.N, 80, Trump.SPADES)).belotes() == []


def test_plays_after_the_last_trick_are_out_of_turn() -> None:
    extra = (Seat.N, Card.from_str("AC"))
    obs = _observe([*PLAYS, extra])
    assert obs.turn is None and len(obs.tricks) == 8
    assert obs.violations[-1] == Violation(32, Seat.N, extra[1], "card-already-played", 32)
    assert [(v.play, v.rule) for v in audit(FFB, CONTRACT, Seat.E, [*PLAYS, extra])] == [
        (9, "follow-suit"), (32, "card-already-played")]


def test_play_returns_what_it_flags() -> None:
    obs = _observe(PLAYS[:21])
    assert obs.play(*PLAYS[21]) == [Violation(9, Seat.W, Card.from_str("TC"), "follow-suit", 21)]
    assert obs.play(*PLAYS[22]) == []
    assert obs.who_played(Card.from_str("TC")) == (9, Seat.W)
    assert obs.held(Seat.W) == frozenset(c for s, c in PLAYS[:23] if s is Seat.W)
