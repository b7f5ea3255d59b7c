"""The score of a deal under every scoring knob, with every number that went into it.

>>> from engine.cards import Seat
>>> from engine.contract import Contract, Trump
>>> from engine.rules import find_rules
>>> r = score_points(find_rules("ffb-coinche"), Contract(Seat.N, 90, Trump.HEARTS),
...                  {Team.NS: 92, Team.EW: 70}, [Seat.N, Seat.E] * 4)
>>> r.result, r.score[Team.NS], r.score[Team.EW]
('made', 180, 70)

Knobs (docs/rules.md §2 "Scoring" and "Coinche et surcoinche"): rounding, contract_rule,
scoring_mode, coinched_scoring, belote_multiplied, failed_base, belote_on_failure, capot,
capot_takes_annonces, generale_last_trick, litige, false_announce, annonces,
coinched_made_base.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.annonces import BELOTE_POINTS, Declared, resolve
from engine.cards import Seat, Team
from engine.contract import Contract
from engine.rules import RuleSet

CAPOT_FLAT = 250  # a capot "forfait" (flat250), and the coinched base after a capot (FFB, 004)
CAPOT_LAST_TRICK_EXTRA = 90  # ffb / plus90: the last trick is worth 100 instead of 10
MIN_CARDS = 82  # card82-and-bid and belote82: more than half of 162
DECK_POINTS = 162
TEAMS = (Team.NS, Team.EW)  # iterating the Enum class itself is slow on this hot path


class ScoringError(ValueError):
    """A deal that cannot be scored (not 8 tricks, points not 162, a bid the rules lack)."""


class TrickLike(Protocol):
    @property
    def winner(self) -> Seat: ...

    @property
    def points(self) -> int: ...


def _teams(ns: int = 0, ew: int = 0) -> dict[Team, int]:
    return {Team.NS: ns, Team.EW: ew}


def round_points(points: int, rules: RuleSet) -> int:
    """Round card points for the score sheet: nearest10 (85 → 90, 84 → 80) or none."""
    if rules.rounding == "nearest10":
        return (points + 5) // 10 * 10
    return points


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a complete deal: the result, the score, and every number behind it."""

    result: str  # "made" | "failed" | "capot" | "generale" | "litige"
    made: bool
    contract: Contract
    takers: Team
    card_points: Mapping[Team, int]  # raw, with the dix de der: 162 in all
    tricks_won: Mapping[Team, int]
    capot: Team | None  # the team that took all eight tricks
    generale: Seat | None  # the player who took all eight tricks
    counted_cards: Mapping[Team, int]  # after capot / générale, before rounding
    annonces: Mapping[Team, int]  # annonces that count (after resolution and a capot)
    belote: Mapping[Team, int]  # belote-rebelote of each team (20 each)
    penalties: Mapping[Team, int]  # points a team gets for the other's false annonces
    totals: Mapping[Team, int]  # what the contract test compares (unrounded)
    multiplier: int
    score: Mapping[Team, int]
    reserve: int = 0  # litige reserve: points held for the winner of the next deal
    winner: Team | None = None  # the team that won the deal (None: litige held in reserve)
    lines: tuple[str, ...] = field(default=())  # the arithmetic, for a referee

    def score_json(self) -> dict[str, int]:
        return {str(t): self.score[t] for t in TEAMS}

    def card_points_json(self) -> dict[str, int]:
        return {str(t): self.card_points[t] for t in TEAMS}

    def to_json(self) -> dict[str, object]:
        """Every number, as plain JSON."""
        def teams(m: Mapping[Team, int]) -> dict[str, int]:
            return {str(t): m[t] for t in TEAMS}
        return {
            "result": self.result, "made": self.made, "contract": self.contract.to_json(),
            "card_points": teams(self.card_points), "tricks_won": teams(self.tricks_won),
            "capot": None if self.capot is None else str(self.capot),
            "generale": None if self.generale is None else str(self.generale),
            "counted_cards": teams(self.counted_cards), "annonces": teams(self.annonces),
            "belote": teams(self.belote), "penalties": teams(self.penalties),
            "totals": teams(self.totals), "multiplier": self.multiplier,
            "score": teams(self.score), "reserve": self.reserve,
            "winner": None if self.winner is None else str(self.winner),
            "lines": list(self.lines),
        }


