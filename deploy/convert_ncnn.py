"""Convert the shipped ONNX detector to an NCNN model folder, on the Pi, without PyTorch.

    python deploy/convert_ncnn.py models/card_detector.onnx

Writes `models/card_detector_ncnn_model/` with `model.ncnn.param`, `model.ncnn.bin` and
`metadata.yaml` (class names and input size copied from the ONNX file), the layout ultralytics
exports and `vision.backends` recognises. Uses `pnnx` (pip install pnnx ncnn), which reads ONNX
directly. Exits 1 with a one-line reason when it cannot, so install.sh keeps ONNX Runtime.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def onnx_metadata(onnx: Path) -> tuple[dict[str, str], tuple[int, int]]:
    """The ultralytics metadata of an ONNX export and its input size (h, w)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
    meta = dict(session.get_modelmeta().custom_metadata_map)
    shape = session.get_inputs()[0].shape
    h, w = (int(s) if isinstance(s, int) else 640 for s in shape[2:4])
    return meta, (h, w)


def convert(onnx: Path) -> Path:
    """Run pnnx on `onnx` and lay the result out as `<stem>_ncnn_model/`."""
    pnnx = shutil.which("pnnx") or str(Path(sys.executable).with_name("pnnx"))
    meta, (h, w) = onnx_metadata(onnx)
    if meta.get("quantized"):  # QDQ nodes: pnnx would read them as float layers, if at all
        raise ValueError(f"an {meta['quantized']} model; ONNX Runtime runs it as it is")
    out = onnx.with_name(f"{onnx.stem}_ncnn_model")
    with tempfile.TemporaryDirectory() as tmp:
        local = Path(tmp) / "model.onnx"
        shutil.copy(onnx, local)
        done = subprocess.run([pnnx, str(local), f"inputshape=[1,3,{h},{w}]"], cwd=tmp,
                              capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise ValueError(f"pnnx exited with {done.returncode}: {' | '.join(tail)}")
        out.mkdir(exist_ok=True)
        for suffix in ("param", "bin"):
            shutil.move(Path(tmp) / f"model.ncnn.{suffix}", out / f"model.ncnn.{suffix}")
    names = meta.get("names")
    lines = [f"imgsz: [{h}, {w}]"]
    if names:
        parsed = ast.literal_eval(names)  # ultralytics stores "{0: '7S', ...}"
        lines.append("names:")
        lines += [f"  {int(k)}: '{v}'" for k, v in sorted(parsed.items())]
    (out / "metadata.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].endswith(".onnx"):
        print("usage: python deploy/convert_ncnn.py MODEL.onnx", file=sys.stderr)
        return 2
    onnx = Path(argv[0])
    if not onnx.is_file():
        print(f"convert_ncnn: {onnx}: no such model", file=sys.stderr)
        return 2
    try:
        out = convert(onnx)
    except (OSError, subprocess.CalledProcessError, ImportError, ValueError) as exc:
        print(f"convert_ncnn: {onnx}: conversion failed ({exc})", file=sys.stderr)
        return 1
    print(f"NCNN model written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
