"""How many complete deals per second the engine judges, against colver playing random deals.

    .venv/bin/python benchmarks/engine_speed.py [--deals 2000] [--revoke-rate 0.05]

Deals are generated first (not timed): random hands, random suit trump, random legal play with a
few injected revokes. Then, each on the same deals where it applies:
- audit: `ObservedDeal` fed the 32 plays without the hands (the camera's view) + `audit`, the
  full-information check of the reconstructed hands;
- belote score: `record.load_record` + `record.judge` on the deal as a JSON object (what
  `belote score` does per record, minus file reading and printing);
- colver: `Env.deal` + a fixed contract + random legal plays to the end (its Rust engine).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import DECK, Card, Seat
from engine.contract import Contract, Trump
from engine.legality import legal_mask
from engine.observe import ObservedDeal, audit
from engine.rules import RuleSet, find_rules
from engine.tricks import tables

Deal = tuple[Contract, Seat, dict[Seat, list[Card]], list[tuple[Seat, Card]]]


def random_deal(rng: random.Random, rules: RuleSet, revoke_rate: float) -> Deal:
    cards = list(DECK)
    rng.shuffle(cards)
    hands = {s: cards[8 * i:8 * i + 8] for i, s in enumerate(Seat)}
    contract = Contract(rng.choice(list(Seat)), 80, rng.choice(list(Trump)[:4]))
    dealer = rng.choice(list(Seat))
    t = tables(contract.trump, rules)
    left = {s: sum(1 << c.index for c in h) for s, h in hands.items()}
    plays: list[tuple[Seat, Card]] = []
    leader = dealer.next(rules.clockwise)
    for _ in range(8):
        trick: list[int] = []
        seats: list[Seat] = []
        seat = leader
        for _ in range(4):
            legal = legal_mask(left[seat], trick, t, rules)
            pool = legal
            if left[seat] & ~legal and rng.random() < revoke_rate:
                pool = left[seat] & ~legal
            card = rng.choice([i for i in range(32) if pool >> i & 1])
            left[seat] &= ~(1 << card)
            trick.append(card)
            seats.append(seat)
            plays.append((seat, DECK[card]))
            seat = seat.next(rules.clockwise)
        leader = seats[t.winning_position(trick)]
    return contract, dealer, hands, plays


def rate(n: int, fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return n / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--revoke-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = find_rules("ffb-coinche")
    rng = random.Random(args.seed)
    deals = [random_deal(rng, rules, args.revoke_rate) for _ in range(args.deals)]
    n = len(deals)
    flagged = 0

    def run_audit() -> None:
        nonlocal flagged
        for contract, dealer, _, plays in deals:
            obs = ObservedDeal(rules, contract, dealer)
            for seat, card in plays:
                obs.play(seat, card)
            flagged += len(obs.violations)
            audit(rules, contract, dealer, plays)

    def run_observe_only() -> None:
        for contract, dealer, _, plays in deals:
            obs = ObservedDeal(rules, contract, dealer)
            for seat, card in plays:
                obs.play(seat, card)

    results: dict[str, float] = {}
    results["observation audit + full-information check"] = rate(n, run_audit)
    results["observation audit alone"] = rate(n, run_observe_only)
    try:
        from engine.record import judge, load_record
    except ImportError as exc:  # the record module belongs to another part; report, don't fail
        print(f"belote score path unavailable: {exc}", file=sys.stderr)
    else:
        texts = [json.dumps({"rules": "ffb-coinche", "dealer": str(d),
                             "contract": c.to_json(),
                             "plays": [[str(s), str(card)] for s, card in p]})
                 for c, d, _, p in deals]

        def run_score() -> None:
            for text in texts:
                json.dumps(judge(load_record(json.loads(text))))

        results["belote score (load_record + judge, JSON in/out)"] = rate(n, run_score)
    try:
        import colver
    except ImportError:
        colver = None
    if colver is not None:
        seeds = [rng.randrange(2**31) for _ in range(n)]

        def run_colver() -> None:
            for i, seed in enumerate(seeds):
                env = colver.Env.deal(dealer=i % 4, seed=seed)
                env.set_contract(i % 4, 80, i % 2, 0)
                env.set_phase_playing()
                while not env.is_terminal():
                    env.step(env.action_random())

        results["colver random deals (Rust)"] = rate(n, run_colver)
    print(f"{n} complete deals (ffb-coinche, suit trumps, revoke rate {args.revoke_rate}; "
          f"{flagged} violations flagged)")
    for name, value in results.items():
        print(f"  {name:<52} {value:10.0f} deals/s")
    base = results.get("colver random deals (Rust)")
    if base:
        for name, value in results.items():
            if not name.startswith("colver"):
                print(f"  ratio {name} / colver: {value / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
