#!/usr/bin/env bash
# Install (or upgrade) the cafe table on Raspberry Pi OS Lite 64-bit.
#
# Bookworm (Debian 12) and Trixie (Debian 13), arm64, run as root:
#
#     sudo deploy/install.sh            # from a clone of the repository
#
# Idempotent: running it again upgrades the program and keeps the journal, the
# tag registry, the game records and /etc/cafe-table/table.toml. It prints what
# it did and what the owner must still do. docs/raspberry-pi.md explains every
# step; `deploy/install.sh --help` lists the options.
set -euo pipefail
umask 022 # the service user must read the virtual environment

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/cafe-table
VENV="$PREFIX/venv"
SERVICE=cafe-table
SERVICE_USER=cafe-table
CONF_DIR=/etc/cafe-table
STATE_DIR=/var/lib/cafe-table
UNIT_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d
GROUPS_WANTED=(video render input dialout gpio spi)

BOARD=""
LEDS=""
DATA=""
START=1
APT_UPDATE=1

usage() {
    cat <<'USAGE'
usage: sudo deploy/install.sh [options]

Installs the cafe table as a service that boots into the attract screen.

  --board pi4|pi5|other  the board (default: read from /proc/device-tree/model)
  --leds spi|pi5|pwm|mock
                         the LED backend written to a new table.toml
                         (default: pi5 on a Pi 5, spi on other Pis, mock elsewhere)
  --data DIR             keep the journal, tag registry and records in DIR, a
                         writable data partition or USB drive (for a read-only
                         root / overlay file system); see docs/raspberry-pi.md
  --no-start             install and enable, but do not (re)start the service now
  --no-apt-update        skip `apt-get update` (the package lists are fresh)
  -h, --help             this text
USAGE
}

die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

DID=()
TODO=()
did() {
    DID+=("$*")
    printf '  - %s\n' "$*"
}
todo() { TODO+=("$*"); }

while (($#)); do
    case "$1" in
    --board) BOARD="${2:?--board needs pi4, pi5 or other}"; shift 2 ;;
    --leds) LEDS="${2:?--leds needs spi, pi5, pwm or mock}"; shift 2 ;;
    --data) DATA="${2:?--data needs a folder}"; shift 2 ;;
    --no-start) START=0; shift ;;
    --no-apt-update) APT_UPDATE=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done

[[ -f "$SOURCE/pyproject.toml" && -d "$SOURCE/controller" ]] ||
    die "$SOURCE is not a cafe-table checkout; run the deploy/install.sh inside one"

# --- what are we on -------------------------------------------------------------
# shellcheck disable=SC1091
. /etc/os-release
CODENAME="${VERSION_CODENAME:-unknown}"
ARCH="$(dpkg --print-architecture)"
case "$CODENAME" in
bookworm | trixie) ;;
*) echo "warning: made for Raspberry Pi OS Bookworm or Trixie; this is '$CODENAME', carrying on" >&2 ;;
esac
[[ "$ARCH" == arm64 ]] ||
    echo "warning: made for 64-bit Raspberry Pi OS (arm64); this is $ARCH, carrying on" >&2

MODEL=""
if [[ -r /proc/device-tree/model ]]; then
    MODEL="$(tr -d '\0' </proc/device-tree/model)"
fi
if [[ -z "$BOARD" ]]; then
    case "$MODEL" in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"* | "Raspberry Pi 500"*) BOARD=pi5 ;;
    "Raspberry Pi"*) BOARD=pi4 ;;
    *) BOARD=other ;;
    esac
fi
case "$BOARD" in pi4 | pi5 | other) ;; *) die "--board is '$BOARD'; use pi4, pi5 or other" ;; esac
if [[ -z "$LEDS" ]]; then
    case "$BOARD" in pi5) LEDS=pi5 ;; pi4) LEDS=spi ;; *) LEDS=mock ;; esac
fi
case "$LEDS" in spi | pi5 | pwm | mock) ;; *) die "--leds is '$LEDS'; use spi, pi5, pwm or mock" ;; esac
[[ "$LEDS" == pwm && "$BOARD" == pi5 ]] &&
    die "the PWM LED driver does not work on a Pi 5; use --leds pi5"
