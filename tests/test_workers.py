"""Worker processes owned by the command that starts them (rushhour.workers): a worker ends when its
command ends, however it ends, SIGKILL included.  Each wait below is a guard against a hang only."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rushhour.formats import read_file
from rushhour.search.native import native_enabled
from rushhour.workers import ORPHANED, POLL_RESULTS, awaited, interrupt_as_flag
from tests.processes import ctrl_c, full_pipe, read_to_end, session
from tests.terminal import default_signals

PYTHON = [sys.executable, "-c"]
GUARD = 30  # seconds; the ends come within a second
posix = pytest.mark.skipif(os.name != "posix", reason="POSIX process ids and signals")
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux death signal")


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie has ended too)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + GUARD
    while not _gone(pid):
        assert time.monotonic() < deadline, f"process {pid} is still there"
        time.sleep(0.05)


def _sleeper() -> subprocess.Popen[str]:
    return subprocess.Popen([*PYTHON, "import time; time.sleep(600)"], text=True)


WATCHER = """
import os, sys, time
from rushhour import workers
if sys.argv[2] == "poll":  # as on a system without pidfds
    def nope(pid):
        raise OSError(38, "no pidfds here")
    os.pidfd_open = nope
workers.POLL_SECONDS = 0.05
workers.owned_by(int(sys.argv[1]))
print("ready", flush=True)
time.sleep(600)
"""


@posix
@pytest.mark.parametrize("way", ["pidfd", "poll"])
def test_a_worker_ends_when_its_owner_is_killed(way: str) -> None:
    owner = _sleeper()
    worker = subprocess.Popen([*PYTHON, WATCHER, str(owner.pid), way], stdout=subprocess.PIPE, text=True)
    try:
        assert worker.stdout is not None and worker.stdout.readline() == "ready\n"
        assert worker.poll() is None  # the owner is alive: the worker goes on
        owner.send_signal(signal.SIGKILL)
        owner.wait()
        assert worker.wait(timeout=GUARD) == ORPHANED
    finally:
        owner.kill()
        worker.kill()


@posix
def test_a_worker_whose_owner_is_already_gone_ends_at_once() -> None:
    owner = _sleeper()
    owner.kill()
    owner.wait()
    worker = subprocess.Popen([*PYTHON, WATCHER, str(owner.pid), "pidfd"], stdout=subprocess.PIPE, text=True)
    try:
        assert worker.wait(timeout=GUARD) == ORPHANED
    finally:
        worker.kill()


PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE, text=True)
assert child.stdout.readline() == "ready\\n"
print(child.pid, flush=True)
time.sleep(600)
"""
CHILD = """
from rushhour.workers import die_with_parent
import time
assert die_with_parent()
print("ready", flush=True)
time.sleep(600)
"""


