"""``rushhour enumerate`` when things go wrong: a scheduler's address where nothing listens, a host
that does not exist, an address that cannot be one, a service that is not Dask; a local cluster beside
another scheduler of the machine; a part whose workers all died; an ``--out`` that is a file, or holds
one where a folder goes; a part file cut short or grown after it was written.  Each one is one
``error:`` line (or nothing at all), said at once where waiting cannot help, and nothing saved is lost."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rushhour.cli import main
from rushhour.database import EnumerateError, Job, build
from tests.cli import run
from tests.test_enumerate_cli import scheduler_address

RUSHHOUR = [sys.executable, "-m", "rushhour"]


@pytest.fixture
def dask_patient_two_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask tries an address for two seconds instead of twenty: a test that waits on it ends soon."""
    pytest.importorskip("distributed")
    from rushhour.database import parallel

    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 2)


def _enumerate(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["enumerate", "--size", "4x4", "-q", *args])
    return code, capsys.readouterr().err


@pytest.mark.usefixtures("dask_patient_two_seconds")
def test_a_port_where_nothing_listens_is_said_refused() -> None:
    """It was 'Timed out trying to connect', as if the machine did not answer."""
    with socket.socket() as taken:  # bound and not listening: a connection to it is refused
        taken.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{taken.getsockname()[1]}"
        with pytest.raises(EnumerateError) as refused:
            build(Job(4, 1), scheduler=address)
    said = str(refused.value)
    assert said.startswith(f"cannot reach the Dask scheduler at {address}: nothing accepts connections at 127.0.0.1:")
    assert "(connection refused, tried for 2 s): is the scheduler running" in said


