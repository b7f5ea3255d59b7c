"""The engine package: its public names load on first use, and `import engine.cards` stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import engine


@pytest.mark.parametrize("name", engine.__all__)
def test_every_public_name_is_the_module_attribute(name: str) -> None:
    module = importlib.import_module(engine._LAZY[name])
    assert getattr(engine, name) is getattr(module, name)


def test_all_and_lazy_table_agree() -> None:
    assert sorted(engine.__all__) == sorted(engine._LAZY)
    assert set(engine.__all__) <= set(dir(engine))


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Bogus'"):
        engine.Bogus  # noqa: B018


def test_import_engine_cards_loads_no_other_engine_module() -> None:
    code = ("import sys, engine.cards; "
            "print(sorted(m for m in sys.modules if m.startswith('engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['engine', 'engine.cards']"
