"""Why plays reach the record late: sorts the right plays recorded over 0.5 s after their card
settled, in folders written by `benchmarks/simulated_deals.py` (each `deal_NNN.json`, the true
record, beside `deal_NNN.replay.json`, what the pipeline saw).

    .venv/bin/python benchmarks/late_plays.py /tmp/sims/setA /tmp/sims/setB [--list]

A play's latency runs to when the record last changed its card (an unread or misread play: when
it was named right). Causes, in this order: deduced at the deal's end (never read plainly);
recorded with a wrong card (corrected later); recorded unread (named later); waiting for the play
before it (recorded together, the one before late too); first seen over 0.3 s after settling
(boxed late: under a hand, or read too weakly); waiting for a name read under `sure_conf` (0.6);
any other wait (a name with under 60% of its votes, or the turn). The first four are the
detector's; the last three the tracker's caution.
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
    found, right = [], 0
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
            right += 1
            latency = named.get(i, float(play["t"])) - settled[i]
            if latency <= LATE:
                continue
            before = plays[i - 1] if i % 4 else None
            chained = before is not None and abs(float(before["t"]) - float(play["t"])) < 0.05 \
                and float(play["t"]) - settled[i - 1] > LATE
            if i in deduced:
                cause = "deduced at the deal's end"
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
    return right, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="simulated_deals.py output folders")
    parser.add_argument("--list", action="store_true", help="print each late play too")
    args = parser.parse_args()
    rows, right = [], 0
    for folder in args.folders:
        if not folder.is_dir():
            parser.error(f"{folder}: not a folder")
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
