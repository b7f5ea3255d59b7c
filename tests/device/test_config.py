"""The configuration file: defaults, the documented example, and errors that name the key."""

from __future__ import annotations

import pytest
import yaml

from device.config import (
    Config,
    ConfigError,
    GeometryConfig,
    default_config_yaml,
    load_config,
    parse_config,
    save_geometry,
)


def test_no_file_means_the_defaults() -> None:
    config = load_config(None)
    assert config == Config()
    assert config.camera.source == "picamera2" and config.rules.spec() == "ffb-coinche"


def test_the_documented_example_is_valid_and_not_the_defaults(tmp_path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(default_config_yaml())
    config = load_config(path)
    assert config.geometry.corners is not None and len(config.geometry.corners) == 4
    assert config.server.referee_pin == "1234"
    assert set(yaml.safe_load(default_config_yaml())) == set(Config.model_fields)


@pytest.mark.parametrize("text, expected", [
    ("camera:\n  fsp: 10\n", "config.yaml: camera.fsp: unknown key"),
    ("camera:\n  fps: fast\n", "config.yaml: camera.fps: "),
    ("camera:\n  fps: -3\n", "config.yaml: camera.fps: Input should be greater than 0"),
    ("cameras: {}\n", "config.yaml: cameras: unknown key"),
    ("server:\n  port: 70000\n", "config.yaml: server.port: "),
    ("geometry:\n  corners: [[0, 0], [1, 1]]\n", "config.yaml: geometry.corners: "),
    ("detector:\n  conf: 2\n", "config.yaml: detector.conf: "),
    ("rules:\n  preset: ffb-coinch\n", "config.yaml: rules: "),
    ("rules:\n  preset: ffb-coinche\n  overrides: {target: banana}\n", "config.yaml: rules: "),
    ("- just\n- a list\n", "config.yaml: expected a mapping"),
    ("camera: [unclosed\n", "config.yaml: line 2 not valid YAML"),
])
def test_errors_name_the_file_and_key(tmp_path, monkeypatch, text: str, expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config("config.yaml")
    assert str(err.value).startswith(expected), str(err.value)


def test_every_bad_key_is_reported_at_once() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config({"camera": {"fsp": 1}, "storage": {"dbpath": "x"}}, "c.yaml")
    assert str(err.value).splitlines() == [
        "c.yaml: camera.fsp: unknown key (check the spelling)",
        "c.yaml: storage.dbpath: unknown key (check the spelling)",
    ]


def test_missing_file_is_named(tmp_path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.yaml: cannot read it"):
        load_config(tmp_path / "nope.yaml")


def test_rule_overrides_become_the_game_started_spec() -> None:
    config = parse_config({"rules": {"preset": "belote-501", "overrides": {"target": 1001}}})
    assert config.rules.spec() == {"preset": "belote-501", "target": 1001}


def test_save_geometry_keeps_the_other_sections(tmp_path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("server:\n  port: 9000\n")
    geometry = GeometryConfig(image_size=(640, 360), corners=[(0, 360), (640, 360), (640, 0),
                                                             (0, 0)], method="aruco")
    save_geometry(path, geometry)
    config = load_config(path)
    assert config.server.port == 9000
    assert config.geometry == geometry


def test_assignment_is_validated_too() -> None:
    config = Config()
    with pytest.raises(ValueError):
        config.server.port = 0  # type: ignore[assignment]
