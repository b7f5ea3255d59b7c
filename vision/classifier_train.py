"""Train and export the card classifier (second stage): a small CNN on `vision.crops` crops.

Plain PyTorch, on the CPU or a GPU (`device`): strong augmentation on the fly (rotations by
quarter turns, small shifts and zooms, lighting, white balance, blur, low resolution, noise,
occluding patches), AdamW with a cosine schedule, one checkpoint per epoch (`last.pt`, resumed
when present), the weights of the epoch with the best held-out accuracy (`best.pt`) and a log
line per epoch in `<out>/train.log`. Used through `python -m vision.classifier train|export`.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

from vision.crops import CROP, LABELS, NONE, PAD

MEAN = PAD / 255.0  # the grey padding maps to 0, as do shifts' empty borders


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class CardNet(nn.Module):
    """3x3 conv + BN + ReLU stages, global pooling, a linear head.

    `crop` 64 (the first models): seven layers, four stride-2 stages (16-32-64-128 channels),
    ~0.3 M params, ~11 M multiply-adds. `crop` 128: a stride-2 stem, then five stages up to 256
    channels (4x4 at the end), ~1.2 M params, ~58 M multiply-adds: the suit and rank signs of a card
    seen large stay sharp (at 64 px a corner's spade and club are a few pixels each).
    """

    def __init__(self, classes: int = len(LABELS), crop: int = CROP):
        super().__init__()
        layers = [_conv(3, 16, 2), _conv(16, 32, 2), _conv(32, 32)]
        widths = (32, 64, 128) if crop <= 64 else (32, 64, 128, 256)
        for cin, cout in itertools.pairwise(widths):
            layers += [_conv(cin, cout, 2), _conv(cout, cout)]
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(widths[-1], classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits for a float batch (N, 3, H, W) already scaled by `prepare`."""
        logits: torch.Tensor = self.head(self.features(x).mean(dim=(2, 3)))
        return logits


class Exported(nn.Module):
    """What goes into the ONNX file: raw BGR 0-255 in, probabilities out."""

    def __init__(self, net: CardNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x / 255.0 - MEAN), dim=1)


def prepare(batch: np.ndarray, device: str | torch.device = "cpu") -> torch.Tensor:
    """uint8 (N, H, W, 3) BGR crops → float (N, 3, H, W) on `device`, grey at 0."""
    x = torch.from_numpy(batch).to(device).permute(0, 3, 1, 2).float()
    return x / 255.0 - MEAN


# `augment(hide_face=...)`: the share of each side of a crop painted over in its middle.
HIDDEN_MIDDLE = 0.4


