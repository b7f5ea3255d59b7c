"""Real card artwork: fetched from registries into `cache/artwork/<design>/<CARD>.png`, loaded.

>>> fetch()                                   # idempotent; a missing package skips its design
>>> deck = load_design("gnome-paris")
>>> deck.cards["JH"].shape                   # BGRA, CARD_HEIGHT pixels tall
(360, 250, 4)

Designs: 'gnome-<theme>' (Debian gnome-cards-data), 'kde-<deck>' (kdegames-card-data-kf5),
'cardsjs', 'svgcards' (Bellot's Paris faces), 'heruka' (English, CC0). Each folder holds the 32
belote cards ('7S'..'AC', T for ten), 'back.png' and distractors ('2S'..'6C', 'JOKER_RED',
'JOKER_BLACK') where the deck has them, plus `meta.json`. `HELD_OUT` designs are never used for
training: one English deck, the genuine French R/D/V deck and the two decks drawn from the same
Bellot faces. Designs ending in '-rdv' are English decks whose J/Q/K corner letters were painted
over and redrawn as V/D/R (see `vision.corners`), so the model learns French indices without
seeing `gnome-ancient_french`.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from vision import artwork_sources as src
from vision.detections import CLASS_NAMES

CACHE = Path("cache/artwork")
TEXTURES = Path("cache/textures")
CARD_HEIGHT = 360
# Held out of training: the French R/D/V deck, the designs sharing its Bellot faces (so the faces
# are unseen too), and one English deck.
HELD_OUT = ("gnome-ancient_french", "gnome-bellot", "svgcards", "heruka")
# Approximate corner-index regions as fractions of the card (x0, y0, x1, y1), top-left and
# bottom-right: most decks print rank and suit there.
CORNER_BOXES = ((0.01, 0.01, 0.17, 0.25), (0.83, 0.75, 0.99, 0.99))

_GNOME = src.Package("deb", "gnome-cards-data")
_KDE = src.Package("deb", "kdegames-card-data-kf5")
# Themes left out: Swiss and German suits, bitmap and 4-colour duplicates of other themes.
GNOME_THEMES = (
    "ancient_french",
    "anglo",
    "anglo_modern",
    "anglo_poker",
    "atlasnye",
    "bellot",
    "berlin",
    "dondorf",
    "gnomangelo",
    "guyenne-classic",
    "lattmann",
    "neoclassical",
    "orell",
    "ornamental",
    "paris",
    "plastic",
    "rheinland",
    "simplistic",
    "slavic_costumes",
    "tango",
    "tango_nuevo",
    "tarocco",
    "tigullio",
)
KDE_DECKS = (
    "standard",
    "nicu-white",
    "nicu-ornamental",
    "tigullio-international",
    "oxygen-air",
    "ancient-egyptians",
    "future",
    "penguins",
    "jolly-royal",
    "gm-paris",
    "dondorf",
)
# English-index decks that also get an '-rdv' twin with redrawn French corner letters.
RDV_TWINS = (
    "gnome-anglo",
    "gnome-anglo_modern",
    "gnome-anglo_poker",
    "gnome-atlasnye",
    "gnome-dondorf",
    "gnome-gnomangelo",
    "gnome-neoclassical",
    "gnome-orell",
    "gnome-paris",
    "gnome-plastic",
    "gnome-simplistic",
    "gnome-tigullio",
    "kde-dondorf",
    "kde-standard",
    "cardsjs",
)


@dataclass(frozen=True, slots=True)
class Source:
    """How to build one design: the package it lives in and a function cutting it into cards."""

    package: src.Package
    cards: Callable[[Path], Iterator[tuple[str, np.ndarray]]]
    license: str


def _sources() -> dict[str, Source]:
    out: dict[str, Source] = {}
    for theme in GNOME_THEMES:
        out[f"gnome-{theme}"] = Source(_GNOME, partial(src.gnome_grid, theme=theme), "GPL/LGPL")
    for deck in KDE_DECKS:
        out[f"kde-{deck}"] = Source(_KDE, partial(src.kde_deck, deck=deck), "GPL/LGPL")
    out["cardsjs"] = Source(
        src.Package("npm", "cardsJS"),
        lambda r: src.svg_files(
            r / "package/cards", "{rank}{suit}.svg", ("Red_Back.svg", "Blue_Back.svg")
        ),
        "LGPL-3.0",
    )
    out["svgcards"] = Source(src.Package("npm", "svg-cards"), src.svg_cards_png, "LGPL")
    out["heruka"] = Source(
        src.Package("npm", "@heruka_urgyen/react-playing-cards"),
        lambda r: src.svg_files(
            r / "package/src/images/2color", "{rank}{suit}.svg", ("../back.svg",)
        ),
        "CC0",
    )
    return out


SOURCES = _sources()


@dataclass(slots=True)
class Design:
    """One deck's artwork: belote cards, back and distractors as BGRA arrays of equal height."""

    name: str
    cards: dict[str, np.ndarray]
    back: np.ndarray | None
    distractors: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def held_out(self) -> bool:
        return base_design(self.name) in HELD_OUT


def base_design(name: str) -> str:
    """The design an '-rdv' twin was made from."""
    return name.removesuffix("-rdv")


