"""`belote score`: one JSON line per record, errors naming the file and the field, text sheets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main

DATA = Path(__file__).parent.parent / "data" / "records"
ROOT = Path(__file__).parent.parent.parent


def test_one_json_line_per_record_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    files = [DATA / "deal-ffb-coinche.json", DATA / "deal-midway.json",
             DATA / "game-coinche-1000.json"]
    assert main(["score", *map(str, files)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    first, midway, game = (json.loads(line) for line in lines)
    assert first["result"] in ("made", "failed", "capot", "litige")
    assert sum(first["card_points"].values()) == 162
    assert midway["score"] is None and midway["card_points"] is None
    assert set(game) == {"deals", "game"}


def test_a_bad_record_is_reported_and_the_others_still_judged(
        capsys: pytest.CaptureFixture[str]) -> None:
    files = [DATA / "bad-card.json", DATA / "deal-ffb-capot.json", DATA / "bad-json.json",
             DATA / "missing.json", DATA / "bad-contract.json"]
    assert main(["score", *map(str, files)]) == 2  # bad input
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and json.loads(out)["result"] == "capot"
    errors = err.splitlines()
    assert errors[0] == (f"belote score: {files[0]}: plays[3][1]: unknown card 'XH': unknown "
                         "rank 'X': expected one of 7 8 9 T J Q K A")
    assert errors[1].startswith(f"belote score: {files[2]}: not JSON: line 2")
    assert errors[2].startswith(f"belote score: {files[3]}: cannot read")
    assert errors[3] == (f"belote score: {files[4]}: contract.trump: SA is not a trump mode of "
                         "gameduell-contree")
    assert "Traceback" not in err


def test_text_score_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--format", "text", str(DATA / "deal-revokes.json"),
                 str(DATA / "game-coinche-1000.json")]) == 0
    out = capsys.readouterr().out
    assert "trick 1:" in out and "trick 8:" in out and "card points: NS" in out
    assert "result: " in out and "score: NS" in out
    assert "violations:" in out and "proven by play" in out and "follow-suit" in out
    assert "Deal 1: dealer S, thrown in" in out and "winner: " in out
    # the knobs a record overrides, and the comparisons as they came out
    assert "rules coinche-1000 (target 500) ==" in out and "Game (target 500): NS" in out
    assert "ffb: takers 55 < 100 (bid), 55 ≤ 107 (defence) → failed" in out
    assert "play 1 (trick 1): E 9H - follow-suit" in out


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO((DATA / "deal-midway.json").read_text()))
    assert main(["score", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] is None


def test_console_script_end_to_end() -> None:
    exe = ROOT / ".venv" / "bin" / "belote"
    if not exe.exists():
        pytest.skip("no .venv/bin/belote")
    run = subprocess.run([str(exe), "score", str(DATA / "deal-ffb-capot.json"),
                          str(DATA / "bad-rules.json")], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2
    assert json.loads(run.stdout)["score"] == {"NS": 450, "EW": 0}
    assert "bad-rules.json: rules: unknown knob 'targett'; did you mean 'target'?" in run.stderr
