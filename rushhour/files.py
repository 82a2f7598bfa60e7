"""Files read and written safely.

Reading: only regular files, and only up to a size limit.  A folder, a device (``/dev/zero``), a FIFO
or a socket is refused before a byte is read, and the file is opened without blocking, so no path
can hang or exhaust a reader.

Writing: a reader never sees half of a file.  The text goes to a temporary file beside the target,
flushed to disk, then renamed over it; a failed write leaves the old file as it was.  A symbolic link
is followed (the file it names is replaced and the link stays), and a target that is not a regular
file (a device node, a FIFO...) is refused rather than replaced.

Permissions: a new file gets 0666 less the umask, as any program's output (0644 under the usual
umask 022, 0600 under 077); a replaced file keeps its own.  The progress file is no exception: it
holds nothing secret (levels, move counts, dates), and a player who wants it private says so with
the umask or ``chmod``, which later saves keep.

Putting aside: :func:`put_aside` moves (or copies) a file that cannot be read whole to
``NAME.corrupt-YYYYmmdd-HHMMSS`` beside it before it is started afresh (or rewritten without what could
not be read), the one rule of the progress file and the editor's kept boards.

Careless paths: :func:`check_path` refuses an empty or blank path and one with control characters
(a stray newline pasted into a command), and names a loop of symbolic links as such, wherever in
the path it is; :func:`exists` says whether a path names anything and raises for a loop, where
``os.path.exists`` would say "no".

Updating: :func:`locked` holds an exclusive lock (``fcntl.flock``, or ``msvcrt.locking`` on Windows)
on a ``.lock`` file beside a target, so that read-merge-write updates by several processes at once
follow one another instead of losing each other's changes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path

from rushhour.errors import RushHourError

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISFIFO, "a pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the player's data (saves, packs): ``$XDG_DATA_HOME/rushhour``, or
    ``~/.local/share/rushhour`` when ``XDG_DATA_HOME`` is unset, empty or not an absolute path."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "rushhour"
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "share" / "rushhour"


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


LOOP = "a loop of symbolic links"


def reason(err: OSError) -> str:
    """What went wrong, in words: a loop of symbolic links is named as such."""
    return LOOP if err.errno == errno.ELOOP else str(err.strerror or err)


def aside_name(path: Path) -> Path:
    """Where a corrupt file is moved so that a new one can be started and the old one kept:
    ``NAME.corrupt-YYYYmmdd-HHMMSS`` beside it (``-1``, ``-2``... when that name is taken)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate, n = path.with_name(f"{path.name}.corrupt-{stamp}"), 1
    while os.path.lexists(candidate):
        candidate, n = path.with_name(f"{path.name}.corrupt-{stamp}-{n}"), n + 1
    return candidate


def put_aside(path: str | Path, *, copy: bool = False) -> Path:
    """Move ``path`` (or, with ``copy``, copy it) to :func:`aside_name` beside it, so that nothing it
    held is lost when it is started afresh (or rewritten without what could not be read); where it
    went.  A copy is made once: when an earlier one holds what the file holds now, that one is where.
    A symbolic link is followed: the file it names is put aside beside that file, and the link stays.
    Raises :class:`OSError` as it comes (the file is then left as it was)."""
    target = real_target(path)
    if copy:  # a copy made before of the file as it is now serves again: one copy, however often asked
        try:
            same = _same_aside(target)
        except OSError:  # an earlier copy that cannot be read: a new one is made
            same = None
        if same is not None:
            return same
    aside = aside_name(target)
    if copy:
        shutil.copyfile(target, aside)
    else:
        os.replace(target, aside)
    return aside


def _same_aside(target: Path) -> Path | None:
    """A file put aside before beside ``target`` that holds what it holds now, if any."""
    size = os.stat(target).st_size
    prefix = f"{target.name}.corrupt-"
    with os.scandir(target.parent) as entries:
        for entry in entries:
            if not entry.name.startswith(prefix) or not entry.is_file(follow_symlinks=False):
                continue
            if entry.stat().st_size == size and _same_bytes(entry.path, target):
                return Path(entry.path)
    return None


def _same_bytes(one: str | Path, other: str | Path) -> bool:
    """Whether two files hold the same bytes (read now: no cache, unlike :mod:`filecmp`)."""
    with open(one, "rb") as a, open(other, "rb") as b:
        while True:
            chunk = a.read(1 << 16)
            if chunk != b.read(1 << 16):
                return False
            if not chunk:
                return True


def in_the_way(path: str | Path) -> Path | None:
    """The first of ``path`` and its folders that is there but is no folder (a file where a folder must
    be), or None."""
    path = Path(path)
    return next((p for p in (path, *path.parents) if os.path.lexists(p) and not p.is_dir()), None)


