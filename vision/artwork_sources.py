"""Where real card artwork comes from: npm and Debian packages, cut into one PNG per card.

Each source yields `(name, image)` pairs for one design, where name is a belote card ('TS'), a
distractor ('2H', 'JOKER_RED'), or 'back', and image is a BGRA array of one whole card. Packages are
downloaded once into `<cache>/downloads` with the registries' own clients (`npm pack`,
`apt-get download`) and unpacked with `tar` / `dpkg-deb -x`; SVG is rendered by `rsvg-convert`
(Debian `librsvg2-bin`).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# Suit letters as each package spells them.
_SUITS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_RANKS = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "1"}
DISTRACTOR_RANKS = ("2", "3", "4", "5", "6")

# Pixel height every card is rendered at before normalisation (cards are stored at CARD_HEIGHT).
RENDER_HEIGHT = 420


class SourceError(RuntimeError):
    """A package or tool needed for a design is missing; the design is skipped."""


@dataclass(frozen=True, slots=True)
class Package:
    """A registry package: 'npm' or 'deb', and its name."""

    kind: str
    name: str


def _run(cmd: list[str], cwd: Path | None = None, timeout: float = 300) -> None:
    try:
        subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, timeout=timeout)
    except FileNotFoundError:
        raise SourceError(f"{cmd[0]!r} is not installed") from None
    except subprocess.CalledProcessError as exc:
        tail = exc.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise SourceError(f"{' '.join(cmd)} failed: {' '.join(tail)}") from None
    except subprocess.TimeoutExpired:
        raise SourceError(f"{' '.join(cmd)} timed out") from None


def unpack(package: Package, downloads: Path) -> Path:
    """Download (once) and unpack (once) a package; return the folder it was unpacked into."""
    safe = package.name.replace("@", "").replace("/", "_")
    target = downloads / f"{package.kind}-{safe}"
    if (target / ".unpacked").exists():
        return target
    downloads.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=downloads) as tmp:
        tmpdir = Path(tmp)
        if package.kind == "npm":
            _run(["npm", "pack", "--silent", package.name], cwd=tmpdir)
            archives = list(tmpdir.glob("*.tgz"))
            if not archives:
                raise SourceError(f"npm pack {package.name} produced no archive")
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            _run(["tar", "xzf", str(archives[0]), "-C", str(target)])
        else:
            _run(["apt-get", "download", package.name], cwd=tmpdir)
            debs = list(tmpdir.glob("*.deb"))
            if not debs:
                raise SourceError(f"apt-get download {package.name} produced no .deb")
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            _run(["dpkg-deb", "-x", str(debs[0]), str(target)])
    (target / ".unpacked").touch()
    return target


def render_svg(
    path: Path, width: int | None = None, height: int | None = None, element: str | None = None
) -> np.ndarray:
    """Render an SVG (or one element of it) to a BGRA array with rsvg-convert."""
    if shutil.which("rsvg-convert") is None:
        raise SourceError("rsvg-convert is not installed (apt-get install librsvg2-bin)")
    cmd = ["rsvg-convert", "--format", "png"]
    if width:
        cmd += ["-w", str(width)]
    if height:
        cmd += ["-h", str(height)]
    if element:
        cmd += ["-i", element]
    try:
        out = subprocess.run([*cmd, str(path)], check=True, capture_output=True, timeout=300)
    except subprocess.CalledProcessError as exc:
        raise SourceError(
            f"rsvg-convert {path.name} {element or ''}: "
            f"{exc.stderr.decode(errors='replace').strip()[:200]}"
        ) from None
    image = cv2.imdecode(np.frombuffer(out.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise SourceError(f"rsvg-convert {path.name}: not a PNG")
    return as_bgra(image)


def as_bgra(image: np.ndarray) -> np.ndarray:
    """Any OpenCV image as BGRA (opaque when it had no alpha)."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    if image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return image


def crop_to_alpha(image: np.ndarray, threshold: int = 8) -> np.ndarray:
    """Trim transparent margins so the image is exactly the card."""
    ys, xs = np.nonzero(image[:, :, 3] > threshold)
    if len(xs) == 0:
        return image
    return image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


# --- one function per kind of source -------------------------------------------------------------


def _all_names() -> list[tuple[str, str, str]]:
    """(our name, rank letter, suit letter) for the 32 belote cards and the 2-6 distractors."""
    ranks = [*_RANKS, *DISTRACTOR_RANKS]
    return [(f"{r}{s}", r, s) for s in _SUITS for r in ranks]


def gnome_grid(root: Path, theme: str, card_width: int = 300) -> Iterator[tuple[str, np.ndarray]]:
    """Cut an aisleriot theme (13x5 grid: A 2-10 J Q K by clubs diamonds hearts spades)."""
    svg = root / "usr/share/aisleriot/cards" / f"{theme}.svgz"
    if not svg.exists():
        raise SourceError(f"theme {theme!r} not in gnome-cards-data")
    sheet = render_svg(svg, width=card_width * 13)
    cell_w, cell_h = sheet.shape[1] / 13, sheet.shape[0] / 5
    columns = {"A": 0, "J": 10, "Q": 11, "K": 12, "T": 9}
    rows = {"C": 0, "D": 1, "H": 2, "S": 3}

    def cell(col: int, row: int) -> np.ndarray:
        x0, y0 = round(col * cell_w), round(row * cell_h)
        return crop_to_alpha(sheet[y0 : round(y0 + cell_h), x0 : round(x0 + cell_w)])

    for name, rank, suit in _all_names():
        col = columns.get(rank, int(rank) - 1 if rank.isdigit() else 0)
        yield name, cell(col, rows[suit])
    yield "JOKER_BLACK", cell(0, 4)
    yield "JOKER_RED", cell(1, 4)
    yield "back", cell(2, 4)