def bid_value(contract: Contract, rules: RuleSet) -> int:
    """The bid in points: the number, or the rule set's value of a capot / générale bid."""
    if contract.bid == "capot":
        if rules.capot_bid is None:
            raise ScoringError(f"{rules.name} has no capot bid")
        return rules.capot_bid
    if contract.bid == "generale":
        if rules.generale_bid is None:
            raise ScoringError(f"{rules.name} has no générale bid")
        return rules.generale_bid
    return contract.bid


def score_deal(rules: RuleSet, contract: Contract, tricks: Sequence[TrickLike], *,
               declared: Sequence[Declared] = (), false_declared: Sequence[Declared] = (),
               belote: Sequence[Seat] = ()) -> DealResult:
    """Score eight judged tricks (their `winner` and `points`, the last with its dix de der)."""
    if len(tricks) != 8:
        raise ScoringError(f"a deal has 8 tricks, got {len(tricks)}")
    ns = sum(t.points for t in tricks if t.winner.team is Team.NS)
    ew = sum(t.points for t in tricks if t.winner.team is Team.EW)
    return score_points(rules, contract, _teams(ns, ew), [t.winner for t in tricks],
                        declared=declared,
                        false_declared=false_declared, belote=belote)


def score_points(rules: RuleSet, contract: Contract, card_points: Mapping[Team, int],
                 winners: Sequence[Seat], *, declared: Sequence[Declared] = (),
                 false_declared: Sequence[Declared] = (),
                 belote: Sequence[Seat] = ()) -> DealResult:
    """Score a deal from each team's raw card points (162 in all) and the eight trick winners.

    `declared`: valid annonces as declared (resolved here); `false_declared`: annonces a player
    could not show (renonce); `belote`: one seat per belote-rebelote made (several at TA).
    """
    if len(winners) != 8:
        raise ScoringError(f"a deal has 8 trick winners, got {len(winners)}")
    if card_points[Team.NS] + card_points[Team.EW] != DECK_POINTS:
        raise ScoringError(f"card points must total {DECK_POINTS}, got "
                           f"{card_points[Team.NS]} + {card_points[Team.EW]}")
    T = contract.taker.team
    D = T.other
    lines: list[str] = [f"contract {contract} (takers {T}) under {rules.name}"]
    bid = bid_value(contract, rules)
    mult = {1: 1, 2: rules.coinche_multiplier, 4: rules.surcoinche_multiplier}[contract.coinche]
    raw = dict(card_points)
    ns_tricks = sum(1 for w in winners if w.team is Team.NS)
    tricks_won = _teams(ns_tricks, 8 - ns_tricks)
    lines.append(f"card points NS {raw[Team.NS]}, EW {raw[Team.EW]} (tricks NS "
                 f"{tricks_won[Team.NS]}, EW {tricks_won[Team.EW]})")

    # All eight tricks: capot (one team), générale (one player).
    capot = T if tricks_won[T] == 8 else D if tricks_won[D] == 8 else None
    generale = winners[0] if all(w is winners[0] for w in winners) else None
    cards = dict(raw)
    if capot is not None:
        if generale is not None and rules.generale_last_trick is not None:
            cards[capot] = raw[capot] - 10 + rules.generale_last_trick
            lines.append(f"générale by {generale}: last trick worth {rules.generale_last_trick} "
                         f"→ {cards[capot]}")
        elif rules.capot == "flat250":
            cards[capot] = CAPOT_FLAT
            lines.append(f"capot by {capot}: {CAPOT_FLAT} replaces the card count (flat250)")
        else:
            cards[capot] = raw[capot] + CAPOT_LAST_TRICK_EXTRA
            lines.append(f"capot by {capot}: last trick worth 100 → {cards[capot]} ({rules.capot})")
    rounded = {t: round_points(cards[t], rules) for t in TEAMS}
    if rules.rounding != "none":
        lines.append(f"rounded ({rules.rounding}): NS {cards[Team.NS]} → {rounded[Team.NS]}, "
                     f"EW {cards[Team.EW]} → {rounded[Team.EW]}")

    # Annonces, renonces and belote.
    ann = _teams()
    pen = _teams()
    if rules.annonces:
        res = resolve(declared, contract.trump)
        ann = dict(res.points)
        if declared:
            lines.append(f"annonces: {res.reason} → NS {ann[Team.NS]}, EW {ann[Team.EW]}")
        if capot is T and rules.capot_takes_annonces and ann[D]:
            lines.append(f"capot: the defenders' annonces ({ann[D]}) change hands")
            ann[T] += ann[D]
            ann[D] = 0
        if rules.false_announce == "to-opponents":
            for d in false_declared:
                pen[d.seat.team.other] += d.annonce.points
                lines.append(f"false annonce {d}: {d.annonce.points} to {d.seat.team.other}")
    elif declared or false_declared:
        lines.append(f"annonces are not played under {rules.name}: ignored")
    bel = _teams()
    for seat in belote:
        bel[seat.team] += BELOTE_POINTS
    if belote:
        lines.append(f"belote: NS {bel[Team.NS]}, EW {bel[Team.EW]}")

    # The contract test compares unrounded totals ("rounding never helps make a contract").
    totals = {t: cards[t] + ann[t] + bel[t] for t in TEAMS}
    made, tie, why = _contract_made(rules, contract, bid, raw[T], totals, T, capot, generale)
    lines.append(why)
    litige_reserve = tie and rules.litige == "reserve"
    if tie:
        result = "litige"
    elif not made:
        result = "failed"
    elif capot is T and generale is not None and (rules.generale_bid is not None
                                                  or rules.generale_last_trick is not None):
        result = "generale"
    elif capot is T:
        result = "capot"
    else:
        result = "made"
    winner: Team | None = None if litige_reserve else T if made else D

    score = _teams()
    reserve = 0
    if not made and rules.belote_on_failure == "to_defence" and bel[T]:
        lines.append(f"failed: the takers' belote ({bel[T]}) goes to the defence (to_defence)")
        bel[D] += bel[T]
        bel[T] = 0
    if litige_reserve:
        reserve = rounded[T] + ann[T]
        score[D] = rounded[D] + ann[D] + bel[D]
        score[T] = bel[T]
        lines.append(f"litige {totals[T]}-{totals[D]}: defence scores its {score[D]}, the takers' "
                     f"{reserve} go to the reserve for the winner of the next deal")
    elif mult == 1:
        _plain(rules, contract, made, bid, capot, rounded, ann, bel, score, lines, T)
    else:
        assert winner is not None
        _coinched(rules, contract, winner, bid, mult, capot, rounded, ann, bel, score, lines)
    for t in TEAMS:
        if pen[t]:
            score[t] += pen[t]
    lines.append(f"score NS {score[Team.NS]}, EW {score[Team.EW]}")
    return DealResult(result, made, contract, T, raw, tricks_won, capot, generale, cards, ann,
                      _teams(*(BELOTE_POINTS * sum(1 for s in belote if s.team is t)
                               for t in TEAMS)),
                      pen, totals, mult, score, reserve, winner, tuple(lines))