@linux
def test_the_kernel_kills_a_child_that_asked_to_die_with_its_parent() -> None:
    parent = subprocess.Popen([*PYTHON, PARENT, CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert not _gone(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        _wait_gone(child)
    finally:
        parent.kill()


# --- commands killed with SIGKILL while their workers run ----------------------------------------------
RUSHHOUR = [sys.executable, "-m", "rushhour"]
needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the processes in /proc")


def _killed_leaves_nothing(argv: list[str], helpers: int, cwd: Path) -> None:
    """Start ``argv`` in a session of its own, with stdout and stderr on pipes that are full (so it cannot
    finish: it waits at its first write), wait for ``helpers`` more processes in its session (its
    workers...), kill it with SIGKILL: then readers of its pipes get to their end, and no process
    of its session is left."""
    out_r, out_w = full_pipe()
    err_r, err_w = full_pipe()
    proc = subprocess.Popen(argv, stdout=out_w, stderr=err_w, start_new_session=True, cwd=cwd)
    os.close(out_w)
    os.close(err_w)
    try:
        deadline = time.monotonic() + 120
        while len(session(proc.pid)) < 1 + helpers:
            assert proc.poll() is None, "the command ended before its workers were seen"
            assert time.monotonic() < deadline, f"no {helpers} helper processes: {session(proc.pid)}"
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        read_to_end([out_r, err_r], GUARD)
        deadline = time.monotonic() + GUARD
        while session(proc.pid):
            assert time.monotonic() < deadline, f"left behind: {session(proc.pid)}"
            time.sleep(0.05)
    finally:
        for pid in session(proc.pid):  # only when the test failed
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        os.close(out_r)
        os.close(err_r)


@needs_proc
def test_an_enumeration_killed_with_sigkill_leaves_no_process_and_no_open_pipe(tmp_path: Path) -> None:
    """The reproduction of issue 30 (its forkserver, resource tracker and both workers lived on, holding
    its stdout and stderr): progress on, so that the full stderr holds the run at its first report."""
    argv = [*RUSHHOUR, "enumerate", "--size", "5x5", "--walls", "0-1", "--workers", "2", "--out", "DIR"]
    _killed_leaves_nothing(argv, 4, tmp_path)  # resource tracker, forkserver, two workers


@needs_proc
def test_a_batch_solve_killed_with_sigkill_leaves_no_process_and_no_open_pipe(tmp_path: Path) -> None:
    lines = (Path(__file__).parent / "data" / "fogleman_slice_solve.txt").read_text()
    (tmp_path / "many.txt").write_text(lines * 20)  # more lines of results than a pipe and a buffer hold
    _killed_leaves_nothing([*RUSHHOUR, "solve", "--batch", "many.txt", "--jobs", "2"], 2, tmp_path)


# --- nothing but the command's own words on stderr, on every way out -----------------------------------
def _quiet_runs(count: int, tmp_path: Path) -> None:
    for k in range(count):
        argv = [*RUSHHOUR, "enumerate", "-q", "--size", "4x4", "--workers", "2", "--out", str(tmp_path / f"db{k}")]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), k


def test_a_quiet_enumeration_by_a_pool_prints_nothing(tmp_path: Path) -> None:
    _quiet_runs(3, tmp_path)


@pytest.mark.slow
def test_fifty_quiet_enumerations_by_a_pool_print_nothing(tmp_path: Path) -> None:
    """Issue 30: 2 runs of 8 printed 'Exception ignored in: <module 'threading'...>' as they exited."""
    _quiet_runs(50, tmp_path)


def _interrupted_enumeration(where: Path) -> None:
    argv = [*RUSHHOUR, "enumerate", "--size", "5x5", "--walls", "0-1", "--workers", "2", "--out", "DIR"]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=where, preexec_fn=default_signals
    )
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: a part is done, the others run
    assert first.startswith("enumerate: "), first
    _, rest = ctrl_c(proc, 120)
    assert proc.returncode == 130
    assert [line for line in rest.splitlines() if not line.startswith("enumerate: ")] == [
        "interrupted: the parts finished are saved in DIR; run the same command to resume"
    ]


@posix
def test_an_interrupted_enumeration_by_a_pool_says_only_how_to_resume(tmp_path: Path) -> None:
    _interrupted_enumeration(tmp_path)


@posix
@pytest.mark.slow
def test_forty_interrupted_enumerations_by_a_pool_all_end(tmp_path: Path) -> None:
    """1 run in 40 waited for ever: Ctrl-C came inside concurrent.futures.wait() while it held a future's
    lock, and the pool's shutdown then waited for that lock."""
    for k in range(40):
        (tmp_path / str(k)).mkdir()
        _interrupted_enumeration(tmp_path / str(k))


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own handling of SIGINT (KeyboardInterrupt) for one test, whatever pytest started with (a
    shell's background job starts with SIGINT ignored), and the handling it had afterwards."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@posix
@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_while_results_are_awaited_is_answered_between_two_waits() -> None:
    asked: list[float] = []

    def get(timeout: float) -> int:
        asked.append(timeout)
        if len(asked) == 2:
            os.kill(os.getpid(), signal.SIGINT)  # arrives inside a wait: it must not raise there
        raise multiprocessing.TimeoutError

    with pytest.raises(KeyboardInterrupt), interrupt_as_flag() as interrupted:
        awaited(get, interrupted)
    assert asked == [POLL_RESULTS, POLL_RESULTS]  # raised before the third wait, not inside the second
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@posix
@pytest.mark.usefixtures("python_sigint")
def test_a_ctrl_c_not_answered_inside_the_block_is_raised_as_it_ends() -> None:
    with pytest.raises(KeyboardInterrupt), interrupt_as_flag() as interrupted:
        os.kill(os.getpid(), signal.SIGINT)
        while not interrupted.is_set():
            time.sleep(0.01)
        finished = True
    assert finished


@posix
def test_an_interrupted_batch_solve_by_a_pool_ends_with_one_message(tmp_path: Path) -> None:
    lines = (Path(__file__).parent / "data" / "fogleman_slice_solve.txt").read_text()
    (tmp_path / "many.txt").write_text(lines * 40)  # far more than the run gets through
    argv = [*RUSHHOUR, "solve", "--batch", "many.txt", "--jobs", "2"]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, preexec_fn=default_signals
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the first row: the pool is answering
    assert first.startswith("many.txt:1 "), first
    _, err = ctrl_c(proc, 120)
    assert proc.returncode == 130
    assert err.split() == ["interrupted"]


@needs_proc
def test_a_generation_killed_with_sigkill_leaves_no_process_and_no_open_pipe(tmp_path: Path) -> None:
    argv = [*RUSHHOUR, "generate", "--count", "400", "--min-moves", "3", "--jobs", "2", "--seed", "3"]
    _killed_leaves_nothing(argv, 2, tmp_path)


GAME = """
import time
from rushhour.levels import resolve_board
from rushhour.play.worker import ProcessWorker

def endless(board):
    time.sleep(600)

worker = ProcessWorker(endless)
worker.start(resolve_board("classic:1").board, "hint")
print(worker._pid, flush=True)
time.sleep(600)
"""


@needs_proc
def test_the_search_beside_a_game_ends_with_the_game() -> None:
    game = subprocess.Popen([*PYTHON, GAME], stdout=subprocess.PIPE, text=True)
    search = 0
    try:
        assert game.stdout is not None
        search = int(game.stdout.readline())
        assert not _gone(search)
        game.send_signal(signal.SIGKILL)
        game.wait()
        _wait_gone(search)
    finally:
        game.kill()
        if search and not _gone(search):  # only when the test failed
            os.kill(search, signal.SIGKILL)


TIME_LIMITED_RUNS = """
import sys, time
from rushhour.generator import Generator, Settings
for k in range(int(sys.argv[1])):
    began = time.perf_counter()
    g = Generator(Settings(width=12, height=12, min_moves=15, seed=k + 1))
    list(g.run(10_000, jobs=2, time_limit=float(sys.argv[2])))
    print(k, round(time.perf_counter() - began, 1), flush=True)
"""


def _time_limited_generations(runs: int, seconds: float) -> None:
    """``runs`` generations on 2 jobs, each stopped by its time limit while both workers run a try: at the
    limit every running try returns at once, and the run's pool ends while they hand their results back.
    The runs must end within 5 s a run of their limits, all told."""
    argv = [sys.executable, "-c", TIME_LIMITED_RUNS, str(runs), str(seconds)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=runs * (seconds + 5) + 30)
    except subprocess.TimeoutExpired as hung:
        out = hung.stdout.decode() if isinstance(hung.stdout, bytes) else hung.stdout or ""
        last = (out.strip().splitlines() or ["none"])[-1]
        pytest.fail(f"a time-limited generation did not end (the last run that did: {last})")
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(done.stdout.splitlines()) == runs


def test_generations_stopped_at_their_time_limit_end() -> None:
    """A run's pool was a multiprocessing.Pool, whose terminate() could end a worker while it held the
    lock of the result queue; the pool's task thread then waited for that lock for ever (1 run in about
    20 of these, on 12x12, hung so)."""
    _time_limited_generations(15, 0.5)


@pytest.mark.slow
def test_a_hundred_and_fifty_generations_stopped_at_their_time_limit_end() -> None:
    _time_limited_generations(150, 1.0)


def _children(pid: int, sid: int) -> dict[int, bytes]:
    """The processes of session ``sid`` whose parent is ``pid``, with their command lines."""
    found = {}
    for other in session(sid):
        try:
            stat = Path(f"/proc/{other}/stat").read_text()
            cmdline = Path(f"/proc/{other}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found[other] = cmdline
    return found


def _workers_of(pid: int) -> list[int]:
    """The pool workers of process ``pid``: its children that are not multiprocessing's resource tracker
    and, with the forkserver start method, the forkserver's children."""
    found = []
    for child, cmdline in _children(pid, pid).items():
        if b"forkserver" in cmdline:
            found += list(_children(child, pid))
        elif b"resource_tracker" not in cmdline:
            found.append(child)
    return found


def _a_worker_killed(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """Start ``argv``, kill one of its pool's workers with SIGKILL once it has run a second (the kernel's
    out-of-memory killer does so), and give the command's exit status, stdout and stderr; no process may
    be left."""
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=cwd
    )
    try:
        deadline = time.monotonic() + 120
        while len(_workers_of(proc.pid)) < 2:
            assert proc.poll() is None, "the command ended before its workers were seen"
            assert time.monotonic() < deadline, f"no workers: {session(proc.pid)}"
            time.sleep(0.05)
        time.sleep(1.0)  # some answers in
        assert proc.poll() is None, "the command ended before a worker was killed"
        os.kill(_workers_of(proc.pid)[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=60)  # a multiprocessing.Pool waited here for ever
    finally:
        for pid in session(proc.pid):  # only when the test failed
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + GUARD
    while session(proc.pid):
        assert time.monotonic() < deadline, f"left behind: {session(proc.pid)}"
        time.sleep(0.05)
    return proc.returncode, out, err


@needs_proc
def test_a_generation_whose_worker_dies_says_so_and_writes_what_it_made(tmp_path: Path) -> None:
    """One message, and the puzzles made before the worker died written (here all at the end: --sort)."""
    out = tmp_path / "made.txt"
    argv = [*RUSHHOUR, "generate", "--count", "400", "--min-moves", "3", "--jobs", "2", "--seed", "3"]
    status, _, err = _a_worker_killed([*argv, "--sort", "-q", "--out", str(out)], tmp_path)
    assert status == 2
    assert err.splitlines() == ["error: a worker process died while making puzzles (is the machine out of memory?)"]
    assert 1 <= len(read_file(str(out))) < 400


@needs_proc
def test_a_batch_solve_whose_worker_dies_says_so(tmp_path: Path) -> None:
    lines = (Path(__file__).parent / "data" / "fogleman_slice_solve.txt").read_text()
    (tmp_path / "many.txt").write_text(lines * 40)  # far more than the run gets through
    status, _, err = _a_worker_killed([*RUSHHOUR, "solve", "--batch", "many.txt", "--jobs", "2"], tmp_path)
    assert status == 2
    assert err.splitlines() == ["error: a worker process died while solving (is the machine out of memory?)"]


@needs_proc
def test_an_enumeration_whose_worker_dies_runs_its_parts_again(tmp_path: Path) -> None:
    """The enumerator runs the parts a dead worker held again, in a new pool: the database comes out the
    same as one worker's, byte for byte."""
    walls = "0-1" if native_enabled() else "0-0"  # parts long enough to be killed in, on either path
    argv = [*RUSHHOUR, "enumerate", "--size", "5x5", "--walls", walls, "-q"]
    alone = subprocess.run([*argv, "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0, alone.stderr
    status, out, err = _a_worker_killed([*argv, "--workers", "2"], tmp_path)
    assert status == 0, err
    assert err == "" and out == alone.stdout


def _sigterm_is_default() -> bool:
    return signal.getsignal(signal.SIGTERM) is signal.SIG_DFL and signal.getsignal(signal.SIGHUP) is signal.SIG_DFL


@pytest.mark.skipif(os.name != "posix", reason="forked workers")
def test_a_forked_worker_ends_at_sigterm_as_a_process_does() -> None:
    """The command ends at SIGTERM as at Ctrl-C (its handler raises KeyboardInterrupt); a forked worker
    inherited that handler, so a pool ending its workers with SIGTERM after one was killed could wait
    for ever (generate, 2 hangs in 15 runs on a loaded machine)."""
    from rushhour.workers import owned_pool

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = {n: signal.signal(n, interrupt) for n in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with owned_pool(1, multiprocessing.get_context("fork"), "checking") as pool:
            assert pool.submit(_sigterm_is_default).result(timeout=60)
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
