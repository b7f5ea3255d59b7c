"""The Raspberry Pi install: unit file, install script, example config, ArUco sheet."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _unit(name: str = "belote.service") -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=True, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser


def test_unit_restarts_on_failure_and_stops_on_sigterm() -> None:
    unit = _unit()
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert 5 <= int(service["TimeoutStopSec"]) <= 90
    assert service["User"] == "belote" and service["User"] != "root"
    assert service["WorkingDirectory"].startswith("/")
    exec_start = service["ExecStart"].split()
    assert exec_start[0] == "/opt/belote/venv/bin/belote" and exec_start[1] == "run"
    assert exec_start[exec_start.index("--config") + 1] == "/etc/belote/config.yaml"
    assert "YOLO_OFFLINE=1" in service["Environment"].split()
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_room_board_unit_serves_the_example_tables_file() -> None:
    from device.cli import build_parser
    from device.room import load_tables

    unit = _unit("belote-room.service")
    service = unit["Service"]
    assert service["Restart"] == "on-failure" and service["User"] == "belote"
    argv = service["ExecStart"].split()
    assert argv[0] == "/opt/belote/venv/bin/belote"
    args = build_parser().parse_args(argv[1:])  # the unit's command line parses as written
    assert args.command == "room" and str(args.tables) == "/etc/belote/tables.yaml"
    tables = load_tables(DEPLOY / "tables.example.yaml")
    assert [t.name for t in tables] == ["Table 1", "Table 2", "Table 3"]
    assert all(t.url.startswith("http://") and t.url.endswith(":8000") for t in tables)


def test_install_script_is_valid_bash() -> None:
    bash = shutil.which("bash")
    assert bash
    subprocess.run([bash, "-n", str(DEPLOY / "install.sh")], check=True)


def test_install_dry_run_shows_the_pi_steps() -> None:
    out = subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--dry-run", "--force"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "python3-picamera2" in out
    assert "venv --system-site-packages" in out
    assert "torch" not in out.replace("WITHOUT PyTorch", "")
    assert "convert_ncnn.py" in out
    assert "/etc/belote/config.yaml" in out
    assert "systemctl enable belote.service" in out


def test_install_refuses_unknown_option() -> None:
    run = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--frobnicate"],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "--frobnicate" in run.stderr


def test_example_config_is_valid_and_strict(tmp_path: Path) -> None:
    config = pytest.importorskip("device.config")
    loaded = config.load_config(DEPLOY / "config.example.yaml")
    assert loaded.camera.source == "picamera2"
    assert str(loaded.storage.db).startswith("/var/lib/belote")
    # A typo in a copy of it is refused, naming the key.
    bad = tmp_path / "config.yaml"
    text = (DEPLOY / "config.example.yaml").read_text(encoding="utf-8")
    bad.write_text(text.replace("  stall_s:", "  stal_s:"), encoding="utf-8")
    with pytest.raises(config.ConfigError, match="stal_s"):
        config.load_config(bad)


def test_aruco_sheet_markers_calibrate_the_corners(tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    geometry = pytest.importorskip("vision.geometry")
    subprocess.run([sys.executable, str(DEPLOY / "aruco_sheet.py"), "--out",
                    str(tmp_path / "markers")], check=True, capture_output=True)
    page = cv2.imread(str(tmp_path / "markers.png"))
    assert page is not None
    g = geometry.calibrate_aruco(page)
    sw, se, ne, nw = g.corners
    # Labelled as laid out: SW bottom-left, SE bottom-right, NE top-right, NW top-left.
    assert sw[0] < se[0] and nw[0] < ne[0] and ne[1] < se[1] and nw[1] < sw[1]


@pytest.mark.slow  # imports torch to make a tiny ONNX model (~10 s)
def test_ncnn_conversion_lays_out_the_model_folder(tmp_path: Path) -> None:
    pytest.importorskip("pnnx")
    pytest.importorskip("onnxruntime")
    torch = pytest.importorskip("torch")
    onnx = pytest.importorskip("onnx")
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, 2, 1), torch.nn.SiLU(),
                              torch.nn.Conv2d(8, 36, 3, 2, 1), torch.nn.Flatten(2)).eval()
    path = tmp_path / "card_detector.onnx"
    torch.onnx.export(net, torch.zeros(1, 3, 64, 64), str(path), opset_version=12, dynamo=False)
    model = onnx.load(str(path))
    entry = model.metadata_props.add()
    entry.key, entry.value = "names", str({0: "7S", 1: "8S"})
    onnx.save(model, str(path))
    subprocess.run([sys.executable, str(DEPLOY / "convert_ncnn.py"), str(path)], check=True,
                   capture_output=True)
    folder = tmp_path / "card_detector_ncnn_model"
    assert (folder / "model.ncnn.param").is_file() and (folder / "model.ncnn.bin").is_file()
    meta = (folder / "metadata.yaml").read_text()
    assert "imgsz: [64, 64]" in meta and "1: '8S'" in meta


def test_ncnn_conversion_names_a_missing_model(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(DEPLOY / "convert_ncnn.py"),
                          str(tmp_path / "nope.onnx")], capture_output=True, text=True)
    assert run.returncode == 2 and "nope.onnx" in run.stderr
