"""How many complete deals per second the engine judges, against colver playing random deals.

    .venv/bin/python benchmarks/engine_speed.py [--deals 2000] [--revoke-rate 0.05] [--rounds 3]

Deals are generated first (not timed): random hands, random suit trump, random legal play with a
few injected revokes. Then, each on the same deals where it applies:
- audit: `ObservedDeal` fed the 32 plays without the hands (the camera's view) + `audit`, the
  full-information check of the reconstructed hands;
- belote score: `record.load_record` + `record.judge` on the deal as a JSON object (what
  `belote score` does per record, minus file reading and printing);
- colver: `Env.deal` + a fixed contract + random legal plays to the end (its Rust engine).
Rates are deals per CPU second of this process, best of interleaved rounds (a shared machine).
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

from engine.cards import Card, Seat
from engine.contract import Contract, Trump
from engine.observe import ObservedDeal, audit
from engine.playout import play_out
from engine.record import judge, load_record
from engine.rules import RuleSet, find_rules

Deal = tuple[Contract, Seat, dict[Seat, list[Card]], list[tuple[Seat, Card]]]


def random_deal(rng: random.Random, rules: RuleSet, revoke_rate: float) -> Deal:
    contract = Contract(rng.choice(list(Seat)), 80, rng.choice(list(Trump)[:4]))
    deal = play_out(rng, rules, contract, revoke_rate)
    return contract, deal.dealer, deal.hands, deal.plays


def best_rates(n: int, runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Deals per CPU second of each run, best of `rounds` interleaved rounds.

    CPU time of this process (colver runs in it too) and the best round: the machine is shared,
    and wall-clock rates measured one after the other would compare different loads.
    """
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, fn in runs.items():
            start = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - start)
    return {name: n / seconds for name, seconds in best.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--revoke-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
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

    runs: dict[str, Callable[[], object]] = {
        "observation audit + full-information check": run_audit,
        "observation audit alone": run_observe_only,
    }
    texts = [json.dumps({"rules": "ffb-coinche", "dealer": str(d), "contract": c.to_json(),
                         "plays": [[str(s), str(card)] for s, card in p]})
             for c, d, _, p in deals]

    def run_score() -> None:
        for text in texts:
            json.dumps(judge(load_record(json.loads(text))))

    runs["belote score (load_record + judge, JSON in/out)"] = run_score
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

        runs["colver random deals (Rust)"] = run_colver
    results = best_rates(n, runs, args.rounds)
    print(f"{n} complete deals (ffb-coinche, suit trumps, revoke rate {args.revoke_rate}; "
          f"{flagged // args.rounds} violations flagged); deals per CPU second, best of "
          f"{args.rounds} rounds")
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
