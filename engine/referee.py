"""Judging records: plays through `ObservedDeal`, annonces checked, deals scored, games summed.

The `belote score` object of a deal record is exactly
`{"tricks", "card_points", "result", "score", "violations"}`; `card_points`, `result` and `score`
are null until the deal is complete. A thrown-in deal has result "thrown-in" and scores 0-0. A game
record gives `{"deals": [deal object, ...], "game": summary}` (see docs/record-format.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.annonces import Declared, belotes_from_plays
from engine.cards import Card, Seat, Team
from engine.deduce import violations_past_unread
from engine.game import Game
from engine.observe import ObservedDeal, Violation
from engine.record import DealRecord, Record
from engine.rules import RuleSet
from engine.scoring import DealResult, ScoringError, score_deal

FALSE_ANNOUNCE = "false-announce"


@dataclass(slots=True)
class JudgedDeal:
    """A deal record judged: the observed plays, violations, and (when complete) the result."""

    deal: DealRecord
    observed: ObservedDeal | None  # None when thrown in
    violations: list[Violation] = field(default_factory=list)
    valid: list[Declared] = field(default_factory=list)
    false: list[Declared] = field(default_factory=list)
    belote: list[Seat] = field(default_factory=list)
    result: DealResult | None = None
    problem: str | None = None  # why a complete deal has no score (e.g. a card played twice)
    past_unread: bool = False  # the plays after an open unread one were judged too
    scored_over: int = 0  # scored although unread cards stay open: every way gave this score
    points_open: bool = False  # ... though not the same card points

    @property
    def complete(self) -> bool:
        return self.observed is not None and self.observed.is_complete

    def card_points(self) -> dict[Team, int] | None:
        if self.result is not None:
            return dict(self.result.card_points)
        if self.observed is None or not self.complete:
            return None
        points = {Team.NS: 0, Team.EW: 0}
        for t in self.observed.tricks:
            points[t.winner.team] += t.points
        return points

    def to_json(self) -> dict[str, object]:
        """The `belote score` object of this deal."""
        if self.observed is None:
            return {"tricks": [], "card_points": None, "result": "thrown-in",
                    "score": {"NS": 0, "EW": 0}, "violations": []}
        cp = None if self.points_open else self.card_points()
        out: dict[str, object] = {
            "tricks": [t.to_json() for t in self.observed.tricks],
            "card_points": None if cp is None else {str(t): cp[t] for t in Team},
            "result": None if self.result is None else self.result.result,
            "score": None if self.result is None else self.result.score_json(),
            "violations": [v.to_json() for v in self.violations],
        }
        if self.deal.deduced:  # unread cards the rest of the deal proved
            out["deduced"] = list(self.deal.deduced)
        if self.deal.unread:  # unread cards it could not: their tricks are not scored
            out["unread"] = list(self.deal.unread)
            out["judged_past_unread"] = self.past_unread
            if self.scored_over:
                out["scored_over"] = self.scored_over
        return out


def _check_announce(obs: ObservedDeal, deal: DealRecord, d: Declared) -> Violation | None:
    """A false-announce if the hands (or the plays) show the seat did not hold the cards."""
    mine = [i for i, (s, _) in enumerate(obs.plays) if s is d.seat]
    if not mine:
        return None  # declared with the first card: nothing to judge before it
    first = mine[0]
    for card in d.annonce.cards:
        if deal.hands is not None:
            if card not in deal.hands[d.seat]:
                return Violation(first, d.seat, card, FALSE_ANNOUNCE, None)
            continue
        seen = obs.who_played(card)
        if seen is not None and seen[1] is not d.seat:
            return Violation(first, d.seat, card, FALSE_ANNOUNCE, seen[0])
    return None


def judge_deal(rules: RuleSet, deal: DealRecord) -> JudgedDeal:
    """Replay the plays as seen, check annonces, and score the deal once it is complete."""
    if deal.contract is None:
        return JudgedDeal(deal, None)
    contract = deal.contract
    obs = ObservedDeal(rules, contract, deal.dealer, deal.hands)
    for seat, card in deal.plays:
        obs.play(seat, card)
    out = JudgedDeal(deal, obs, obs.violations)
    if deal.rest:  # plays after an open unread one: judged whatever its card was
        past = violations_past_unread(rules, contract, deal.dealer, deal.seen, deal.hands)
        out.past_unread = past is not None
        out.violations = obs.violations if past is None else past
    for d in deal.declared(rules) if rules.annonces else []:
        v = _check_announce(obs, deal, d)
        if v is None:
            out.valid.append(d)
        elif v.proven_by is not None or deal.hands is not None:
            out.false.append(d)
            out.violations.append(v)
    out.violations.sort(key=lambda v: (v.play, v.rule != FALSE_ANNOUNCE))
    if deal.doubts and out.violations:
        out.violations = _in_doubt(rules, deal, out.violations)
    seen = belotes_from_plays(deal.plays, contract.trump, rules)
    declared = set(deal.belote)
    out.belote = [s for s, _ in seen if not rules.belote_requires_declaration or s in declared]
    if obs.is_complete:
        try:
            out.result = score_deal(rules, contract, obs.tricks, declared=out.valid,
                                    false_declared=out.false, belote=out.belote)
        except ScoringError as exc:
            out.problem = str(exc)
    elif deal.ties:
        _score_over_ties(rules, deal, out)
    return out


def _in_doubt(rules: RuleSet, deal: DealRecord, found: list[Violation]) -> list[Violation]:
    """Each violation that one other reading of one play read in doubt would clear is marked
    with that reading (`Violation.unless`): a misread card must not pass for a revoke, so the
    referee checks that card before calling it. A reading already seen elsewhere is no option,
    nor one with which the deal breaks more rules in all (an AH that would have won a trick
    the camera saw another seat win, and so put the next three plays out of turn)."""
    taken = {c for _s, c in deal.as_read if c is not None}
    cleared: dict[tuple[int, str], tuple[int, Card]] = {}
    for index, others in deal.doubts:
        for card in others:
            if card in taken:
                continue
            trial = judge_deal(rules, deal.with_reading(rules, index, card))
            if len(trial.violations) > len(found):
                continue
            still = {(v.play, v.rule) for v in trial.violations}
            for v in found:
                key = (v.play, v.rule)
                if v.rule != FALSE_ANNOUNCE and key not in still:
                    cleared.setdefault(key, (index, card))
    return [replace(v, unless=cleared.get((v.play, v.rule))) for v in found]


def _score_over_ties(rules: RuleSet, deal: DealRecord, out: JudgedDeal) -> None:
    """A complete deal whose unread cards stay open because several ways of filling them break
    the fewest rules: when every such way gives the same result and score, that is the score."""
    results = [judge_deal(rules, replace(deal, plays=tie, deduced=(), unread=(), rest=(),
                                         ties=())).result for tie in deal.ties]
    first = results[0] if results else None
    if first is None:
        return
    key = (first.result, first.score_json())
    if all(r is not None and (r.result, r.score_json()) == key for r in results):
        out.result, out.scored_over = first, len(results)
        points = first.card_points_json()
        out.points_open = any(r is not None and r.card_points_json() != points for r in results)


def judge_game(record: Record) -> tuple[list[JudgedDeal], Game]:
    """Judge every deal and add the complete ones to a `Game` under the record's rules."""
    first = record.deals[0].dealer if record.deals else Seat.N
    game = Game(record.rules, first)
    judged = []
    for deal in record.deals:
        j = judge_deal(record.rules, deal)
        judged.append(j)
        if game.is_over:
            game.notes.append(f"deal {len(judged)} was played after the end of the game")
        elif j.observed is None:
            game.add(None)
        elif j.result is not None:
            game.add(j.result)
        elif j.problem is not None:
            game.notes.append(f"deal {len(judged)} is not scored: {j.problem}")
    return judged, game


def judge_record(record: Record) -> dict[str, object]:
    """`belote score`'s object: a deal record's object, or a game's deals and summary."""
    if not record.game and len(record.deals) == 1:
        return judge_deal(record.rules, record.deals[0]).to_json()  # no game to sum
    judged, game = judge_game(record)
    return {"deals": [j.to_json() for j in judged], "game": game.to_json()}

