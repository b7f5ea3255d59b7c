#!/usr/bin/env bash
# Install the Belote companion on Raspberry Pi OS Bookworm (64-bit) as a systemd service.
#
#   sudo deploy/install.sh              # from a checkout of the repository, on the Pi
#   deploy/install.sh --dry-run --force # print every step without doing it (any machine)
#
# What it does: apt packages (picamera2 comes from apt, never pip), a dedicated `belote` user, a
# copy of the code in /opt/belote/app, a venv with --system-site-packages (so it sees picamera2)
# with the project installed WITHOUT PyTorch, the detector converted to NCNN when ncnn installs
# (ONNX Runtime otherwise), /etc/belote/config.yaml from config.example.yaml (kept if present), and
# the belote.service unit, enabled and started. Running it again updates the code and restarts.
set -euo pipefail

PREFIX=/opt/belote
SERVICE_USER=belote
CONFIG_DIR=/etc/belote
STATE_DIR=/var/lib/belote
UNIT=/etc/systemd/system/belote.service
DRY_RUN=0
FORCE=0
START=1
NCNN=1
APT_OPENCV=0

usage() {
    cat <<'EOF'
usage: deploy/install.sh [options]
  --prefix DIR     where the code and the venv go (default /opt/belote)
  --user NAME      the service's user (default belote)
  --no-start       install and enable the service but do not start it
  --no-ncnn        keep the ONNX Runtime backend, do not convert the model to NCNN
  --apt-opencv     use Debian's python3-opencv instead of the opencv-python-headless wheel
  --force          go on even if this is not Raspberry Pi OS Bookworm on arm64
  --dry-run        print the commands instead of running them (no root needed)
EOF
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --user) SERVICE_USER="$2"; shift 2 ;;
        --no-start) START=0; shift ;;
        --no-ncnn) NCNN=0; shift ;;
        --apt-opencv) APT_OPENCV=1; shift ;;
        --force) FORCE=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP="$PREFIX/app"
VENV="$PREFIX/venv"

say() { printf '\n==> %s\n' "$*"; }
run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

check_system() {
    local codename="" arch
    arch="$(uname -m)"
    if [[ -r /etc/os-release ]]; then
        codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
    fi
    if [[ "$codename" != "bookworm" || "$arch" != "aarch64" ]]; then
        echo "install.sh: expected Raspberry Pi OS Bookworm 64-bit, found '${codename:-?}' on $arch" >&2
        if [[ $FORCE -eq 0 ]]; then
            echo "install.sh: use --force to install anyway" >&2
            exit 2
        fi
    fi
    if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
        echo "install.sh: run it as root (sudo deploy/install.sh), or --dry-run to see the steps" >&2
        exit 2
    fi
    if [[ ! -f "$REPO/pyproject.toml" ]]; then
        echo "install.sh: $REPO is not a checkout of the project (no pyproject.toml)" >&2
        exit 2
    fi
}

install_apt() {
    say "System packages (picamera2 and libcamera come from Raspberry Pi OS, not pip)"
    local pkgs=(python3 python3-venv python3-pip python3-picamera2 libcamera-apps rsync)
    if [[ $APT_OPENCV -eq 1 ]]; then pkgs+=(python3-opencv); fi
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkgs[@]}"
}

create_user() {
    say "Service user '$SERVICE_USER' (member of video and render: the camera devices)"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run usermod -a -G video,render "$SERVICE_USER"
    else
        run useradd --system --home-dir "$STATE_DIR" --shell /usr/sbin/nologin \
            --groups video,render "$SERVICE_USER"
    fi
    run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE_DIR" "$STATE_DIR/evidence"
}

copy_code() {
    say "Code into $APP"
    run install -d -m 0755 "$PREFIX"
    # No venv, caches, training data or local databases from the checkout.
    run rsync -a --delete --exclude /.git --exclude /.venv --exclude /cache --exclude /data \
        --exclude /runs --exclude '__pycache__' --exclude '*.egg-info' "$REPO/" "$APP/"
}

