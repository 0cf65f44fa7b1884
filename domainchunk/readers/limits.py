"""Input limits: what a reader may read and inflate, checked before any parser sees the bytes.

A DOCX is a zip archive; a few hundred KB of it can inflate to gigabytes of XML
(a decompression bomb) that python-docx would parse into memory before anything
else could object. The zip's central directory declares every member's size,
and Python's zipfile never inflates a member past its declared size, so checking
the declared sizes and ratios bounds what parsing can cost.
"""
from __future__ import annotations

import errno
import os
import stat
import zipfile
from pathlib import Path

from ..errors import ReadError

# A legal or medical document of thousands of pages is tens of MB; these leave wide room.
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_INFLATED_BYTES = 256 * 1024 * 1024  # all members of an archive together, once inflated
# Text XML compresses about 10:1, rarely past 50:1; a bomb's filler compresses 1000:1. Small
# members may compress better (a run of empty cells), so only a large member's ratio is checked.
MAX_RATIO = 200
RATIO_FROM_BYTES = 4 * 1024 * 1024

_MB = 1024 * 1024


def check_archive(archive: zipfile.ZipFile, source: str) -> None:
    """Raise ReadError if ``archive`` would inflate past the limits; say by how much."""
    total = 0
    for m in archive.infolist():
        total += m.file_size
        if m.file_size >= RATIO_FROM_BYTES and m.file_size > MAX_RATIO * max(m.compress_size, 1):
            raise ReadError(source, f"refused as a decompression bomb: member {m.filename} inflates "
                                    f"{m.compress_size} bytes to {m.file_size // _MB} MB "
                                    f"(ratio over {MAX_RATIO}:1)")
        if total > MAX_INFLATED_BYTES:
            raise ReadError(source, f"refused as a decompression bomb: the archive inflates to over "
                                    f"{MAX_INFLATED_BYTES // _MB} MB")


def read_input_bytes(path: str | Path) -> bytes:
    """A file's bytes, refusing what reading would hang on or what cannot be a document.

    Checked before opening: a FIFO or a device would block or never end, so only regular
    files are read (a symbolic link is followed to its target); a broken link and a link loop
    are named as such rather than as a missing file.
    """
    name = str(path)
    try:
        st = os.stat(path)  # follows links; never blocks, unlike open() on a FIFO
    except FileNotFoundError:
        if os.path.islink(path):
            raise ReadError(name, f"broken symbolic link (to {os.readlink(path)})") from None
        raise ReadError(name, "file not found") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ReadError(name, "symbolic link loop") from None
        raise ReadError(name, f"cannot read file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ReadError(name, "is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise ReadError(name, f"not a regular file ({file_kind(st.st_mode)})")
    if st.st_size > MAX_FILE_BYTES:
        raise ReadError(name, f"file too large ({st.st_size // _MB} MB; the limit is {MAX_FILE_BYTES // _MB} MB)")
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ReadError(name, f"cannot read file: {exc.strerror or exc}") from None


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory")):
        if test(mode):
            return kind
    return "not a regular file"


def non_regular(path: str | Path) -> str | None:
    """What ``path`` is if it exists and is neither a regular file nor a link to one, else None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # missing, broken link, loop: reading it reports that as an error
    return None if stat.S_ISREG(mode) else file_kind(mode)
