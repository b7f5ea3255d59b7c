"""A score sheet a person can read: tricks, who won, points, result, score, violations with proof.

>>> from engine.record import load_record
>>> rec = load_record({"rules": "ffb-coinche", "dealer": "E", "plays": [],
...                    "contract": {"taker": "N", "bid": 90, "trump": "H"}})
>>> print(score_sheet(rec).splitlines()[1])
Deal 1: dealer E, contract N 90 H, takers NS
"""

from __future__ import annotations

from engine.cards import Team
from engine.record import Record
from engine.referee import JudgedDeal, judge_game

_RULE_TEXT = {
    "out-of-turn": "played out of turn",
    "card-already-played": "this card was already played",
    "not-in-hand": "the card was not in the player's hand",
    "follow-suit": "did not follow suit",
    "must-trump": "did not trump",
    "must-overtrump": "did not overtrump",
    "must-undertrump": "did not play a lower trump",
    "must-go-up": "did not go higher",
    "false-announce": "announced cards the player did not hold",
}


def _teams(points: dict[str, int] | None) -> str:
    return "-" if points is None else f"NS {points['NS']}, EW {points['EW']}"


def _deal_lines(n: int, j: JudgedDeal) -> list[str]:
    d = j.deal
    if d.contract is None:
        return [f"Deal {n}: dealer {d.dealer}, thrown in (no contract): no score"]
    c = d.contract
    out = [f"Deal {n}: dealer {d.dealer}, contract {c}, takers {c.taker.team}"]
    assert j.observed is not None
    plays = j.observed.plays
    for i, t in enumerate(j.observed.tricks):
        body = " ".join(f"{s}:{card}" for s, card in t.plays)
        out.append(f"  trick {i + 1}: {body}  -> {t.winner} wins {t.points}")
    rest = j.observed.current_trick
    if rest:
        out.append("  (trick in progress: " + " ".join(f"{s}:{card}" for s, card in rest) + ")")
    for a in j.valid:
        out.append(f"  annonce {a}")
    for a in j.false:
        out.append(f"  FALSE annonce {a}")
    for seat in j.belote:
        out.append(f"  belote-rebelote: {seat}")
    for i in j.deal.deduced:
        out.append(f"  play {i} ({plays[i][0]}): not read, deduced {plays[i][1]} from the rest of "
                   "the deal")
    if j.deal.unread:
        ids = ", ".join(str(i) for i in j.deal.unread)
        reach = ("violations judged on every play, whatever those cards were" if j.past_unread
                 else f"judged up to play {j.deal.unread[0]}")
        out.append(f"  plays {ids}: not read, and the deal does not tell which cards: {reach}")
    obj = j.to_json()
    if j.scored_over:
        out.append(f"  scored all the same: each of the {j.scored_over} ways those cards could be "
                   "gives this score")
    if not j.complete and j.result is None:
        out.append(f"  incomplete: {len(plays)} of 32 plays, no score yet")
    else:
        cp = obj["card_points"]
        assert cp is None or isinstance(cp, dict)
        shown_cp = _teams(cp) if cp else "open (they depend on the unread cards)"
        out.append(f"  card points: {shown_cp}")
        if j.result is None:
            out.append(f"  no score: {j.problem}")
        else:
            out.append(f"  result: {j.result.result}")
            if not j.points_open:  # else the arithmetic differs from one way to another
                out += [f"    {line}" for line in j.result.lines]
            out.append(f"  score: NS {j.result.score[Team.NS]}, EW {j.result.score[Team.EW]}")
    if j.violations:
        out.append("  violations:")
    for v in j.violations:
        why = _RULE_TEXT.get(v.rule, v.rule)
        if v.proven_by is None:
            proof = "the hands prove it"
        elif v.proven_by == v.play:
            proof = "seen at this play"
        else:
            by = v.proven_by if v.rule_proven_by is None else v.rule_proven_by
            ps, pc = j.deal.seen[by]  # (may lie past an unread play)
            shown = "a card nobody read" if pc is None else pc
            proof = f"proven by play {by} (trick {by // 4 + 1}): {ps} played {shown}"
            if by != v.proven_by:  # the rule was refined: the play was illegal before
                proof += f"; illegal since play {v.proven_by}"
        out.append(f"    play {v.play} (trick {v.play // 4 + 1}): {v.seat} {v.card} - {v.rule}: "
                   f"{why} ({proof})")
        if v.unless is not None:
            out.append(f"      to check: no fault if play {v.unless[0]} was {v.unless[1]} "
                       "(a reading in doubt)")
    return out


def score_sheet(record: Record, title: str | None = None) -> str:
    """The record judged, as text: each deal, then the game's running score and end."""
    judged, game = judge_game(record)
    knobs = ", ".join(f"{k} {v}" for k, v in record.rules.overrides().items())
    rules = record.rules.name + (f" ({knobs})" if knobs else "")
    lines = [f"== {title + ' - ' if title else ''}rules {rules} =="]
    for n, j in enumerate(judged, 1):
        lines += _deal_lines(n, j)
    if record.game or len(judged) > 1:
        lines.append(f"Game (target {record.rules.target}): NS {game.score[Team.NS]}, "
                     f"EW {game.score[Team.EW]}"
                     + (f", reserve {game.reserve}" if game.reserve else ""))
        lines += [f"  {note}" for note in game.notes]
        lines.append(f"  winner: {game.winner}" if game.is_over else
                     f"  not over; next dealer {game.dealer}")
    return "\n".join(lines)