def augment(x: torch.Tensor, gen: torch.Generator, strength: float = 1.0,
            hide_face: float = 0.0) -> torch.Tensor:
    """Random camera-like changes to a prepared batch, each sample its own draw.

    The crops already carry the renderer's blur, noise and occlusion: `strength` scales how often
    more of those are added on top. `gen` lives on the batch's device. `hide_face`: the share of
    crops whose middle (HIDDEN_MIDDLE of each side) is painted over with a plain pale shade, so
    that only the card's edges and corner indices tell it (faces differ from deck to deck; the
    indices hardly do).
    """
    n, side, dev = x.shape[0], x.shape[-1], x.device

    def u(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return torch.rand(*(shape or (n,)), generator=gen, device=dev) * (hi - lo) + lo

    # Quarter turns: a card lies any way round on the table.
    k = torch.randint(0, 4, (n,), generator=gen, device=dev)
    for turn in (1, 2, 3):
        sel = k == turn
        if sel.any():
            x[sel] = torch.rot90(x[sel], turn, (2, 3))
    # Small zoom, shift, rotation (a box that is a little off, a slightly turned card).
    angle = u(-0.12, 0.12)
    scale = u(0.88, 1.12)
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack(
        [torch.stack([cos, -sin, u(-0.08, 0.08)], 1), torch.stack([sin, cos, u(-0.08, 0.08)], 1)],
        1,
    )
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    # Low resolution (a small card in a wide frame) or blur, for some.
    low = u(0, 1) < 0.2 * strength
    if low.any():
        low_side = int(side * float(u(0.45, 0.8, 1)))
        small = F.interpolate(x[low], size=(low_side, low_side), mode="area")
        x[low] = F.interpolate(small, size=(side, side), mode="bilinear", align_corners=False)
    blur = u(0, 1) < 0.15 * strength
    if blur.any():
        x[blur] = F.avg_pool2d(x[blur], 3, 1, 1, count_include_pad=False)
    # Lighting: exposure, contrast, white balance, saturation, then a brightness ramp.
    img = x + MEAN
    img = img * u(0.55, 1.35).view(n, 1, 1, 1) * u(0.85, 1.15, n, 3).view(n, 3, 1, 1)
    grey = img.mean(dim=1, keepdim=True)
    img = grey + (img - grey) * u(0.5, 1.4).view(n, 1, 1, 1)
    mean = img.mean(dim=(1, 2, 3), keepdim=True)
    img = mean + (img - mean) * u(0.6, 1.3).view(n, 1, 1, 1)
    ramp = torch.linspace(-1, 1, side, device=dev).view(1, 1, 1, side)
    gx, gy = u(-0.25, 0.25).view(n, 1, 1, 1), u(-0.25, 0.25).view(n, 1, 1, 1)
    img = img * (1 + gx * ramp + gy * ramp.transpose(2, 3))
    img = img.clamp(0, 1) ** u(0.7, 1.4).view(n, 1, 1, 1)
    img = img + torch.randn(img.shape, generator=gen, device=dev) * u(0, 0.03).view(n, 1, 1, 1)
    x = img.clamp(0, 1) - MEAN
    # An occluding patch (a finger, a neighbour's edge) on some.
    picked = torch.nonzero(u(0, 1) < 0.2 * strength).flatten().tolist()
    # One draw for every patch: a single copy to the host instead of one per patch on a GPU.
    sizes = torch.randint(6, side // 3, (len(picked), 2), generator=gen, device=dev).tolist()
    places = torch.randint(0, side - 8, (len(picked), 2), generator=gen, device=dev).tolist()
    shades = u(-MEAN, 1 - MEAN, len(picked)).tolist()
    for i, (ph, pw), (py, px), shade in zip(picked, sizes, places, shades, strict=True):
        x[i, :, py : py + ph, px : px + pw] = shade
    # (no draw when off: the default run's random stream stays as it was before the option)
    hidden = u(0, 1) < hide_face if hide_face > 0 else None
    if hidden is not None and hidden.any():
        lo = int(side * (1 - HIDDEN_MIDDLE) / 2)
        paper = (u(0.7, 1.0, int(hidden.sum()), 1) - MEAN).view(-1, 1, 1, 1)
        x[hidden, :, lo : side - lo, lo : side - lo] = paper
    return x


def _load(folders: Sequence[Path], name: str) -> tuple[np.ndarray, np.ndarray]:
    """One split of every crop folder, stacked (all must share one crop size)."""
    parts = [np.load(folder / name) for folder in folders]
    sizes = {part["x"].shape[1] for part in parts}
    if len(sizes) != 1:
        raise ValueError(f"crop folders mix crop sizes {sorted(sizes)}: {list(folders)}")
    x = np.concatenate([part["x"] for part in parts])
    return x, np.concatenate([part["y"].astype(np.int64) for part in parts])


def evaluate(
    net: nn.Module, x: np.ndarray, y: np.ndarray, batch: int = 512, device: str = "cpu"
) -> dict[str, float]:
    """Top-1 accuracy overall, on cards, and how often "none" is read as a card and vice versa."""
    net.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            preds.append(net(prepare(x[i : i + batch], device)).argmax(1).cpu().numpy())
    pred = np.concatenate(preds) if preds else np.zeros(0, np.int64)
    card = y != NONE
    return {
        "acc": float((pred == y).mean()),
        "card_acc": float((pred[card] == y[card]).mean()) if card.any() else math.nan,
        "none_as_card": float((pred[~card] != NONE).mean()) if (~card).any() else math.nan,
        "card_as_none": float((pred[card] == NONE).mean()) if card.any() else math.nan,
    }


def train(
    data: Path | Sequence[Path],
    out: Path,
    epochs: int,
    batch: int = 256,
    lr: float = 3e-3,
    threads: int = 2,
    seed: int = 0,
    epoch_size: int = 0,
    init: Path | None = None,
    device: str = "cpu",
    hours: float | None = None,
    hide_face: float = 0.0,
) -> Path:
    """Train (resuming `<out>/last.pt` if present, else starting from `init`'s weights).

    `device` is where the batches are augmented and the net runs ("cpu", "cuda"); the crops stay
    in host memory and each batch is copied over. With `hours`, the first epoch is timed and the
    run shortened to the epochs that fit the budget (at most `epochs`), the schedule with it.
    """
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    out.mkdir(parents=True, exist_ok=True)
    folders = [data] if isinstance(data, Path) else list(data)
    x_train, y_train = _load(folders, "train.npz")
    x_val, y_val = _load(folders, "val.npz")
    net = CardNet(crop=int(x_train.shape[1]))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    per_epoch = min(epoch_size or len(x_train), len(x_train))  # samples drawn per epoch
    batches = math.ceil(per_epoch / batch)
    plan = {"epochs": epochs}  # a time budget may shorten it once the first epoch is timed
    warm = min(300, epochs * batches // 10)

    def factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        steps = plan["epochs"] * batches
        return 0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(steps - warm, 1)))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, factor)
    start, best_acc = 0, -1.0
    ckpt = out / "last.pt"
    if ckpt.exists():
        state = torch.load(ckpt, map_location="cpu", weights_only=False)
        net.load_state_dict(state["model"])
        net.to(device)  # the optimizer's state follows the parameters' device
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start = state["epoch"] + 1
        if state.get("budgeted"):  # a run fitted to a time budget keeps its length
            plan["epochs"] = int(state["epochs"])
        best_acc = float(state.get("best_acc", -1.0))
    elif init is not None:
        # Layers of the same name and shape are copied (a 64 px model seeds a 128 px one).
        mine = net.state_dict()
        if init.suffix == ".onnx":  # an exported model: its BNs rebuilt on a sample of crops
            from vision.classifier_rebuild import cardnet_from_onnx

            rng = np.random.default_rng(seed)
            pick = np.sort(rng.choice(len(x_train), min(1024, len(x_train)), replace=False))
            given = cardnet_from_onnx(init, x_train[pick]).state_dict()
        else:
            given = torch.load(init, map_location="cpu", weights_only=False)["model"]
        same = {k: v for k, v in given.items() if k in mine and mine[k].shape == v.shape}
        net.load_state_dict({**mine, **same})
        print(f"init from {init}: {len(same)} of {len(mine)} tensors", flush=True)
    net = net.to(device).to(memory_format=torch.channels_last)  # ~15% faster convs on the CPU
    gen = torch.Generator().manual_seed(seed + start)  # the order of the crops
    aug_gen = torch.Generator(device=device).manual_seed(seed + start)  # augmentation draws
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    log = (out / "train.log").open("a")
    print(f"train {len(x_train)} crops, val {len(x_val)}, epochs {start}..{epochs - 1}", file=log)
    epoch = start
    while epoch < plan["epochs"]:
        net.train()
        t0 = time.perf_counter()
        order = torch.randperm(len(x_train), generator=gen).numpy()[:per_epoch]
        total, right, seen = 0.0, 0, 0
        batch_starts = range(0, len(order), batch)
        for i in tqdm(batch_starts, desc=f"epoch {epoch + 1}/{plan['epochs']}", unit="batch",
                      file=sys.stderr, leave=False):
            idx = np.sort(order[i : i + batch])
            xb = augment(prepare(x_train[idx], device), aug_gen, hide_face=hide_face)
            xb = xb.contiguous(memory_format=torch.channels_last)
            yb = torch.from_numpy(y_train[idx]).to(device)
            logits = net(xb)
            loss = loss_fn(logits, yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == yb).sum())
            seen += len(idx)
        val = evaluate(net, x_val, y_val, device=device)
        if hours and epoch == start:  # fit the run to the budget, by the first epoch's time
            fits = int(hours * 3600 // (time.perf_counter() - t0))
            plan["epochs"] = max(start + 1, min(epochs, start + fits))
        line = (
            f"epoch {epoch + 1}/{plan['epochs']} loss {total / seen:.4f} "
            f"train_acc {right / seen:.4f} "
            f"val_acc {val['acc']:.4f} val_card_acc {val['card_acc']:.4f} "
            f"val_none_as_card {val['none_as_card']:.4f} "
            f"val_card_as_none {val['card_as_none']:.4f} "
            f"lr {sched.get_last_lr()[0]:.2e} {time.perf_counter() - t0:.0f}s"
        )
        print(line, file=log, flush=True)
        print(line, flush=True)
        weights = {k: v.cpu() for k, v in net.state_dict().items()}
        if val["acc"] > best_acc:
            best_acc = val["acc"]
            torch.save({"crop": int(x_train.shape[1]), "model": weights, "epoch": epoch},
                       out / "best.pt")
        torch.save(
            {
                "crop": int(x_train.shape[1]),
                "model": weights,
                "opt": opt.state_dict(),
                "sched": sched.state_dict(),
                "epoch": epoch,
                "epochs": plan["epochs"],
                "budgeted": bool(hours),
                "best_acc": best_acc,
            },
            ckpt,
        )
        epoch += 1
    log.close()
    return ckpt


def export(ckpt: Path, onnx_path: Path) -> Path:
    """Write the checkpoint's model as ONNX: input 'crops' (N, 3, S, S) BGR 0-255 float."""
    state = torch.load(ckpt, map_location="cpu", weights_only=False)
    size = int(state.get("crop", CROP))
    net = CardNet(crop=size)
    net.load_state_dict(state["model"] if "model" in state else state)
    model = Exported(net).eval()
    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, size, size),),
        str(onnx_path),
        input_names=["crops"],
        output_names=["probs"],
        dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    return onnx_path