DATA_DIR="${DATA:-$STATE_DIR}"
[[ "$DATA_DIR" == /* ]] || die "--data needs an absolute folder, e.g. /mnt/cafe-data"

# Settings are checked above, before anything changes; changing needs root.
[[ $EUID -eq 0 ]] || die "run it as root: sudo $0"
echo "Installing the cafe table from $SOURCE"
echo "  board: $BOARD${MODEL:+ ($MODEL)}, LEDs: $LEDS, Debian: $CODENAME/$ARCH, data: $DATA_DIR"

# --- Debian packages ------------------------------------------------------------
# EGL/GLES/GBM/Mesa: SDL's KMSDRM driver loads them at run time and neither
# pygame build brings them; a fresh Pi OS Lite lacks them.
PACKAGES=(python3 python3-venv ca-certificates systemd udev util-linux
    libegl1 libgles2 libgbm1 libgl1-mesa-dri libdrm2 fonts-dejavu-core
    fonts-noto-core fonts-noto-cjk) # the display's fonts: every language, and the suit symbols
if [[ "$LEDS" == pwm ]]; then
    PACKAGES+=(gcc python3-dev) # rpi_ws281x is compiled on the Pi
fi
export DEBIAN_FRONTEND=noninteractive
if ((APT_UPDATE)); then
    apt-get update -q >/dev/null
fi
apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >/dev/null
PY_MINOR="$(python3 -c 'import sys; print(sys.version_info[1])')"
did "Debian packages: ${PACKAGES[*]}"
NEED_DEBIAN_LGPIO=0
BUILD_LGPIO=0
if [[ "$ARCH" == arm64 ]] && ((PY_MINOR >= 13)); then
    # PyPI's lgpio has no wheel for Python 3.13: take the distribution's build
    # (Raspberry Pi OS has python3-lgpio), else compile PyPI's source.
    if apt-cache show python3-lgpio >/dev/null 2>&1; then
        apt-get install -y -q --no-install-recommends python3-lgpio >/dev/null
        NEED_DEBIAN_LGPIO=1
        did "the distribution's python3-lgpio (PyPI has no lgpio wheel for Python 3.$PY_MINOR)"
    else
        apt-get install -y -q --no-install-recommends swig gcc python3-dev >/dev/null
        BUILD_LGPIO=1
        did "swig, gcc and python3-dev to compile lgpio (no wheel, no python3-lgpio package)"
    fi
fi

# --- the service user and its groups --------------------------------------------
for group in "${GROUPS_WANTED[@]}"; do
    if ! getent group "$group" >/dev/null; then
        groupadd --system "$group" # plain Debian has no gpio or spi group
        did "created the missing group $group"
    fi
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "cafe table kiosk" "$SERVICE_USER"
    did "created the service user $SERVICE_USER"
fi
usermod -a -G "$(
    IFS=,
    echo "${GROUPS_WANTED[*]}"
)" "$SERVICE_USER"
did "$SERVICE_USER is in the groups ${GROUPS_WANTED[*]}"

# --- the program, in a virtual environment the service user can read -----------
mkdir -p "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv "$VENV"
    did "created the virtual environment $VENV"
fi
if ((NEED_DEBIAN_LGPIO)); then
    # Only Debian's dist-packages, appended after the venv's own (lgpio lives there).
    site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    echo /usr/lib/python3/dist-packages >"$site/debian-lgpio.pth"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
"${PIP[@]}" install --upgrade pip >/dev/null
# pygame and pygame-ce install the same files and clobber each other: only pygame-ce here.
if "$VENV/bin/python" -m pip show pygame >/dev/null 2>&1; then
    "${PIP[@]}" uninstall -y pygame
    did "removed PyPI's pygame (its aarch64 SDL has no KMSDRM)"
fi
if ((BUILD_LGPIO)) && ! "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
    # PyPI's source links against the C library liblgpio, which plain Debian does not
    # package: build it from the same source (src/) as a static archive first.
    LGPIO_BUILD="$(mktemp -d)"
    "${PIP[@]}" download --no-deps --no-binary :all: "lgpio>=0.2.2" -d "$LGPIO_BUILD"
    tar -C "$LGPIO_BUILD" -xzf "$LGPIO_BUILD"/lgpio-*.tar.gz
    LGPIO_SRC="$(echo "$LGPIO_BUILD"/lgpio-*/)"
    (cd "$LGPIO_SRC/src" && for f in *.c; do gcc -O2 -fPIC -c "$f" -o "${f%.c}.o"; done &&
        ar rcs liblgpio.a ./*.o)
    LDFLAGS="-L${LGPIO_SRC}src" "${PIP[@]}" install "$LGPIO_SRC"
    rm -rf "$LGPIO_BUILD"
    did "compiled lgpio (library and Python module) from PyPI's source"
fi
REQUIREMENTS="$(mktemp)"
trap 'rm -f "$REQUIREMENTS"' EXIT
python3 "$SOURCE/deploy/pi_requirements.py" "$SOURCE/pyproject.toml" --leds "$LEDS" >"$REQUIREMENTS"
"${PIP[@]}" install --upgrade -r "$REQUIREMENTS"
# --no-deps: the requirements above are the project's, with pygame-ce for pygame.
BUILD="$(mktemp -d)"
trap 'rm -f "$REQUIREMENTS"; rm -rf "$BUILD"' EXIT
# Build from a copy so the checkout (perhaps owned by another user) gets no build files.
# Excludes are anchored ("./records"): a bare "records" also dropped the package
# controller/records/, and the installed program could not start.
tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude='*.egg-info' --exclude=./build \
    --exclude=./out --exclude=./records -cf - . | tar -C "$BUILD" -xf -
# The translations, compiled into the package (a table would otherwise compile the
# .po files in memory at every start): Babel came with the requirements above.
(cd "$BUILD" && "$VENV/bin/python" -m controller.words compile >/dev/null) ||
    die "could not compile the translations (controller/words/locale); see the message above"
# (PYTHONWARNINGS: setuptools' deprecation banners would bury the installer's own lines.)
PYTHONWARNINGS=ignore "${PIP[@]}" install --no-deps --force-reinstall "$BUILD"
VERSION="$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("cafe-table"))')"
chmod -R a+rX "$PREFIX"
did "installed cafe-table $VERSION with pygame-ce into $VENV"

# The display: fail now, not at the first boot, if SDL has no KMSDRM.
if ! DRIVERS="$("$VENV/bin/cafe-table" doctor --sdl-drivers)"; then
    die "could not ask SDL for its video drivers; see the message above"
fi
case " ${DRIVERS,,} " in # SDL spells it KMSDRM
*" kmsdrm "*) did "SDL video drivers: $DRIVERS (KMSDRM present)" ;;
*) die "the installed pygame's SDL has no KMSDRM driver (it has: $DRIVERS); the screen would stay black" ;;
esac

# --- where the journal lives ------------------------------------------------------
mkdir -p "$STATE_DIR" "$DATA_DIR/records"
chown "$SERVICE_USER:$SERVICE_USER" "$STATE_DIR" "$DATA_DIR" "$DATA_DIR/records"
chmod 0750 "$STATE_DIR" "$DATA_DIR"
DATA_FS="$(findmnt -n -o FSTYPE --target "$DATA_DIR" 2>/dev/null || echo unknown)"
ROOT_FS="$(findmnt -n -o FSTYPE --target / 2>/dev/null || echo unknown)"
case "$DATA_FS" in
tmpfs | overlay | ramfs)
    todo "the journal folder $DATA_DIR is on $DATA_FS and would be lost at a power cut: put it on a data partition or USB drive and run again with --data, e.g. sudo $SOURCE/deploy/install.sh --data /mnt/cafe-data (docs/raspberry-pi.md, 'Where the journal lives')"
    ;;
esac
if [[ -n "$DATA" ]]; then
    mkdir -p "$UNIT_DIR/$SERVICE.service.d"
    cat >"$UNIT_DIR/$SERVICE.service.d/data.conf" <<EOF
# Written by deploy/install.sh --data: the journal and records live on $DATA_DIR.
[Unit]
RequiresMountsFor=$DATA_DIR
[Service]
ReadWritePaths=$DATA_DIR
EOF
    did "the journal, registry and records live in $DATA_DIR ($DATA_FS); the unit waits for it to be mounted"
elif [[ "$ROOT_FS" == overlay ]]; then
    todo "the root file system is an overlay (SD-card protection): give the journal a writable data partition with --data (docs/raspberry-pi.md)"
fi

# --- configuration ----------------------------------------------------------------
mkdir -p "$CONF_DIR"
if [[ -f "$CONF_DIR/table.toml" ]]; then
    did "kept your $CONF_DIR/table.toml"
    if [[ -n "$DATA" ]] && ! grep -q "\"$DATA_DIR/records\"" "$CONF_DIR/table.toml"; then
        todo "point [table] records in $CONF_DIR/table.toml at the data folder: records = \"$DATA_DIR/records\""
    fi
else
    sed -e "s|@LEDS@|$LEDS|g" -e "s|@RECORDS@|$DATA_DIR/records|g" \
        "$SOURCE/deploy/table.toml.in" >"$CONF_DIR/table.toml"
    did "wrote $CONF_DIR/table.toml (LED backend \"$LEDS\", records in $DATA_DIR/records)"
fi
chown "root:$SERVICE_USER" "$CONF_DIR" "$CONF_DIR/table.toml"
chmod 0750 "$CONF_DIR"
chmod 0640 "$CONF_DIR/table.toml"

# --- systemd unit and udev rules --------------------------------------------------
install -m 0644 "$SOURCE/deploy/cafe-table.service" "$UNIT_DIR/$SERVICE.service"
install -m 0644 "$SOURCE/deploy/99-cafe-table.rules" "$UDEV_DIR/99-cafe-table.rules"
did "installed $UNIT_DIR/$SERVICE.service and $UDEV_DIR/99-cafe-table.rules"
# Restarts with a growing delay (5 s up to a minute) where systemd has it (254 and
# later: Trixie); Bookworm's 252 would warn of unknown keys, and keeps RestartSec=5.
SYSTEMD_VERSION="$(systemctl --version 2>/dev/null | awk 'NR == 1 { print $2 }')"
if [[ "${SYSTEMD_VERSION:-0}" =~ ^[0-9]+$ ]] && ((SYSTEMD_VERSION >= 254)); then
    mkdir -p "$UNIT_DIR/$SERVICE.service.d"
    cat >"$UNIT_DIR/$SERVICE.service.d/backoff.conf" <<EOF
# Written by deploy/install.sh: systemd $SYSTEMD_VERSION steps the restart delay up.
[Service]
RestartSteps=5
RestartMaxDelaySec=60
EOF
    did "restarts back off from 5 s to 60 s (systemd $SYSTEMD_VERSION)"
else
    rm -f "$UNIT_DIR/$SERVICE.service.d/backoff.conf"
fi
RUNNING_SYSTEMD=0
[[ -d /run/systemd/system ]] && RUNNING_SYSTEMD=1
if ((RUNNING_SYSTEMD)); then
    systemctl daemon-reload
    udevadm control --reload-rules && udevadm trigger --subsystem-match=tty \
        --subsystem-match=gpio --subsystem-match=spidev --action=change || true
fi
# The kiosk takes tty1; the login prompt would fight it for the console.
systemctl disable getty@tty1.service >/dev/null 2>&1 || true
systemctl enable "$SERVICE.service" >/dev/null 2>&1
did "enabled $SERVICE.service (starts at boot on tty1; getty@tty1 disabled)"
if ((START && RUNNING_SYSTEMD)); then
    systemctl restart "$SERVICE.service"
    did "(re)started $SERVICE.service"
else
    todo "start it: sudo systemctl restart $SERVICE (or reboot)"
fi

# --- what the owner must still do -------------------------------------------------
case "$LEDS" in
spi)
    todo "enable SPI for the LEDs (data on GPIO10, pin 19): sudo raspi-config nonint do_spi 0"
    if [[ "$BOARD" == pi4 ]]; then
        todo "steady SPI clock on a Pi 4 (else the LEDs flicker): echo 'core_freq_min=500' | sudo tee -a /boot/firmware/config.txt"
    fi
    todo "strips longer than 170 pixels need a bigger SPI buffer: add spidev.bufsiz=65536 to /boot/firmware/cmdline.txt"
    ;;
pwm)
    todo "the PWM LED driver (GPIO18) needs root: the service runs as $SERVICE_USER, so prefer --leds spi (docs/hardware.md)"
    ;;
pi5)
    todo "the Pi 5 LED driver needs /dev/pio0 (a current kernel: sudo apt-get full-upgrade)"
    ;;
esac
todo "no screen blanking and no console cursor: add consoleblank=0 vt.global_cursor_default=0 to the single line of /boot/firmware/cmdline.txt"
todo "wire the readers, buttons, LEDs and toss timer: docs/hardware.md"
todo "assign the readers to seats: sudo systemctl stop $SERVICE; sudo -u $SERVICE_USER $VENV/bin/cafe-table assign-readers; then edit $CONF_DIR/table.toml"
todo "check everything: sudo -u $SERVICE_USER $VENV/bin/cafe-table doctor --config $CONF_DIR/table.toml"
todo "read the logs: journalctl -u $SERVICE -f"

echo
echo "Done. Still to do by you:"
for line in "${TODO[@]}"; do
    printf '  * %s\n' "$line"
done
