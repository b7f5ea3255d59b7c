#!/usr/bin/env bash
# One training run on a lent GPU machine (session 39), all of it within BUDGET seconds: its 16
# cores render fresh scenes, then the box model (card_boxes_gpu_recipe.yaml) and two card
# classifiers train side by side on the GPU, each fitted to the time left. What comes back, in
# $OUT: boxes_best.pt, cls_ft_best.pt (the shipped classifier fine-tuned), cls_new_best.pt (one
# trained from scratch), their logs in log.txt. Each is measured here afterwards (models/*.md).
#
# Here, first:  python models/gpu/artwork_pack.py pack   (the artwork, as WebP, into .devcache/)
#               cp -r cache/textures .devcache/          and the ultralytics wheels into .whl/
# There:        bash models/gpu/train.sh                  (carry .devcache and .whl)
# A small try on the CPU: DEVICE=cpu BUDGET=300 SCENES=64 CROP_PROCS=2 CROP_SCENES=12 \
#               CROP_VAL=4 WORKERS=2 OUT=/tmp/gpu_try bash models/gpu/train.sh
set -uo pipefail
T0=$(date +%s)
BUDGET=${BUDGET:-530}          # seconds for everything, results copied out included
SCENES=${SCENES:-32000}        # box-model training scenes
CROP_PROCS=${CROP_PROCS:-10}   # crop renderers side by side (ids 1-6 close, 7+ whole table)
CROP_SCENES=${CROP_SCENES:-1000}
CROP_VAL=${CROP_VAL:-60}
WORKERS=${WORKERS:-12}
DEVICE=${DEVICE:-cuda}
OUT=${OUT:-runs/gpu_out}
PY=${PY:-python3}
mkdir -p "$OUT" runs data
LOG=$OUT/log.txt
say() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$LOG"; }
hours_left() {  # the budget's remaining hours, less a margin in seconds for what follows
    $PY -c "print(max(0.003, ($T0 + $BUDGET - $(date +%s) - $1) / 3600))"
}

# Packages: the ultralytics wheels when carried, and a stand-in for polars (54 MB; ultralytics
# only reads its own results.csv with it when plots are off).
export PYTHONPATH="$PWD:/tmp/site:${PYTHONPATH:-}"
if [ -d .whl ]; then
    $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl || exit 1
fi
if ! $PY -c "import polars" 2>/dev/null; then
    mkdir -p /tmp/site/polars
    cat > /tmp/site/polars/__init__.py <<'PYEOF'
"""Stand-in: the one call ultralytics makes while training (read_csv(...).to_dict())."""
import csv
import io


class DataFrame:
    def __init__(self, rows=None, *args, **kwargs):
        self.rows = rows if isinstance(rows, list) else []

    def to_dict(self, as_series=True):
        keys = list(self.rows[0]) if self.rows else []
        return {k: [row[k] for row in self.rows] for k in keys}


def read_csv(source, **kwargs):
    text = source.decode() if isinstance(source, bytes) else open(source).read()
    rows = [{k.strip(): _num(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]
    return DataFrame(rows)


def _num(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return value
PYEOF
fi
export YOLO_OFFLINE=1 YOLO_CONFIG_DIR=/tmp/yolo_config
nproc | xargs echo cores: | tee -a "$LOG"
$PY -c "import torch; print('torch', torch.__version__, torch.cuda.is_available())" | tee -a "$LOG"

# Artwork: back to the PNG cache the renderer reads.
if [ ! -d cache/artwork ]; then
    $PY models/gpu/artwork_pack.py unpack >> "$LOG" 2>&1 || exit 1
    mkdir -p cache && cp -r .devcache/textures cache/
fi
say "artwork ready"

$PY -m device.cli render --out data/gpu_boxes --count "$SCENES" --val-count 300 --size 416 \
    --far 0.35 --closeup 0.6 --piles 0.4 --seed 3901 --workers 16 > "$OUT/render.txt" 2>&1 \
    || { tail -20 "$OUT/render.txt"; exit 1; }
say "box scenes rendered"

# Should a run outlast the budget, the best weights so far are copied out before the machine's
# limit ends the command (what is in $OUT comes back either way).
( sleep $((BUDGET + 15)); for run in gpu_boxes/weights gpu_cls_ft gpu_cls_new; do
      [ -f "runs/$run/best.pt" ] && cp "runs/$run/best.pt" "$OUT/late_${run%%/*}.pt"; done ) \
    >/dev/null 2>&1 &
watchdog=$!

gpu=0; [ "$DEVICE" = cpu ] && gpu=cpu
$PY -m device.cli train --recipe models/card_boxes_gpu_recipe.yaml --out runs/gpu_boxes \
    --device "$gpu" --workers "$WORKERS" --hours "$(hours_left 50)" > runs/gpu_boxes.txt 2>&1 &
boxes=$!

crops=()
for i in $(seq 1 "$CROP_PROCS"); do
    if [ "$i" -le 6 ]; then view=(--size 720 --closeup 0.5 --per-card 3); else
        view=(--size 640 --far 1.0 --per-card 2); fi
    $PY -m vision.crops --render "$CROP_SCENES" --render-val "$CROP_VAL" "${view[@]}" --crop 128 \
        --min-visible 0.4 --seed $((3900 + i)) --out "data/gpu_crops_$i" > "runs/crops_$i.txt" 2>&1 &
    crops+=($!)
done
wait "${crops[@]}"
say "crops rendered: $(du -sh data/gpu_crops_* | awk '{s=s" "$1} END {print s}')"

folders=(); for i in $(seq 1 "$CROP_PROCS"); do folders+=(--data "data/gpu_crops_$i"); done
cls=(train "${folders[@]}" --epochs 400 --epoch-size 50000 --batch 256 --device "$DEVICE")
$PY -m vision.classifier "${cls[@]}" --out runs/gpu_cls_ft --lr 1e-3 \
    --init models/card_classifier.onnx --hours "$(hours_left 40)" > runs/gpu_cls_ft.txt 2>&1 &
ft=$!
$PY -m vision.classifier "${cls[@]}" --out runs/gpu_cls_new --lr 2e-3 \
    --hours "$(hours_left 40)" > runs/gpu_cls_new.txt 2>&1 &
new=$!
wait $ft $new $boxes
say "training done"

cp runs/gpu_boxes/weights/best.pt "$OUT/boxes_best.pt"
cp runs/gpu_cls_ft/best.pt "$OUT/cls_ft_best.pt"
cp runs/gpu_cls_new/best.pt "$OUT/cls_new_best.pt"
for f in runs/gpu_boxes/train.log runs/gpu_cls_ft/train.log runs/gpu_cls_new/train.log; do
    echo "== $f" >> "$LOG"; cat "$f" >> "$LOG"
done
for f in runs/gpu_boxes.txt runs/gpu_cls_ft.txt runs/gpu_cls_new.txt runs/crops_1.txt; do
    echo "== $f (end)" >> "$LOG"; tail -c 3000 "$f" | tr '\r' '\n' | tail -25 >> "$LOG"
done
kill $watchdog 2>/dev/null
say "results in $OUT"
ls -la "$OUT"