make_venv() {
    say "Virtualenv $VENV (system site packages: picamera2) and the project, without PyTorch"
    if [[ ! -x "$VENV/bin/python" ]]; then
        run python3 -m venv --system-site-packages "$VENV"
    fi
    run "$VENV/bin/pip" install --quiet --upgrade pip
    # The base dependencies hold no torch/ultralytics (those are the [train] extra): ONNX Runtime,
    # OpenCV, FastAPI, uvicorn, pydantic, PyYAML, tqdm. piwheels serves arm64 wheels for all.
    # Editable, so the code finds the model beside it in $APP/models.
    run "$VENV/bin/pip" install --quiet -e "$APP"
    if [[ $APT_OPENCV -eq 1 ]]; then
        # Debian's OpenCV is visible through the system site packages: drop the wheel's copy.
        run "$VENV/bin/pip" uninstall --yes --quiet opencv-python-headless
    fi
}

convert_model() {
    [[ $NCNN -eq 1 ]] || { say "Detector: ONNX Runtime (NCNN conversion skipped)"; return 0; }
    say "Detector: converting the ONNX models to NCNN (falls back to ONNX Runtime)"
    local onnx="$APP/models/card_detector.onnx"
    if [[ ! -f "$onnx" && $DRY_RUN -eq 0 ]]; then
        echo "install.sh: no $onnx; the detector will not start" >&2
        return 0
    fi
    if ! run "$VENV/bin/pip" install --quiet ncnn pnnx; then
        echo "install.sh: ncnn/pnnx did not install; keeping ONNX Runtime" >&2
        return 0
    fi
    # The box model (two-stage reading, the default) and the 32-card detector (--one-stage); an
    # 8-bit file (the box model since session 39) is left to ONNX Runtime by convert_ncnn.py.
    for onnx in "$APP/models/card_boxes.onnx" "$APP/models/card_detector.onnx"; do
        [[ -f "$onnx" || $DRY_RUN -eq 1 ]] || continue
        if ! run "$VENV/bin/python" "$APP/deploy/convert_ncnn.py" "$onnx"; then
            echo "install.sh: NCNN conversion of $onnx failed; keeping ONNX Runtime" >&2
        fi
    done
}

install_config() {
    say "Configuration $CONFIG_DIR/config.yaml (kept if it exists)"
    run install -d -m 0755 "$CONFIG_DIR"
    if [[ -f "$CONFIG_DIR/config.yaml" ]]; then
        echo "keeping the existing $CONFIG_DIR/config.yaml"
    else
        run install -o root -g "$SERVICE_USER" -m 0640 "$APP/deploy/config.example.yaml" \
            "$CONFIG_DIR/config.yaml"
    fi
    # Calibration writes the geometry section back: the service user may edit its config.
    run chown "root:$SERVICE_USER" "$CONFIG_DIR"
    run chmod 0775 "$CONFIG_DIR"
}

install_unit() {
    say "systemd unit $UNIT"
    local tmp
    tmp="$(mktemp)"
    sed -e "s#/opt/belote#$PREFIX#g" -e "s#^User=belote#User=$SERVICE_USER#" \
        -e "s#^Group=belote#Group=$SERVICE_USER#" "$REPO/deploy/belote.service" >"$tmp"
    run install -m 0644 "$tmp" "$UNIT"
    rm -f "$tmp"
    run systemctl daemon-reload
    run systemctl enable belote.service
    if [[ $START -eq 1 ]]; then
        run systemctl restart belote.service
    fi
}

main() {
    check_system
    install_apt
    create_user
    copy_code
    make_venv
    convert_model
    install_config
    install_unit
    local host
    host="$(hostname -I 2>/dev/null | awk '{print $1}')"
    say "Done. Live page: http://${host:-<pi-address>}:8000/   referee: /referee   logs: journalctl -u belote -f"
    echo "Next: print deploy/markers (python3 deploy/aruco_sheet.py), then calibrate (deploy/README.md)."
}

main