def _contract_made(rules: RuleSet, contract: Contract, bid: int, raw_takers: int,
                   totals: Mapping[Team, int], T: Team, capot: Team | None,
                   generale: Seat | None) -> tuple[bool, bool, str]:
    """(made, litige, why) under `contract_rule`; capot and générale bids need the tricks."""
    D = T.other
    if contract.bid == "capot":
        return capot is T, False, f"capot bid: {T} {'took' if capot is T else 'lost'} all tricks"
    if contract.bid == "generale":
        ok = generale is contract.taker
        return ok, False, f"générale bid: {contract.taker} {'took' if ok else 'did not take'} " \
                          "all eight tricks"
    t, d = totals[T], totals[D]
    rule = rules.contract_rule
    if rule == "ffb":
        reached = t >= bid
        made, tie = reached and t > d, reached and t == d
        why = f"ffb: takers {_vs(t, bid)} (bid), {_vs(t, d, strict=True)} (defence)"
    elif rule == "card82-and-bid":
        made, tie = raw_takers >= MIN_CARDS and t >= bid, False
        why = f"card82-and-bid: cards {_vs(raw_takers, MIN_CARDS)}, total {_vs(t, bid)} (bid)"
    elif rule == "bid-only":
        made, tie = t >= bid, False
        why = f"bid-only: takers {_vs(t, bid)} (bid)"
    else:  # belote82: a tie (81-81, or 91-91 with a belote) is the litige
        made, tie = t >= MIN_CARDS and t > d, t == d
        why = f"belote82: takers {_vs(t, MIN_CARDS)}, {_vs(t, d, strict=True)} (defence)"
    if tie:
        why += f"; litige ({rules.litige})"
    return made, tie, why + (" → made" if made else " → failed")


def _vs(a: int, b: int, strict: bool = False) -> str:
    """The comparison as it came out: 'a ≥ b' or 'a < b' ('a > b' or 'a ≤ b' when strict)."""
    if strict:
        return f"{a} {'>' if a > b else '≤'} {b}"
    return f"{a} {'≥' if a >= b else '<'} {b}"


