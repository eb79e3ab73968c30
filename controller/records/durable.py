"""Whether a folder survives a power cut: which file system it lies on.

raspi-config's SD-card protection ("overlay file system") puts the whole root
on a tmpfs overlay, so a journal written under /var/lib is gone after the next
power cut. ``[journal] require_durable = true`` makes the kiosk refuse to
start in such a folder; ``doctor`` reports it. The mount table comes from
``/proc/self/mountinfo`` and can be injected, so tests need no mounts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from controller.games.base import TableError

MOUNTINFO = Path("/proc/self/mountinfo")

VOLATILE = frozenset({"tmpfs", "ramfs", "overlay", "overlayfs", "aufs", "squashfs"})
"""File systems whose contents do not survive a reboot (or cannot be written at all)."""


class NotDurable(TableError, OSError):
    """The journal folder is on a file system that a power cut empties."""


@dataclass(frozen=True)
class Mount:
    """One line of /proc/self/mountinfo: where a file system is mounted and its type."""

    mount_point: str
    fs_type: str
    source: str


def _unescape(field: str) -> str:
    # mountinfo writes space, tab, newline and backslash as octal escapes.
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts listed in a mountinfo text, in order (later mounts cover earlier ones)."""
    mounts = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 2:
            continue
        mounts.append(Mount(_unescape(fields[4]), tail[0], _unescape(tail[1])))
    return mounts


def mount_of(path: Path, mounts: list[Mount]) -> Mount | None:
    """The mount that holds ``path``: the longest mount point above it, the last one if stacked."""
    target = os.path.abspath(path)
    best: Mount | None = None
    for mount in mounts:
        point = mount.mount_point.rstrip("/") or "/"
        inside = target == point or target.startswith(point + "/") or point == "/"
        if inside and (best is None or len(point) >= len(best.mount_point.rstrip("/") or "/")):
            best = mount
    return best


def _real_path(path: Path) -> Path:
    """``path`` made absolute, the symlinks of its existing part resolved (the rest may not exist
    yet: a records folder the kiosk will create lies on the mount of its nearest parent)."""
    absolute = Path(os.path.abspath(path))
    existing = absolute
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    return existing.resolve() / absolute.relative_to(existing)


def describe(path: Path, mountinfo: str | None = None) -> tuple[bool, str]:
    """Whether ``path`` is durable, and the file system it is on, e.g. ``(False, "tmpfs")``."""
    text = MOUNTINFO.read_text(encoding="utf-8") if mountinfo is None else mountinfo
    mount = mount_of(_real_path(path), parse_mountinfo(text))
    if mount is None:
        return True, "unknown"
    return mount.fs_type not in VOLATILE, mount.fs_type


def require_durable(path: Path, mountinfo: str | None = None) -> None:
    """Raise ``NotDurable`` with one line saying what to do when ``path`` is on tmpfs/overlay."""
    try:
        durable, fs_type = describe(path, mountinfo)
    except OSError:
        return  # no mount table (not Linux): nothing to judge by
    if not durable:
        raise NotDurable(
            f"the journal folder {path} is on {fs_type}, which a power cut empties: "
            "move [table] records to a data partition or USB drive "
            "(docs/raspberry-pi.md, 'Where the journal lives'), "
            "or set [journal] require_durable = false"
        )
