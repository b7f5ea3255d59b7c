"""A game: deals in sequence, the running score, the litige reserve, and the end under the preset.

>>> from engine.rules import find_rules
>>> g = Game(find_rules("ffb-coinche"), dealer=Seat.N)
>>> g.add_thrown_in()
>>> g.dealer, g.score[Team.NS], g.is_over
(Seat.W, 0, False)

End (`game_end`): `target`: the first team at or above the target wins; both → the higher score;
exact tie → one more deal; with `no_end_on_belote`, a team that failed its contract or was capot
and reaches the target only through its belote points has not won yet (it needs another deal).
`after-deal-highest` (004): the game ends after the deal where a team reaches the target; the
higher score wins; a tie goes to the team that won that deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.auction import next_dealer
from engine.cards import Seat, Team
from engine.rules import RuleSet, find_rules
from engine.scoring import DealResult


class GameError(ValueError):
    """A deal added to a game that is already over."""


@dataclass(frozen=True, slots=True)
class GameDeal:
    """One deal of a game: who dealt, its result (None: thrown in), and the score after it."""

    dealer: Seat
    result: DealResult | None
    points: dict[Team, int]  # what each team scored in this deal, reserve included
    score: dict[Team, int]  # running score after the deal
    reserve: int  # points held in reserve after the deal


class Game:
    """Running score over deals. `add(result)` after each deal; `is_over` and `winner` follow."""

    def __init__(self, rules: RuleSet | str, dealer: Seat = Seat.N) -> None:
        self.rules = find_rules(rules)
        self.first_dealer = dealer
        self.dealer = dealer  # who deals the next deal
        self.deals: list[GameDeal] = []
        self.score: dict[Team, int] = {Team.NS: 0, Team.EW: 0}
        self.reserve = 0
        self.winner: Team | None = None
        self.is_over = False
        self.notes: list[str] = []  # why the game did or did not end, deal by deal

    def add(self, result: DealResult | None) -> GameDeal:
        """Add a played deal (None: thrown in or cancelled — no score, the deal passes on)."""
        if self.is_over:
            raise GameError(f"the game is over ({self.winner} won "
                            f"{self.score[Team.NS]}-{self.score[Team.EW]}); no more deals")
        points = {Team.NS: 0, Team.EW: 0}
        if result is not None:
            for t in Team:
                points[t] = result.score[t]
            if result.winner is not None and self.reserve:
                points[result.winner] += self.reserve
                self.notes.append(f"deal {len(self.deals) + 1}: the reserve of {self.reserve} "
                                  f"goes to {result.winner}")
                self.reserve = 0
            self.reserve += result.reserve
        for t in Team:
            self.score[t] += points[t]
        deal = GameDeal(self.dealer, result, points, dict(self.score), self.reserve)
        self.deals.append(deal)
        self.dealer = next_dealer(self.dealer, self.rules)
        if result is not None:
            self._check_end(result, points)
        return deal

    def add_thrown_in(self) -> None:
        """Four passes (or all passed twice at the prise): nobody scores, the next player deals."""
        self.add(None)

    def _check_end(self, result: DealResult, points: dict[Team, int]) -> None:
        r = self.rules
        n = len(self.deals)
        over = [t for t in Team if self.score[t] >= r.target]
        if not over:
            return
        if r.game_end == "after-deal-highest":
            ns, ew = self.score[Team.NS], self.score[Team.EW]
            reached = f"deal {n}: {' and '.join(map(str, over))} reached {r.target}"
            if ns != ew:
                self._end(Team.NS if ns > ew else Team.EW, f"{reached}; the higher score wins")
            elif result.winner is not None:
                self._end(result.winner, f"{reached}; tie, {result.winner} won the deal")
            else:
                self.notes.append(f"{reached}; tie and no deal winner: one more deal")
            return
        if r.no_end_on_belote:
            kept = []
            for t in over:
                # "une équipe capot ou qui chute": failed takers, or no trick at all
                lost = (t is result.takers and not result.made) or result.capot is t.other
                if lost and self.score[t] - result.belote[t] < r.target:
                    self.notes.append(f"deal {n}: {t} reaches {r.target} only through its belote "
                                      "after losing the deal: not won yet")
                else:
                    kept.append(t)
            over = kept
        if len(over) == 1:
            self._end(over[0], f"deal {n}: {over[0]} reached {r.target}")
        elif len(over) == 2:
            ns, ew = self.score[Team.NS], self.score[Team.EW]
            if ns == ew:
                self.notes.append(f"deal {n}: both over {r.target} with {ns}: one more deal")
            else:
                self._end(Team.NS if ns > ew else Team.EW, f"deal {n}: both over, higher wins")

    def _end(self, team: Team, why: str) -> None:
        self.winner = team
        self.is_over = True
        self.notes.append(why)

    def to_json(self) -> dict[str, object]:
        """The game summary: running score per deal, the reserve, the end."""
        return {
            "score": {str(t): self.score[t] for t in Team},
            "running": [{str(t): d.score[t] for t in Team} for d in self.deals],
            "reserve": self.reserve,
            "is_over": self.is_over,
            "winner": None if self.winner is None else str(self.winner),
            "next_dealer": str(self.dealer),
            "notes": list(self.notes),
        }
