"""Why plays reach the record late: sorts the right plays recorded over 0.5 s after their card
settled, in folders written by `benchmarks/simulated_deals.py` (each `deal_NNN.json`, the true
record, beside `deal_NNN.replay.json`, what the pipeline saw).

    .venv/bin/python benchmarks/late_plays.py /tmp/sims/setA /tmp/sims/setB [--list]
    .venv/bin/python benchmarks/late_plays.py /tmp/sims/s2180 --versus /tmp/sims/h2180

`--versus` compares two reads of the same deals (one seed filmed at two sizes, or read by two
versions of the code): each play late in either, with its latency in both.

A play's latency runs to when the record last changed its card (an unread or misread play: when
it was named right). Causes, in this order: deduced at the deal's end (never read plainly);
recorded right, then renamed wrongly a while; recorded with a wrong card (corrected later);
recorded unread (named later); waiting for the play before it (recorded together, the one before
late too); first seen over 0.3 s after settling (boxed late: under a hand, or read too weakly);
waiting for a name read under `sure_conf` (0.6); any other wait (a name with under 60% of its
votes, or the turn). The first five are the detector's; the last three the tracker's caution.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from simulated_deals import named_at

LATE = 0.5  # s of video from settled to recorded: the bar
SEEN_LATE = 0.3  # first seen this long after settling: boxed late
SURE_CONF = 0.6


def late_plays(folder: Path) -> tuple[int, list[tuple[str, str, int, float]]]:
    """The right plays of `folder`: how many, and (cause, deal, play, latency) for each one
    recorded late."""
    every = play_latencies(folder)
    return len(every), [row for row in every if row[3] > LATE]


def play_latencies(folder: Path) -> list[tuple[str, str, int, float]]:
    """(cause, deal, play, latency) for each right play of `folder`; the cause is "" for one
    recorded within LATE."""
    found = []
    for truth_path in sorted(folder.glob("deal_[0-9][0-9][0-9].json")):
        result_path = truth_path.with_suffix(".replay.json")
        if not result_path.exists():
            continue
        truth = json.loads(truth_path.read_text())
        result = json.loads(result_path.read_text())
        settled = {e["play"]: e["t_settled"] for e in truth["meta"]["simulated"]["timeline"]}
        deduced = {e["data"]["play"] for e in result["events"]
                   if e["type"] == "correction" and e["data"].get("deduced")}
        plays = result["plays"]
        named = named_at(result["events"])
        for i, (true_play, play) in enumerate(zip(truth["plays"], plays, strict=False)):
            if [play["seat"], play["card"]] != list(true_play):
                continue
            latency = named.get(i, float(play["t"])) - settled[i]
            if latency <= LATE:
                found.append(("", truth_path.stem, i, latency))
                continue
            before = plays[i - 1] if i % 4 else None
            chained = before is not None and abs(float(before["t"]) - float(play["t"])) < 0.05 \
                and float(play["t"]) - settled[i - 1] > LATE
            if i in deduced:
                cause = "deduced at the deal's end"
            elif play.get("read_as") == play["card"]:
                cause = "recorded right, renamed wrongly a while"
            elif play.get("read_as") is not None:
                cause = "recorded with a wrong card, corrected later"
            elif play["seen"] is None:
                cause = "recorded unread, named later"
            elif chained:
                cause = "waiting for the play before"
            elif play["seen"] - settled[i] > SEEN_LATE:
                cause = f"first seen over {SEEN_LATE} s after settling"
            elif play["confidence"] < SURE_CONF:
                cause = f"waiting for a name read under {SURE_CONF}"
            else:
                cause = "other wait (name share, turn)"
            found.append((cause, truth_path.stem, i, latency))
    return found


def versus(a: Path, b: Path) -> None:
    """Each play right in both reads and late in either: its latency in each, and why."""
    first = {(deal, play): (cause, latency) for cause, deal, play, latency in play_latencies(a)}
    second = {(deal, play): (cause, latency) for cause, deal, play, latency in play_latencies(b)}
    both = sorted(first.keys() & second.keys())
    late = [key for key in both if max(first[key][1], second[key][1]) > LATE]
    print(f"plays right in both: {len(both)} (only in {a.name}: {len(first.keys() - second.keys())}"
          f", only in {b.name}: {len(second.keys() - first.keys())})")
    for deal, play in late:
        (cause_a, late_a), (cause_b, late_b) = first[deal, play], second[deal, play]
        print(f"{deal} play {play:2d}: {late_a:6.2f} s {cause_a or 'in time':45s} "
              f"{late_b:6.2f} s {cause_b or 'in time'}")
    for name, side in ((a.name, first), (b.name, second)):
        values = sorted(side[key][1] for key in both)
        if values:
            print(f"{name}: over {LATE} s {sum(v > LATE for v in values)}/{len(values)}, median "
                  f"{values[len(values) // 2]:.2f} s, worst {values[-1]:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="simulated_deals.py output folders")
    parser.add_argument("--list", action="store_true", help="print each late play too")
    parser.add_argument("--versus", type=Path, metavar="FOLDER",
                        help="the same deals read another way: compare play by play")
    args = parser.parse_args()
    for folder in [*args.folders, *([args.versus] if args.versus else [])]:
        if not folder.is_dir():
            parser.error(f"{folder}: not a folder")
    if args.versus:
        if len(args.folders) != 1:
            parser.error("--versus compares one folder with another")
        versus(args.folders[0], args.versus)
        return
    rows, right = [], 0
    for folder in args.folders:
        folder_right, late = late_plays(folder)
        right += folder_right
        rows += [(folder.name, *row) for row in late]
    if args.list:
        for folder, cause, deal, play, latency in rows:
            print(f"{folder} {deal} play {play:2d}: {latency:6.2f} s  {cause}")
    print(f"right plays: {right}; recorded over {LATE} s after settling: {len(rows)} "
          f"({len(rows) / max(right, 1):.1%})")
    for cause, n in Counter(row[1] for row in rows).most_common():
        print(f"  {n:5d}  {cause}")


if __name__ == "__main__":
    main()
