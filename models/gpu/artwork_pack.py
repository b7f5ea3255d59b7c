"""Card artwork small enough to travel to a lent GPU machine, and back to PNG there.

`cache/artwork` holds ~130 MB of PNGs; a lent machine takes 64 MiB with the whole repository and
reaches no registry, so the artwork goes as lossy WebP (quality 80: ~26 MB; the renderer blurs,
scales and JPEG-compresses every card anyway) and is turned back into the PNG cache there.

    python models/gpu/artwork_pack.py pack     # cache/artwork -> .devcache/artwork (here)
    python models/gpu/artwork_pack.py unpack   # .devcache/artwork -> cache/artwork (there)
"""

from __future__ import annotations

import argparse
import shutil
from multiprocessing import Pool
from pathlib import Path

import cv2

PACKED = Path(".devcache/artwork")
CACHE = Path("cache/artwork")


def _convert(job: tuple[Path, Path, list[int]]) -> None:
    src, dst, params = job
    image = cv2.imread(str(src), cv2.IMREAD_UNCHANGED)  # BGRA: the alpha is the card's outline
    if image is None:
        raise SystemExit(f"{src}: not a readable image")
    dst.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(dst), image, params)


def convert(src_root: Path, dst_root: Path, to: str, params: list[int]) -> int:
    """Every image under `src_root` re-encoded as `to` under `dst_root`; other files copied."""
    jobs = []
    for path in sorted(src_root.rglob("*")):
        if path.is_dir():
            continue
        out = dst_root / path.relative_to(src_root)
        if path.suffix in (".png", ".webp"):
            jobs.append((path, out.with_suffix(to), params))
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, out)
    with Pool() as pool:
        pool.map(_convert, jobs, chunksize=16)
    return len(jobs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("pack", "unpack"))
    parser.add_argument("--quality", type=int, default=80, help="WebP quality when packing")
    args = parser.parse_args()
    if args.mode == "pack":
        n = convert(CACHE, PACKED, ".webp", [cv2.IMWRITE_WEBP_QUALITY, args.quality])
    else:
        n = convert(PACKED, CACHE, ".png", [cv2.IMWRITE_PNG_COMPRESSION, 1])
    print(f"{args.mode}: {n} images")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