@pytest.mark.usefixtures("dask_patient_two_seconds")
def test_a_host_that_does_not_exist_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    """Dask tried the name for its whole timeout and said it timed out.  (``.invalid`` never resolves.)"""
    code, err = _enumerate("--scheduler", "tcp://no-such-host.invalid:8786", capsys=capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(
        "error: cannot reach the Dask scheduler at tcp://no-such-host.invalid:8786: "
        "cannot find the host 'no-such-host.invalid' ("
    )


@pytest.mark.usefixtures("dask_patient_two_seconds")
@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tcp://127.0.0.1:99999", "tcp://127.0.0.1:99999: port 99999 is out of range (1 to 65535)"),
        ("tcp://127.0.0.1:abc", "tcp://127.0.0.1:abc: the port 'abc' is not a number (an address is tcp://HOST:PORT;"),
        ("127.0.0.1", "127.0.0.1: missing port number in address '127.0.0.1' (an address is tcp://HOST:PORT;"),
        ("inproc://x", "inproc://x: an inproc:// address names a scheduler inside one process"),
    ],
)
def test_an_address_that_cannot_be_a_schedulers_is_said(
    address: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _enumerate("--scheduler", address, "--out", str(tmp_path / "db"), capsys=capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: cannot reach the Dask scheduler at {message}"), err
    assert "resume" not in err  # nothing was saved


def test_an_empty_address_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    code, err = _enumerate("--scheduler", "", capsys=capsys)
    assert code == 2
    assert err == "error: the Dask scheduler's address is empty: give one like tcp://HOST:8786, or 'local'\n"


@contextlib.contextmanager
def _service(answer: bytes | None) -> Iterator[str]:
    """A TCP service of this machine that is not Dask: each connection is sent ``answer`` (then held
    open), or closed at once when ``answer`` is None.  Its address."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.1)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:  # the timeout: look at stop again
                continue
            if answer is None:
                conn.close()
            else:
                conn.sendall(answer)
                held.append(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        # Dask read the first bytes as a message's length and said "(MemoryError: )"
        (b"SSH-2.0-OpenSSH_9.6\r\n", "it does not answer as a Dask scheduler (what it sent is not Dask's protocol: "),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "what it sent is not Dask's protocol"),
        # Dask's insides: "in <TCP (closed)  local=tcp://... remote=tcp://...>: ConnectionResetError: ..."
        (None, "it closed the connection without answering as a Dask scheduler does: is it a scheduler's address?"),
    ],
)
def test_a_service_that_is_not_a_scheduler_is_said(
    answer: bytes | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    with _service(answer) as address:
        code, err = _enumerate("--scheduler", address, capsys=capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: cannot reach the Dask scheduler at {address}: ") and message in err, err
    assert "MemoryError" not in err and "<TCP" not in err


def test_a_local_cluster_beside_another_scheduler_says_nothing() -> None:
    """A scheduler of the machine (``dask scheduler``) holds port 8787 for its web server; the local
    cluster's scheduler, which starts one too, moved to another port with a warning of four lines on
    stderr, under ``-q``."""
    pytest.importorskip("distributed")
    with socket.socket() as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(OSError):  # else another program holds it already: the same case
            other.bind(("", 8787))
            other.listen()
        done = subprocess.run(
            [*RUSHHOUR, "enumerate", "--size", "4x4", "--scheduler", "local", "--workers", "1", "-q"],
            capture_output=True,
            text=True,
            timeout=180,
        )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("\n") == 32


@pytest.mark.parametrize(
    ("make", "out", "said"),
    [
        ("file", "db", "db is a file, not a folder"),
        ("file", "db/sub", "db is a file, not a folder"),
        ("parts-file", "db", "db/parts is a file, not a folder"),
    ],
)
def test_an_out_folder_that_is_a_file_is_named(
    make: str, out: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was ``cannot use DIR: Not a directory``, or ``File exists`` for a file named ``parts``."""
    db = tmp_path / "db"
    if make == "file":
        db.write_text("a file\n")
    else:
        db.mkdir()
        (db / "parts").write_text("a file\n")
    code, err = _enumerate("--workers", "1", "--out", str(tmp_path / out), capsys=capsys)
    assert code == 2
    assert err == f"error: cannot use {tmp_path / out}: {tmp_path / said}\n"


def _saved_4x4(tmp_path: Path) -> tuple[Job, Path, list[str]]:
    """A 4x4 database saved in ``tmp_path``: its job, its part 1 and its lines."""
    job = Job(4, 1)
    lines, _ = build(job, out=str(tmp_path))
    part = tmp_path / "parts" / "000001.txt"
    assert part.read_text().count("\n") > 2
    return job, part, lines


def test_a_part_cut_short_after_it_was_written_is_not_taken_as_done(tmp_path: Path) -> None:
    """A copy of the folder that stopped half way leaves a part cut short; its last line may still read
    as a line (``... 15`` cut to ``... 1``), and it was merged as it was."""
    job, part, lines = _saved_4x4(tmp_path)
    data = part.read_bytes()
    assert data[-4:-1].split()[-1].isdigit() and len(data[-4:-1].split()[-1]) > 1  # cut, still a number
    part.write_bytes(data[:-2])
    with pytest.raises(EnumerateError) as cut:
        build(job, out=str(tmp_path))
    assert str(cut.value).startswith(f"{part}: cut short (")
    assert str(cut.value).endswith("not a whole part (delete it to run the part again)")
    part.unlink()  # as it says: the part runs again, and the database is whole
    assert build(job, out=str(tmp_path))[0] == lines


def test_a_line_added_to_a_part_is_not_merged(tmp_path: Path) -> None:
    """A line of the database itself, written twice: the database held it twice."""
    job, part, _ = _saved_4x4(tmp_path)
    text = part.read_text()
    part.write_text(text + text.splitlines()[-1] + "\n")
    with pytest.raises(EnumerateError, match=r"000001\.txt: \d+ bytes after its first line, which says \d+: not the part"):
        build(job, out=str(tmp_path))


def test_parts_written_without_their_length_are_read_as_before(tmp_path: Path) -> None:
    """Parts saved by the version before the header had ``bytes=``: a run goes on from them."""
    job, _, lines = _saved_4x4(tmp_path)
    for part in (tmp_path / "parts").glob("*.txt"):
        head, _, body = part.read_text().partition("\n")
        assert " bytes=" in head
        part.write_text(head.rpartition(" bytes=")[0] + "\n" + body)
    (tmp_path / "database.txt").unlink()
    assert build(job, out=str(tmp_path))[0] == lines
    assert (tmp_path / "database.txt").read_text() == "".join(f"{line}\n" for line in lines)


def _parts_saved(out: Path) -> int:
    parts = out / "parts"
    return len([p for p in parts.iterdir() if p.suffix == ".txt"]) if parts.is_dir() else 0


def test_a_part_whose_workers_all_died_is_said_in_the_runs_words(tmp_path: Path) -> None:
    """Dask gives up a part when the workers running it died too often (its allowed-failures, here 0:
    the first death); its message asked to inspect logs and named a web page, after a task key."""
    pytest.importorskip("distributed")
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed")
    info = tmp_path / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
    here = ["--host", "127.0.0.1", "--no-dashboard"]
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--port", "0", "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(info), *here],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    procs = [scheduler]
    try:
        address = scheduler_address(info, 60)
        deadline = time.monotonic() + 60
        worker = subprocess.Popen(
            [dask, "worker", address, "--nthreads", "1", "--no-nanny", *here],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(worker)
        import distributed

        with distributed.Client(address, timeout="20s") as client:  # the worker has joined
            while not client.nthreads():
                assert time.monotonic() < deadline + 60 and worker.poll() is None, "the worker did not join"
                time.sleep(0.1)
        out = tmp_path / "db"
        run = subprocess.Popen(
            [*RUSHHOUR, "enumerate", "--size", "5x5", "--walls", "0-1", "--scheduler", address, "--out", str(out), "-q"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(run)
        # one part saved: the worker has the others (110 in all), and runs one of them
        deadline = time.monotonic() + 120
        while _parts_saved(out) < 1:
            assert time.monotonic() < deadline and run.poll() is None, "no part was saved"
            time.sleep(0.02)
        worker.send_signal(signal.SIGKILL)
        _, said = run.communicate(timeout=120)
        # the scheduler may say first that no worker is left (true: the parts would wait for one)
        *before, err = said.splitlines()
        lonely = f"warning: the Dask scheduler at {address} has no workers left: the parts wait for some"
        assert all(line.startswith(lonely) for line in before) and len(before) <= 1, said
        assert run.returncode == 2 and "Traceback" not in said, said
        assert err.startswith(f"error: the Dask cluster at {address} stopped the run: 1 worker died while running part ")
        assert "as many as the scheduler allows (its distributed.scheduler.allowed-failures, plus one)" in err
        assert err.rstrip().endswith(f"the parts finished are saved in {out}: run the same command to resume")
        assert "https://" not in err and "rushhour-part-" not in err
    finally:
        for proc in reversed(procs):
            proc.kill()
            proc.wait(timeout=60)


def test_a_database_that_cannot_be_written_at_the_end_says_the_parts_are_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last file of a run (a disk that fills up just then, a folder in its place) said only that it
    could not be written, after hours of work that was in fact all saved."""
    (tmp_path / "database.txt").mkdir()
    code, err = _enumerate("--workers", "1", "--out", str(tmp_path), capsys=capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: cannot write {tmp_path / 'database.txt'}: it is a folder, not a regular file; ")
    assert err.endswith(f"every part is saved in {tmp_path}: run the same command to write it again\n")
    assert sorted(p.name for p in (tmp_path / "parts").iterdir()) == [f"{i:06d}.txt" for i in range(3)]
    (tmp_path / "database.txt").rmdir()
    assert _enumerate("--workers", "1", "--out", str(tmp_path), capsys=capsys) == (0, "")
    assert (tmp_path / "database.txt").read_text().count("\n") == 32


def test_without_dask_a_scheduler_is_refused_naming_the_extra_before_out_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without Dask the run made DIR, its manifest, lock and parts folder, then said to install
    'dask[distributed]', which an install from a wheel gets as the package's extra."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    out = tmp_path / "db"
    status, _, err = run(capsys, "enumerate", "--size", "4x4", "--scheduler", "local", "--out", str(out), "-q")
    assert status == 2 and "pip install 'rushhour[cluster]'" in err, err
    assert not out.exists()


def test_ctrl_c_before_any_part_is_finished_does_not_say_parts_are_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the run still connected to its scheduler (or before its first part) said "the
    parts finished are saved in DIR" where none were."""
    import rushhour.cli.enumerate as enumerate_command

    def interrupted(*args: object, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(enumerate_command, "build", interrupted)
    out = tmp_path / "db"
    status, _, err = run(capsys, "enumerate", "--size", "4x4", "--out", str(out), "-q")
    assert status == 130 and err == "interrupted before a part was finished: run the same command to start\n"
    (out / "parts").mkdir(parents=True)
    (out / "parts" / "000003.txt").write_text("# part 3\n")  # one part on disk: that is what is said
    status, _, err = run(capsys, "enumerate", "--size", "4x4", "--out", str(out), "-q")
    assert status == 130 and err.startswith(f"interrupted: the parts finished are saved in {out};")
