"""``rushhour enumerate`` as a user runs it: the same bytes whatever the workers or the engine (a process
pool, or a real Dask cluster of a scheduler and two workers in separate processes), runs killed with
SIGKILL and resumed, and bad input answered with one ``error:`` line."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rushhour.cli import main
from rushhour.database import EnumerateError
from rushhour.search.native import native_enabled
from tests.processes import ctrl_c, full_pipe
from tests.terminal import default_signals

RUSHHOUR = [sys.executable, "-m", "rushhour"]


def _run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RUSHHOUR, *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def five() -> str:
    """The complete 5x5 database without walls, by one worker."""
    done = _run("enumerate", "--size", "5x5", "--workers", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") > 1000
    return done.stdout


def test_the_process_pool_gives_the_same_bytes(five: str) -> None:
    done = _run("enumerate", "--size", "5x5", "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == five
    assert "16/16 parts" in done.stderr and "puzzles" in done.stderr


def _wait_for(path: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} did not appear")
        time.sleep(0.1)


def scheduler_address(info: Path, seconds: float) -> str:
    """The address a scheduler wrote to its ``--scheduler-file``, once the file is there whole (it may be
    seen before the scheduler has finished writing it)."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError, ValueError, KeyError):
            return str(json.loads(info.read_text())["address"])
        if time.monotonic() > deadline:
            raise AssertionError(f"{info} did not appear whole")
        time.sleep(0.1)