def normalise(image: np.ndarray, height: int = CARD_HEIGHT) -> np.ndarray:
    """Scale a card to `height` pixels, keeping its aspect; an opaque card gets rounded corners."""
    h, w = image.shape[:2]
    image = cv2.resize(image, (max(1, round(w * height / h)), height), interpolation=cv2.INTER_AREA)
    alpha = image[:, :, 3]
    if alpha.min() > 250:  # no transparency at all: cut rounded corners like a real card
        mask = np.zeros_like(alpha)
        r = height // 24
        cv2.rectangle(mask, (r, 0), (mask.shape[1] - 1 - r, height - 1), 255, -1)
        cv2.rectangle(mask, (0, r), (mask.shape[1] - 1, height - 1 - r), 255, -1)
        for cx, cy in (
            (r, r),
            (mask.shape[1] - 1 - r, r),
            (r, height - 1 - r),
            (mask.shape[1] - 1 - r, height - 1 - r),
        ):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
        image = image.copy()
        image[:, :, 3] = mask
    return image


def _write_design(folder: Path, cards: dict[str, np.ndarray], meta: dict[str, object]) -> None:
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name, image in cards.items():
        cv2.imwrite(str(tmp / f"{name}.png"), image)
    (tmp / "meta.json").write_text(json.dumps(meta, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def fetch(root: Path = CACHE, designs: list[str] | None = None, force: bool = False) -> list[str]:
    """Build the cache of all (or the named) designs and the textures; return those ready."""
    from tqdm import tqdm

    from vision.corners import redraw_french

    downloads = root.parent / "downloads"
    wanted = designs or list(SOURCES)
    ready: list[str] = []
    for name in tqdm(wanted, desc="artwork", unit="design", file=sys.stderr):
        folder = root / name
        if (folder / "meta.json").exists() and not force:
            ready.append(name)
        elif name not in SOURCES:
            _log(f"warning: unknown design {name!r}, skipped")
            continue
        else:
            source = SOURCES[name]
            try:
                unpacked = src.unpack(source.package, downloads)
                cards = {n: normalise(im) for n, im in source.cards(unpacked) if im.size}
            except src.SourceError as exc:
                _log(f"warning: design {name} skipped: {exc}")
                continue
            missing = [c for c in CLASS_NAMES if c not in cards]
            if len(missing) > 4:
                _log(f"warning: design {name} skipped: {len(missing)} belote cards missing")
                continue
            meta = {
                "design": name,
                "package": f"{source.package.kind}:{source.package.name}",
                "license": source.license,
                "held_out": name in HELD_OUT,
                "missing": missing,
                "corner_boxes": CORNER_BOXES,
            }
            _write_design(folder, cards, meta)
            ready.append(name)
        if name in RDV_TWINS:
            twin = root / f"{name}-rdv"
            if (twin / "meta.json").exists() and not force:
                ready.append(twin.name)
                continue
            base = load_design(name, root)
            rng = random.Random(name)
            cards = {**base.distractors, **base.cards}
            if base.back is not None:
                cards["back"] = base.back
            for card in CLASS_NAMES:
                if card[0] in "JQK" and card in cards:
                    cards[card] = redraw_french(cards[card], card[0], rng)
            meta = json.loads((folder / "meta.json").read_text())
            meta.update(design=twin.name, redrawn="J/Q/K corner letters redrawn as V/D/R")
            _write_design(twin, cards, meta)
            ready.append(twin.name)
    fetch_textures(root.parent / "textures", downloads)
    return ready


def fetch_textures(folder: Path = TEXTURES, downloads: Path | None = None) -> list[Path]:
    """Table textures (felt, wood, cloth) from pokerth-data and gimp-data into `folder`."""
    if folder.exists() and any(folder.glob("*.png")):
        return sorted(folder.glob("*.png"))
    downloads = downloads or folder.parent / "downloads"
    roots: dict[str, Path | None] = {}
    for key, package in (("pokerth", "pokerth-data"), ("gimp", "gimp-data")):
        try:
            roots[key] = src.unpack(src.Package("deb", package), downloads)
        except src.SourceError as exc:
            _log(f"warning: textures from {package} skipped: {exc}")
            roots[key] = None
    folder.mkdir(parents=True, exist_ok=True)
    for name, image in src.textures(roots["pokerth"], roots["gimp"]):
        cv2.imwrite(str(folder / f"{name}.png"), image)
    return sorted(folder.glob("*.png"))


def available_designs(root: Path = CACHE) -> list[str]:
    """Designs present in the cache, sorted."""
    if not root.exists():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "meta.json").exists())


def training_designs(root: Path = CACHE) -> list[str]:
    return [d for d in available_designs(root) if base_design(d) not in HELD_OUT]


def held_out_designs(root: Path = CACHE) -> list[str]:
    return [d for d in available_designs(root) if base_design(d) in HELD_OUT]


def load_design(name: str, root: Path = CACHE) -> Design:
    """Read one design from the cache (raises FileNotFoundError naming the folder if absent)."""
    folder = root / name
    if not (folder / "meta.json").exists():
        raise FileNotFoundError(
            f"design {name!r} not in {root} (run: belote render --fetch-artwork)"
        )
    cards: dict[str, np.ndarray] = {}
    distractors: dict[str, np.ndarray] = {}
    back = None
    for file in sorted(folder.glob("*.png")):
        image = cv2.imread(str(file), cv2.IMREAD_UNCHANGED)
        if image is None:
            continue
        image = src.as_bgra(image)
        if file.stem in CLASS_NAMES:
            cards[file.stem] = image
        elif file.stem == "back":
            back = image
        else:
            distractors[file.stem] = image
    return Design(name, cards, back, distractors)


def load_textures(folder: Path = TEXTURES) -> list[np.ndarray]:
    """Every cached table texture as BGR (empty when none was fetched)."""
    out = []
    for file in sorted(folder.glob("*.png")) if folder.exists() else []:
        image = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if image is not None:
            out.append(image)
    return out
