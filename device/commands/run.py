"""`belote run`: the live companion: camera, detector, tracker, event log and the web pages."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Any

HELP = "Run the companion live: camera, detector, tracker, game log and web pages."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, metavar="YAML",
                        help="configuration file (`belote run --example-config` prints one)")
    parser.add_argument("--source", help="overrides camera.source: picamera2, 0, usb:0, a URL, "
                        "a video file or a folder of images")
    parser.add_argument("--model", help="overrides detector.model")
    parser.add_argument("--db", type=Path, help="overrides storage.db (the game log)")
    parser.add_argument("--port", type=int, help="overrides server.port")
    parser.add_argument("--no-web", action="store_true", help="do not serve the web pages")
    parser.add_argument("--example-config", action="store_true",
                        help="print an example configuration file and exit")


def _fail(message: str) -> int:
    print(f"run: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from device.config import ConfigError, default_config_yaml, load_config

    if args.example_config:
        sys.stdout.write(default_config_yaml())
        return 0
    try:
        config = load_config(args.config)
        if args.source:
            config.camera.source = args.source
        if args.model:
            config.detector.model = args.model
        if args.db:
            config.storage.db = args.db
        if args.port:
            config.server.port = args.port
    except ConfigError as exc:
        return _fail(str(exc))
    except ValueError as exc:  # an override that does not validate
        return _fail(str(exc).splitlines()[0])

    from device.loop import Companion, stop_on_signals
    from device.sources import SourceError

    companion = Companion(config)
    try:
        source = companion.build_source()
    except SourceError as exc:
        return _fail(str(exc))
    try:
        detector = companion.build_detector()
    except (ValueError, OSError) as exc:  # ModelError is a ValueError naming the file
        source.close()
        return _fail(str(exc))
    stop_on_signals(companion.stop_event)
    server = None if args.no_web else _start_web(companion, config)
    print(f"run: camera {config.camera.source}, log {config.storage.db}", file=sys.stderr)
    try:
        health = companion.run(source, detector)
    finally:
        if server is not None:
            server.should_exit = True
        companion.store.close()
    print(f"run: stopped after {health.frames} frames", file=sys.stderr)
    return 0


def _start_web(companion: Any, config: Any) -> Any:
    """Serve `device.web` in a thread if it is installed; the loop owns the main thread."""
    try:
        from device.web.app import create_app
    except ImportError:
        print("run: device.web is not available; running without pages", file=sys.stderr)
        return None
    import uvicorn

    app = create_app(companion.store, companion.health, config)
    server = uvicorn.Server(uvicorn.Config(
        app, host=config.server.host, port=config.server.port, log_level="warning"))
    threading.Thread(target=server.run, name="web", daemon=True).start()
    print(f"run: pages on http://{config.server.host}:{config.server.port}/", file=sys.stderr)
    return server