def make_folder(folder: str | Path) -> None:
    """Make ``folder`` and its parents; an :class:`OSError` whose text says which of them is a file
    where a folder must be (mkdir says only "File exists" or "Not a directory")."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        there = in_the_way(folder)
        if there is not None:
            raise OSError(err.errno, f"{there} is a file, not a folder") from None
        raise


def exists(path: str | Path, *, error: type[RushHourError] = RushHourError) -> bool:
    """Whether ``path`` names anything (symbolic links followed); raises ``error`` for a loop of
    symbolic links, where :func:`os.path.exists` would say no."""
    try:
        os.stat(path)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise error(f"{path} is {LOOP}") from None
        return False
    except ValueError:  # a NUL byte
        return False
    return True


def check_path(path: str, *, name: str = "the path", error: type[RushHourError] = RushHourError) -> None:
    """Refuse a careless path with one line naming it as ``name`` (an option like ``--out``): an
    empty or blank path, one with control characters, or a loop of symbolic links.

    >>> check_path("", name="--out")
    Traceback (most recent call last):
    rushhour.errors.RushHourError: --out is empty: give a path
    """
    if not path.strip():
        raise error(f"{name} is {'empty' if not path else 'blank'}: give a path")
    odd = next((c for c in path if ord(c) < 32 or ord(c) == 127), None)
    if odd is not None:
        raise error(f"{name} {path!r} holds a control character ({odd!r}): is it a pasting slip?")
    exists(path, error=error)


def read_regular_file(
    path: str | Path,
    limit: int,
    *,
    what: str = "a file",
    error: type[RushHourError] = RushHourError,
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises ``error`` for a folder, a device, a FIFO or a socket (checked on the open file, before
    reading), for a loop of symbolic links and for a file over the limit; :class:`OSError`
    (``FileNotFoundError``...) as it comes.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise error(f"{path} is {LOOP}, not {what}") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path} is {_kind(info.st_mode)}, not {what}")
        if info.st_size > limit:
            raise error(f"{path} is too large to be {what} ({info.st_size:,} bytes; at most {limit:,})")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise error(f"{path} is too large to be {what} (more than {limit:,} bytes)")
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_file_target(
    path: str | Path, *, error: type[RushHourError] = RushHourError, board: str | None = None
) -> None:
    """Refuse, before any work, an output file that cannot be written as one: a path ending in ``/``
    (a folder's name), an existing folder, device, FIFO or socket, a file in a folder that does not
    exist, and the file that ``board`` (a BOARD argument) was read from, which the output would
    replace.  This process's own streams (``/dev/stdout``...) are fine: :func:`write_bytes_atomic`
    writes to them."""
    if own_stream(path) is not None:
        return
    if board is not None and same_file(path, board):
        raise error(f"cannot write {path}: BOARD was read from it, and the output would replace the board")
    if str(path).endswith(("/", os.sep)):
        raise error(f"cannot write {path}: it ends in /, the name of a folder, where a file is wanted")
    target = real_target(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise error(f"cannot write {path}: the folder {target.parent} does not exist") from None
        return
    except OSError as err:
        raise error(f"cannot write {path}: {reason(err)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise error(f"cannot write {path}: it is {_kind(info.st_mode)}, not a regular file")


def same_file(path: str | Path, other: str | Path) -> bool:
    """Whether ``path`` and ``other`` name one existing file (through links, or two spellings)."""
    try:
        return os.path.isfile(other) and os.path.samefile(path, other)
    except (OSError, ValueError):  # no such file yet, or a name the system cannot take
        return False


def real_target(path: str | Path) -> Path:
    """Where writing ``path`` really goes: symbolic links followed."""
    return Path(os.path.realpath(path))


def temporary_pattern(target: Path) -> tuple[str, str]:
    """The prefix and suffix of the temporary files written beside ``target``."""
    return f".{target.name}.", ".tmp"


def clean_temporaries(path: str | Path) -> int:
    """Remove the temporary files left beside ``path`` by writers that were killed; how many.  Call
    it only while holding :func:`locked` for ``path`` (else another writer's file may be in use)."""
    target = real_target(path)
    prefix, suffix = temporary_pattern(target)
    removed = 0
    with contextlib.suppress(OSError), os.scandir(target.parent) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and entry.name.endswith(suffix) and entry.is_file():
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed += 1
    return removed


_OWN_STREAM = re.compile(r"/dev/(?:(stdout)|(stderr)|fd/(\d{1,9}))|/proc/self/fd/(\d{1,9})")


def own_stream(path: str | Path) -> int | None:
    """The file descriptor that ``path`` names when it is one of this process's own streams
    (``/dev/stdout`` 1, ``/dev/stderr`` 2, ``/dev/fd/N`` and ``/proc/self/fd/N`` N), else None.

    >>> own_stream("/dev/stdout"), own_stream("/dev/fd/3"), own_stream("out.txt")
    (1, 3, None)
    """
    found = _OWN_STREAM.fullmatch(str(path))
    if found is None:
        return None
    out, err, fd, proc_fd = found.groups()
    return 1 if out else 2 if err else int(fd or proc_fd)


def keys_from_terminal() -> bool:
    """Standard input taken from the process's terminal (``/dev/tty``), as pagers do, once it has given
    a board (``rushhour play -``): the game's keys come from the terminal.  False when there is no
    terminal to take them from."""
    if sys.stdin is not None and sys.stdin.isatty():
        return True
    try:
        fd = os.open("/dev/tty", os.O_RDWR | getattr(os, "O_NOCTTY", 0))
    except OSError:  # no controlling terminal (a service, CI), or not a POSIX system
        return False
    try:
        os.dup2(fd, 0)
    finally:
        os.close(fd)
    encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
    sys.stdin = open(0, encoding=encoding, errors="replace", closefd=False)  # noqa: SIM115
    return True


def write_text_atomic(
    path: str | Path,
    text: str,
    *,
    what: str = "",
    error: type[RushHourError] = RushHourError,
) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically; on failure raise ``error`` saying
    ``cannot write {what}{path}: {reason}``."""
    write_bytes_atomic(path, text.encode("utf-8"), what=what, error=error)


def write_bytes_atomic(
    path: str | Path,
    data: bytes,
    *,
    what: str = "",
    error: type[RushHourError] = RushHourError,
) -> None:
    """Write ``data`` to ``path`` atomically: the file is whole or as it was, never cut short; a target
    that is not a regular file (a device, a FIFO, a folder) is refused.  On failure raise ``error``
    saying ``cannot write {what}{path}: {reason}``.  A path that names one of this process's own
    streams (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``) is written to that stream, after what
    was already written there: replacing the file behind it would throw that away."""
    if str(path).endswith(("/", os.sep)):  # realpath would drop it, and a file take the folder's name
        raise error(f"cannot write {what}{path}: it ends in /, the name of a folder, where a file is wanted")
    stream = own_stream(path)
    if stream is not None:
        try:
            for handle in (sys.stdout, sys.stderr):  # what this process wrote there comes first
                if handle is not None:
                    handle.flush()
            view = memoryview(data)
            while view:
                view = view[os.write(stream, view) :]
        except BrokenPipeError:
            raise  # the reader went away: the command stops quietly, as with its printed output
        except (OSError, ValueError) as err:  # ValueError: the stream is closed
            why = reason(err) if isinstance(err, OSError) else str(err)
            raise error(f"cannot write {what}{path}: {why}") from None
        return
    target = real_target(path)
    tmp_name: str | None = None
    try:
        try:
            info: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            info = None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise error(f"cannot write {what}{path}: it is {_kind(info.st_mode)}, not a regular file")
        prefix, suffix = temporary_pattern(target)
        tmp_name = str(target.parent / f"{prefix}{secrets.token_hex(6)}{suffix}")
        # a new file gets the usual permissions (0666 less the umask); a replaced one keeps its own
        fd = os.open(tmp_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        with os.fdopen(fd, "wb") as handle:
            if info is not None and hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
        tmp_name = None
    except OSError as err:
        raise error(f"cannot write {what}{path}: {reason(err)}") from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


class Held(RushHourError):
    """Another process holds the lock that :func:`locked` was asked not to wait for."""


@contextlib.contextmanager
def locked(
    path: str | Path, *, error: type[RushHourError] = RushHourError, wait: bool = True
) -> Iterator[None]:
    """Hold an exclusive lock for updating ``path`` (waiting for any other holder to finish; with
    ``wait`` False, raising :class:`Held` at once when another process holds it).

    The lock is taken on ``<file>.lock`` beside the real file (symbolic links followed) and released
    when the block ends, also when the process dies.  The ``.lock`` file itself stays: removing it
    would let two processes lock two different files."""
    target = real_target(path)
    lock_name = target.with_name(target.name + ".lock")
    try:
        fd = os.open(lock_name, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as err:
        raise error(f"cannot lock {lock_name}: {err.strerror or err}") from None
    try:
        if not _lock(fd, wait):
            raise Held(f"{lock_name} is held by another process")
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _lock(fd: int, wait: bool = True) -> bool:
    """Lock ``fd``; False when ``wait`` is False and another process holds the lock."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt
        import time

        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
                return True
            except OSError:  # LK_LOCK gives up after 10 s: keep waiting
                if not wait:
                    return False
                time.sleep(0.05)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


__all__ = [
    "Held",
    "aside_name",
    "check_path",
    "clean_temporaries",
    "exists",
    "locked",
    "make_folder",
    "put_aside",
    "read_regular_file",
    "real_target",
    "reason",
    "write_text_atomic",
]