def test_a_dask_cluster_of_separate_processes_gives_the_same_bytes(five: str, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed")
    info = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(info), *common],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        address = scheduler_address(info, 60)
        # started before any worker: it says so, and goes on once workers come
        early = subprocess.Popen(
            [*RUSHHOUR, "enumerate", "--size", "5x5", "--scheduler", address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert early.stderr is not None
        assert early.stderr.readline().startswith(f"warning: the Dask scheduler at {address} has no workers: ")
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1", *common],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        out, err = early.communicate(timeout=240)
        assert early.returncode == 0, err
        assert out == five
        # a worker's address where the scheduler's goes: one line, not Dask's traceback
        import distributed

        with distributed.Client(address, timeout="20s") as client:
            worker = next(iter(client.scheduler_info()["workers"]))
        wrong = _run("enumerate", "--size", "4x4", "--scheduler", worker, "-q")
        assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1, wrong.stderr
        assert wrong.stderr.startswith(f"error: cannot reach the Dask scheduler at {worker}: it does not answer as")
        # the scheduler killed mid-run: one line saying so, the parts finished kept, and a run on
        # another cluster (the local one) goes on from them to the same database
        out = tmp_path / "db"
        walls = "0-1" if native_enabled() else "0-0"  # a job that lasts a while and ends in time, either path
        run = subprocess.Popen(
            [*RUSHHOUR, "enumerate", "--size", "5x5", "--walls", walls, "--scheduler", address, "--out", str(out), "-q"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while len(_parts(out)) < 3 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
        procs[0].kill()
        _, err = run.communicate(timeout=120)
        assert run.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith(f"error: the Dask cluster at {address} stopped the run: its scheduler went away")
        assert err.rstrip().endswith(f"the parts finished are saved in {out}: run the same command to resume")
        saved = len(_parts(out))
        assert saved >= 3
        again = _run("enumerate", "--size", "5x5", "--walls", walls, "--out", str(out), "--workers", "1", "-q")
        assert again.returncode == 0, again.stderr
        whole = _run("enumerate", "--size", "5x5", "--walls", walls, "--workers", "1", "-q")
        assert (out / "database.txt").read_text() == whole.stdout
    finally:
        _end(procs)


def _end(procs: list[Any]) -> None:
    """The scheduler and workers of a test ended, the last started first; killed when they linger."""
    for proc in reversed(procs):
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _parts(out: Path) -> list[str]:
    parts = out / "parts"
    return sorted(p.name for p in parts.iterdir() if p.suffix == ".txt") if parts.is_dir() else []


def test_a_run_killed_mid_way_again_and_again_resumes_to_the_same_file(five: str, tmp_path: Path) -> None:
    """Each run is held at a known point, whatever the machine's speed: its first progress line goes to
    a full pipe, and it writes one after saving the first part it finished.  So the kill lands after
    that part is saved, while the rest of the job is still to do, and each run adds one part."""
    out = tmp_path / "db"
    args = [*RUSHHOUR, "enumerate", "--size", "5x5", "--workers", "1", "--out", str(out)]
    for attempt in range(1, 5):
        read_end, write_end = full_pipe()
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=write_end)
        try:
            deadline = time.monotonic() + 120  # a hang guard only: the run stops itself
            while len(_parts(out)) < attempt and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            assert proc.poll() is None, "the run ended instead of waiting on its stderr"
            assert len(_parts(out)) == attempt and not (out / "database.txt").exists()
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
        finally:
            proc.kill()
            os.close(read_end)
            os.close(write_end)
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (out / "database.txt").read_text() == five
    assert _parts(out) == [f"{i:06d}.txt" for i in range(16)]


def test_an_interrupted_run_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "db"
    proc = subprocess.Popen(
        [*RUSHHOUR, "enumerate", "--size", "5x5", "--walls", "0-1", "--workers", "1", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,  # a shell's background jobs ignore SIGINT, and so would the command
    )
    _wait_for(out / "parts" / "000001.txt", 60)
    _, err = ctrl_c(proc, 60)
    assert proc.returncode == 130
    assert "run the same command to resume" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "5x4"], "not square"),
        (["--size", "9x9"], "out of range"),
        (["--size", "6x6", "--walls", "2-1"], "runs backwards"),
        (["--size", "6x6", "--goal-row", "7"], "--goal-row 7 is off a 6x6 board (rows 0 to 5)"),
        (["--size", "4x4", "--walls", "0-15"], "--walls 0-15 does not fit a 4x4 board (at most 14 walls)"),
        (["--size", "6x6", "--shard-of", "ooBoooooBoooAABoooooooooooooooooooo"], "--shard-of: a Fogleman board is square"),
        (["--size", "6x6", "--shard-of", "ooxoooooBoooAABooooooooooooooooooooo"], "--shard-of: the board has 1 wall"),
        (["--size", "4x4", "--shard-of", "xx BBoFAAoFECCCEDDD 3"], "--shard-of: database line moves field 'xx'"),
        (["--size", "6x6", "--shard-of", "ooBoooooBoooAABooooooooooooooooooooo", "--out", "x"], "--out"),
    ],
)
def test_bad_input_is_one_error_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["enumerate", *args])
    except SystemExit as stop:  # argparse's own errors
        code = int(stop.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err


def test_an_address_that_never_answers_as_a_scheduler_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scheduler's dashboard, a web server: the connection is taken and never answered, and the run
    waited for ever."""
    pytest.importorskip("distributed")
    import socket

    from rushhour.database import Job, build, parallel

    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 1)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        started = time.monotonic()
        with pytest.raises(EnumerateError, match=f"(no Dask scheduler answered|cannot reach the Dask scheduler) at {address}"):
            build(Job(4, 1), scheduler=address)
        assert time.monotonic() - started < 30


@pytest.mark.parametrize("scheme", ["tls", "ucx"])
def test_a_scheme_dask_cannot_use_here_is_one_error_line(
    scheme: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    out = str(tmp_path / "db")
    assert main(["enumerate", "--size", "4x4", "--scheduler", f"{scheme}://127.0.0.1:1", "--out", out, "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot reach the Dask scheduler at {scheme}://127.0.0.1:1: ") and err.count("\n") == 1
    assert "resume" not in err  # nothing was saved to resume from


def test_a_directory_of_another_database_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["enumerate", "--size", "4x4", "--out", str(tmp_path), "-q"]) == 0
    assert main(["enumerate", "--size", "4x4", "--walls", "0-1", "--out", str(tmp_path), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "another database" in err and err.count("\n") == 1


def test_shard_of_prints_the_shard_of_a_published_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = "17 GBBoJKGxIoJKAAIooKDDDooooHEEFFoHoooo 1900"
    assert main(["enumerate", "--size", "6x6", "--walls", "0-2", "--shard-of", line.split()[1], "-q"]) == 0
    assert line in capsys.readouterr().out.splitlines()
    # the summary's counts agree with their number: one puzzle, one shard
    assert main(["enumerate", "--size", "6x6", "--walls", "0-2", "--shard-of", line.split()[1]]) == 0
    summary = capsys.readouterr().err.splitlines()[-1]
    assert summary.startswith("6x6, walls 0-2: 1 puzzle; 1 shard, 2 clusters with a win, 2,065 positions in ")


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(x) for x in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_a_worker_killed_with_sigkill_loses_no_part(five: str, tmp_path: Path) -> None:
    out = tmp_path / "db"
    proc = subprocess.Popen(
        [*RUSHHOUR, "enumerate", "--size", "5x5", "--workers", "2", "--out", str(out), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    _wait_for(out / "manifest.json", 60)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while not workers and time.monotonic() < deadline and proc.poll() is None:
        # the pool's workers are the children of its server process
        workers = [w for server in _children(proc.pid) for w in _children(server)]
        time.sleep(0.05)
    assert workers, "no worker process was found"
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert (out / "database.txt").read_text() == five


def _dask_command() -> str:
    pytest.importorskip("distributed")
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed")
    return dask


def _fake_rushhour(folder: Path, body: str) -> dict[str, str]:
    """The environment of a worker whose ``import rushhour`` finds ``body`` first."""
    (folder / "rushhour").mkdir(parents=True)
    (folder / "rushhour" / "__init__.py").write_text(body)
    return {**os.environ, "PYTHONPATH": str(folder)}


def _dask_process(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [_dask_command(), *args, "--no-dashboard"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _workers_of(address: str, count: int) -> None:
    """Wait until the scheduler at ``address`` has ``count`` workers."""
    import distributed

    deadline = time.monotonic() + 60
    with distributed.Client(address, timeout="20s") as client:
        while len(client.nthreads()) != count:
            assert time.monotonic() < deadline, f"the scheduler never had {count} workers"
            time.sleep(0.1)


def test_workers_without_this_rushhour_are_said_not_waited_for(tmp_path: Path) -> None:
    """A worker that cannot import rushhour leaves the cluster at its first part, which Dask does not
    tell the client: the run waited for ever with nothing said.  A worker of another version is
    refused; one that joins and leaves at once is said, and the run goes on when a real worker comes."""
    info = tmp_path / "scheduler.json"
    one = ["--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1"]
    procs = [_dask_process("scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", str(info))]
    try:
        address = scheduler_address(info, 60)
        old = _dask_process("worker", address, *one, env=_fake_rushhour(tmp_path / "old", '__version__ = "0.0.1"\n'))
        procs.append(old)
        _workers_of(address, 1)
        refused = _run("enumerate", "--size", "4x4", "--scheduler", address, "-q")
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
        assert refused.stderr.startswith("error: the Dask worker at tcp://127.0.0.1:")
        assert "runs rushhour 0.0.1, this run " in refused.stderr
        old.terminate()
        _workers_of(address, 0)

        run = subprocess.Popen(
            [*RUSHHOUR, "enumerate", "--size", "4x4", "--scheduler", address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert run.stderr is not None
        assert "has no workers" in run.stderr.readline()
        broken = _fake_rushhour(tmp_path / "broken", 'raise ImportError("no rushhour here")\n')
        procs.append(_dask_process("worker", address, *one, env=broken))
        said = [run.stderr.readline(), run.stderr.readline()]
        assert said[0].startswith("warning: the Dask worker at tcp://127.0.0.1:"), said
        assert "a worker that cannot import rushhour leaves at its first part" in said[0]
        assert said[1].startswith(f"warning: the Dask scheduler at {address} has no workers left"), said
        procs.append(_dask_process("worker", address, *one))
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert out == _run("enumerate", "--size", "4x4", "--workers", "1", "-q").stdout
    finally:
        _end(procs)
