"""A database directory: the manifest, one file per finished part, the merged database."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Sequence

from rushhour.database.definitions import STATS_FIELDS, EnumerateError, Job, PartResult, PartStats
from rushhour.errors import ParseError
from rushhour.files import Held, locked, make_folder, read_regular_file, write_text_atomic
from rushhour.formats.fogleman import parse_database_line

MANIFEST, DATABASE, PARTS = "manifest.json", "database.txt", "parts"
DIR_FORMAT = 2  # 2: layouts with a full lane are left out (format 1 held them)
#: a part's first line: its number, its statistics, and the length in bytes of the lines that follow
#: (parts written before it was there have none: they are read as before)
_HEADER = re.compile(
    r"# part (\d+) " + " ".join(rf"{f}=(\d+)" for f in STATS_FIELDS) + r"(?: bytes=(\d+))?\Z"
)


#: a part's file name: its number, six digits
PART_NAME = re.compile(r"\d{6}\.txt")


def parts_saved(root: str) -> int:
    """How many parts a database directory holds finished (0 when it holds none, or is not there)."""
    try:
        return sum(1 for name in os.listdir(os.path.join(root, PARTS)) if PART_NAME.fullmatch(name))
    except OSError:
        return 0


class PartStore:
    """``DIR/manifest.json`` (the job and its number of parts), ``DIR/parts/NNNNNN.txt`` (each finished
    part: a header with its statistics, then its lines) and, at the end, ``DIR/database.txt``.  Every
    file is written atomically, so a run stopped at any moment resumes from the parts on disk."""

    def __init__(self, root: str, job: Job, count: int) -> None:
        self.root, self.job, self.count = root, job, count
        self.parts_dir = os.path.join(root, PARTS)
        self._hold = contextlib.ExitStack()
        try:
            self._open(job)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Let another run use the directory."""
        self._hold.close()

    def __enter__(self) -> PartStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self, job: Job) -> None:
        root, count = self.root, self.count
        wanted = {"format": DIR_FORMAT, **job.describe(), "parts": count}
        try:
            make_folder(self.parts_dir)  # a file in the way is named
            path = os.path.join(root, MANIFEST)
            try:  # one run a directory: a second one would take the parts of the first for its own
                self._hold.enter_context(locked(path, error=EnumerateError, wait=False))
            except Held:
                raise EnumerateError(
                    f"{root} is in use by another run (it holds {path}.lock): wait for it to end, or use "
                    "another directory"
                ) from None
            if os.path.exists(path):
                found = json.loads(_read(path, "a database's manifest (use another directory)"))
                if not isinstance(found, dict) or "format" not in found:
                    raise ValueError("not a manifest")
                if found.get("format") != DIR_FORMAT:
                    raise EnumerateError(
                        f"{root} was written by another version of the enumerator (directory format "
                        f"{found.get('format')}, this one writes {DIR_FORMAT}): use another directory"
                    )
                if found != wanted:
                    raise EnumerateError(
                        f"{root} holds another database ({_describe(found)}); "
                        f"this one is {_describe(wanted)}: "
                        "use another directory"
                    )
            else:
                if any(PART_NAME.fullmatch(name) for name in os.listdir(self.parts_dir)):
                    raise EnumerateError(
                        f"{self.parts_dir} holds parts but {root} has no {MANIFEST}: they may be parts of "
                        f"another database; delete {self.parts_dir} to start afresh, or use another directory"
                    )
                write_text_atomic(path, json.dumps(wanted, indent=2) + "\n", error=EnumerateError)
        except OSError as err:
            raise EnumerateError(f"cannot use {root}: {err.strerror or err}") from None
        except (ValueError, RecursionError):
            raise EnumerateError(
                f"{root}/{MANIFEST} is not a manifest of this program: use another directory"
            ) from None

    def _path(self, index: int) -> str:
        return os.path.join(self.parts_dir, f"{index:06d}.txt")

    def save(self, index: int, result: PartResult) -> None:
        stats = " ".join(f"{f}={v}" for f, v in zip(STATS_FIELDS, result.stats, strict=True))
        body = "".join(f"{line}\n" for line in result.lines)
        # the length says when a file was cut short after this run wrote it whole (a copy that stopped
        # half way): its last line may still read as a line, with fewer digits
        text = f"# part {index} {stats} bytes={len(body.encode('utf-8'))}\n{body}"
        write_text_atomic(self._path(index), text, error=EnumerateError)

    def load(self) -> dict[int, PartResult]:
        """The parts already finished."""
        out = {}
        for name in sorted(os.listdir(self.parts_dir)):
            if name.endswith(".tmp"):  # a part being written when a run was killed
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(self.parts_dir, name))
                continue
            if not re.fullmatch(r"\d{6}\.txt", name):
                continue
            path = os.path.join(self.parts_dir, name)
            try:
                text = _read(path)
            except OSError as err:
                raise EnumerateError(f"cannot read {path}: {err.strerror or err}") from None
            lines = text.splitlines()
            head = _HEADER.match(lines[0]) if lines else None
            if head is None or int(head[1]) != int(name[:6]) or int(head[1]) >= self.count:
                raise EnumerateError(
                    f"{path}, line 1: not a part of this database (delete it to run the part again)"
                )
            *stats, length = head.groups()[1:]
            found = len(text.partition("\n")[2].encode("utf-8"))
            if length is not None and found < int(length):  # said first: its last line may look odd
                raise EnumerateError(
                    f"{path}: cut short ({found} bytes after its first line, which says {length}): not "
                    "a whole part (delete it to run the part again)"
                )
            for k, line in enumerate(lines[1:], 2):  # a line added is said as a line, when it is one
                self._check_line(line, path, k)
            if length is not None and found > int(length):
                raise EnumerateError(
                    f"{path}: {found} bytes after its first line, which says {length}: not the part "
                    "this program wrote (delete it to run the part again)"
                )
            out[int(head[1])] = PartResult(lines[1:], PartStats(*(int(v) for v in stats)))
        return out

    def _check_line(self, text: str, path: str, k: int) -> None:
        """Refuse a line of a part that this database cannot hold: another size's board, a distances
        field where the job has none (or none where it has), or a line that is not a database line."""
        try:  # the line's own sense (a cluster, distances that add up) is the format's to check
            entry = parse_database_line(text, source=path, line=k)
        except ParseError as err:
            raise EnumerateError(f"{err} (delete it to run the part again)") from None
        n, cells = self.job.size, len(entry.board)
        why = None
        if cells != n * n:
            why = f"a board of {cells} cells is not one of this {n}x{n} database"
        elif (entry.distances is not None) != self.job.distances:
            why = "distances where this database has none" if entry.distances else "no distances field"
        if why is not None:
            raise EnumerateError(f"{path}, line {k}: {why} (delete it to run the part again)")

    def finish(self, lines: Sequence[str]) -> str:
        path = os.path.join(self.root, DATABASE)
        write_text_atomic(path, "".join(f"{line}\n" for line in lines), error=EnumerateError)
        return path


#: the largest file of a database directory read back (a part of the 6x6 job is well under a megabyte)
MAX_PART_BYTES = 1 << 28


def _read(path: str, what: str = "a part of this database (delete it to run the part again)") -> str:
    """The text of a file of the directory: a regular file of UTF-8 text (a FIFO in a part's place would
    wait for ever, a device be read without end), else :class:`EnumerateError` saying what to do."""
    data = read_regular_file(path, MAX_PART_BYTES, what=what, error=EnumerateError)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise EnumerateError(f"{path} is not UTF-8 text: not {what}") from None


def _describe(manifest: dict[str, object]) -> str:
    walls = manifest.get("walls")
    ranged = f"{walls[0]}-{walls[1]}" if isinstance(walls, list) and len(walls) == 2 else "?"
    size, row, distances = manifest.get("size"), manifest.get("goal_row"), manifest.get("distances")
    return f"{size}, goal row {row}, walls {ranged}, distances {distances}, {manifest.get('parts')} parts"