def _failed_base(rules: RuleSet, contract: Contract, capot: Team | None,
                 rounded: Mapping[Team, int]) -> int:
    """What a winning defence scores for its cards: failed_base, a capot's value if more."""
    base = rules.failed_base
    if capot is contract.taker.team.other:
        base = max(base, rounded[capot])
    if contract.bid == "capot" and rules.capot == "flat250":
        base = max(base, CAPOT_FLAT)  # 004: "une enchère de capot vaut 500, réussie ou chutée"
    return base


def _plain(rules: RuleSet, contract: Contract, made: bool, bid: int, capot: Team | None,
           rounded: Mapping[Team, int], ann: Mapping[Team, int], bel: Mapping[Team, int],
           score: dict[Team, int], lines: list[str], T: Team) -> None:
    """A deal that was not coinched, by scoring_mode."""
    D = T.other
    mode = rules.scoring_mode
    # A capot or générale bid counts as a bid in every mode (FunBelote: "capot demandé vaut 500").
    bid_part = bid if mode != "made" or contract.bid in ("capot", "generale") else 0
    if made:
        if mode == "bid":
            score[T] = bid + bel[T]
            score[D] = bel[D]
            lines.append(f"made ({mode}): takers bid {bid} + belote {bel[T]}; defence its belote")
            return
        score[T] = rounded[T] + ann[T] + bel[T] + bid_part
        score[D] = rounded[D] + ann[D] + bel[D]
        lines.append(f"made ({mode}): takers {rounded[T]} + annonces {ann[T]} + belote {bel[T]} + "
                     f"bid {bid_part} = {score[T]}; defence {rounded[D]} + {ann[D]} + {bel[D]} = "
                     f"{score[D]}")
        return
    base = _failed_base(rules, contract, capot, rounded)
    all_ann = ann[T] + ann[D] if mode != "bid" else 0
    bid_part = bid_part if mode != "bid" else 0
    score[D] = base + all_ann + bel[D] + bid_part
    score[T] = bel[T]
    lines.append(f"failed ({mode}): defence {base} + all annonces {all_ann} + belote {bel[D]} + "
                 f"bid {bid_part} = {score[D]}; takers their belote {bel[T]}")


def _coinched(rules: RuleSet, contract: Contract, W: Team, bid: int, mult: int,
              capot: Team | None, rounded: Mapping[Team, int], ann: Mapping[Team, int],
              bel: Mapping[Team, int], score: dict[Team, int], lines: list[str]) -> None:
    """A coinched or surcoinched deal: the winner of the deal scores, x the multiplier."""
    L = W.other
    mode = rules.scoring_mode
    made = W is contract.taker.team
    all_ann = ann[W] + ann[L]
    if rules.coinched_scoring == "multiply-all":
        base = CAPOT_FLAT if capot is W else rules.failed_base
        if contract.bid == "capot" and rules.capot == "flat250":
            base = CAPOT_FLAT
        parts = {"made+bid": base + bid + all_ann, "made": base + all_ann, "bid": bid}[mode]
        inner = parts + (bel[W] if rules.belote_multiplied else 0)
        score[W] = inner * mult + (0 if rules.belote_multiplied else bel[W])
        terms = {"made+bid": f"{base} + bid {bid} + annonces {all_ann}",
                 "made": f"{base} + annonces {all_ann}", "bid": f"bid {bid}"}[mode]
        sums = (f"({terms} + belote {bel[W]}) x {mult}" if rules.belote_multiplied
                else f"({terms}) x {mult} + belote {bel[W]}")
        lines.append(f"coinched x{mult} ({mode}, multiply-all): {W} {sums} = {score[W]}")
    else:
        if made and rules.coinched_made_base == "points":
            base = rounded[W] + all_ann
        elif made:
            base = CAPOT_FLAT if capot is W else rules.failed_base
        else:
            base = _failed_base(rules, contract, capot, rounded) + all_ann
        if mode == "made+bid":
            score[W] = base + bid * mult + bel[W]
            sums = f"{base} + bid {bid} x {mult}"
        elif mode == "made":
            score[W] = base * mult + bel[W]
            sums = f"{base} x {mult}"
        else:
            score[W] = bid * mult + bel[W]
            sums = f"bid {bid} x {mult}"
        lines.append(f"coinched x{mult} ({mode}, multiply-bid): {W} {sums} + belote {bel[W]} = "
                     f"{score[W]}")
    score[L] = bel[L]
    lines.append(f"{L} keeps only its belote {bel[L]}")