def kde_deck(root: Path, deck: str) -> Iterator[tuple[str, np.ndarray]]:
    """Render each card of a kdegames deck (one SVG, element ids like 'king_heart') on its own."""
    folder = root / "usr/share/carddecks" / f"svg-{deck}"
    svgs = sorted(folder.glob("*.svg*"))
    if not svgs:
        raise SourceError(f"deck {deck!r} not in kdegames-card-data-kf5")
    ids = [(name, f"{_RANKS.get(r, r)}_{_SUITS[s]}") for name, r, s in _all_names()]
    ids += [("back", "back"), ("JOKER_RED", "red_joker"), ("JOKER_BLACK", "black_joker")]
    for name, element in ids:
        try:
            image = crop_to_alpha(render_svg(svgs[0], height=RENDER_HEIGHT, element=element))
        except SourceError:
            continue
        # An id whose extent is not card-shaped names a part of a card, not the card: skip it.
        aspect = image.shape[0] / max(1, image.shape[1])
        if 1.25 <= aspect <= 1.65:
            yield name, image


def svg_files(
    folder: Path, pattern: str, backs: tuple[str, ...]
) -> Iterator[tuple[str, np.ndarray]]:
    """A folder of one SVG per card; pattern formats (rank, suit) such as '{rank}{suit}.svg'."""
    for name, rank, suit in _all_names():
        candidates = [pattern.format(rank=rank, suit=suit)]
        if rank == "T":
            candidates.append(pattern.format(rank="10", suit=suit))
        for file in candidates:
            if (folder / file).exists():
                yield name, crop_to_alpha(render_svg(folder / file, height=RENDER_HEIGHT))
                break
    for back in backs:
        if (folder / back).exists():
            yield "back", crop_to_alpha(render_svg(folder / back, height=RENDER_HEIGHT))
            break


def svg_cards_png(root: Path) -> Iterator[tuple[str, np.ndarray]]:
    """npm svg-cards ships ready PNGs ('heart_king.png', 'back-navy.png'): Bellot's Paris faces."""
    folder = root / "package/png/2x"
    if not folder.exists():
        raise SourceError("svg-cards has no png/2x folder")
    for name, rank, suit in _all_names():
        file = folder / f"{_SUITS[suit]}_{_RANKS.get(rank, rank)}.png"
        image = cv2.imread(str(file), cv2.IMREAD_UNCHANGED)
        if image is not None:
            yield name, crop_to_alpha(as_bgra(image))
    for name, extra in (
        ("back", "back-navy.png"),
        ("JOKER_RED", "joker_red.png"),
        ("JOKER_BLACK", "joker_black.png"),
    ):
        image = cv2.imread(str(folder / extra), cv2.IMREAD_UNCHANGED)
        if image is not None:
            yield name, crop_to_alpha(as_bgra(image))


# --- table textures -------------------------------------------------------------------------------


def read_gimp_pattern(path: Path) -> np.ndarray | None:
    """Read a GIMP .pat file (big-endian header, then raw pixels) as BGR."""
    data = path.read_bytes()
    if len(data) < 24 or data[20:24] != b"GPAT":
        return None
    header, _version, width, height, depth = (
        int.from_bytes(data[i : i + 4], "big") for i in range(0, 20, 4)
    )
    pixels = np.frombuffer(data[header : header + width * height * depth], np.uint8)
    if pixels.size != width * height * depth or depth not in (1, 3, 4):
        return None
    image = pixels.reshape(height, width, depth)
    if depth == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(image[:, :, :3], cv2.COLOR_RGB2BGR)


GIMP_TEXTURES = (
    "Wood/wood1",
    "Wood/wood2",
    "Wood/wood3",
    "Wood/wood4",
    "Wood/wood5",
    "Wood/walnut",
    "Wood/pine",
    "Wood/burlwood",
    "Wood/parque1",
    "Wood/corkboard",
    "Fabric/burlap",
    "Animal/leather",
    "Paper/paper",
    "Paper/crinklepaper",
    "Stone/marble1",
    "Stone/granite1",
    "Legacy/fibers",
)


def textures(pokerth: Path | None, gimp: Path | None) -> Iterator[tuple[str, np.ndarray]]:
    """Table surfaces: pokerth's felt tables (centre crop) and GIMP's wood/cloth patterns."""
    if pokerth is not None:
        # Only the 'default' tables: 'danuxi1' shows chairs below the rail.
        tables = pokerth / "usr/share/games/pokerth/gfx/gui/table"
        for file in sorted(tables.glob("default*/table*.png")):
            image = cv2.imread(str(file), cv2.IMREAD_COLOR)
            if image is None:
                continue
            h, w = image.shape[:2]  # the middle of the table: felt without the rail
            yield (
                f"felt-{file.parent.name}-{file.stem}",
                image[h // 4 : h * 3 // 4, w // 4 : w * 3 // 4],
            )
    if gimp is not None:
        for name in GIMP_TEXTURES:
            image = read_gimp_pattern(gimp / "usr/share/gimp/2.0/patterns" / f"{name}.pat")
            if image is not None:
                yield name.replace("/", "-").lower(), image
