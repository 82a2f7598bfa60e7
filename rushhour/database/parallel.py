"""How the parts of a database run, the one place that knows (docs/enumerate.md, "Engines"): the runner,
above the search of one part and below the build.

* a local process pool (the default): ``workers`` processes of this machine; a worker that dies (killed,
  out of memory) breaks the pool, which is built again and the unfinished parts are run again;
* Dask distributed (the optional ``rushhour[cluster]`` extra): ``scheduler`` is the address of a running
  scheduler (``tcp://host:8786``), or ``local`` to start a scheduler and ``workers`` worker processes on
  this machine.  Dask retries a failed task and reruns the tasks of a worker it loses.

Whatever runs them, every part is computed by :func:`rushhour.database.part.run_part` and handed to
``on_result`` in the calling process, as parts finish (in any order): the caller writes them.  Nothing
else in the package imports Dask.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from rushhour import workers as workers_module
from rushhour.database.definitions import EnumerateError, Job, Part, PartResult
from rushhour.database.part import run_part
from rushhour.errors import RushHourError, WorkerError
from rushhour.text import plural
from rushhour.version import __version__

OnResult = Callable[[int, PartResult], None]
RETRIES = 3  # times a part is tried again after its worker was lost


def default_workers() -> int:
    """All the cores this process may use."""
    return workers_module.usable_cores()


def run(
    job: Job,
    todo: Sequence[tuple[int, Part]],
    on_result: OnResult,
    *,
    workers: int,
    scheduler: str | None = None,
    native: bool | None = None,
    note: Callable[[str], None] | None = None,
) -> None:
    """Run the parts ``todo`` (index, part) and call ``on_result(index, result)`` for each one;
    ``note`` hears what a person waiting should know."""
    if not todo:
        return
    if scheduler is not None:
        _run_dask(job, todo, on_result, workers=workers, scheduler=scheduler, native=native, note=note)
    elif workers == 1 or not workers_module.may_start_processes():  # the same parts, in a pool's worker too
        for index, part in todo:
            on_result(index, run_part(job, part, native))
    else:
        _run_pool(job, todo, on_result, workers=workers, native=native)


def _run_pool(
    job: Job, todo: Sequence[tuple[int, Part]], on_result: OnResult, *, workers: int, native: bool | None
) -> None:
    pending = dict(todo)
    losses: dict[int, int] = {}
    context = workers_module.context()  # the forkserver on POSIX, which dies with this process
    with workers_module.interrupt_as_flag() as interrupted:
        while pending:
            try:
                # an interrupt or an error ends the pool's workers: no worker goes on with its part
                with workers_module.owned_pool(min(workers, len(pending)), context, "enumerating") as pool:
                    _run_parts(pool, job, pending, on_result, native, interrupted)
            except WorkerError:
                # a worker died: the parts it had not finished run again in a new pool
                for index in pending:
                    losses[index] = losses.get(index, 0) + 1
                worst = max(losses.values())
                if worst > RETRIES:
                    raise EnumerateError(
                        f"a worker process died {worst} times while parts were running; stopping "
                        "(is the machine out of memory?)"
                    ) from None


def _run_parts(
    pool: ProcessPoolExecutor,
    job: Job,
    pending: dict[int, Part],
    on_result: OnResult,
    native: bool | None,
    interrupted: threading.Event,
) -> None:
    """Every part of ``pending`` run by ``pool``; each one's result given to ``on_result`` as it comes,
    and the part taken out of ``pending``."""
    running: dict[Future[PartResult], int] = {
        pool.submit(run_part, job, part, native): index for index, part in sorted(pending.items())
    }
    while running:
        done, _ = wait(running, timeout=workers_module.POLL_RESULTS, return_when=FIRST_COMPLETED)
        for future in done:
            index = running.pop(future)
            result = future.result()
            del pending[index]
            on_result(index, result)
        if interrupted.is_set():  # Ctrl-C, answered here and not inside wait()'s locks
            raise KeyboardInterrupt


def require_dask() -> Any:
    """The ``distributed`` module, or :class:`EnumerateError` naming the extra that installs it."""
    try:
        import distributed
    except ImportError:
        raise EnumerateError(
            "a Dask scheduler needs Dask distributed, which is not installed: pip install "
            "'rushhour[cluster]' ('.[cluster]' in the source folder)"
        ) from None
    return distributed


#: how long a scheduler has to answer as one (an address that is not a scheduler's, like its
#: dashboard's, may accept the connection and never answer)
CONNECT_SECONDS = 20


@contextlib.contextmanager
def _dask_logs_quiet() -> Iterator[None]:
    """Dask's own log lines (a worker lost, a task rescheduled, tracebacks of a connection that broke)
    are not the program's messages: the run says what matters in its own words.  The loggers made
    later (a connection's, on the first error) take the level of their parents set here."""
    roots = ("distributed", "tornado")  # tornado: the network layer under Dask, which logs its errors too
    below = tuple(f"{root}." for root in roots)
    names = [*roots, *(name for name in logging.root.manager.loggerDict if name.startswith(below))]
    levels = {name: logging.getLogger(name).level for name in names}  # Dask sets some of its own
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)  # none of them
    try:
        yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


#: the schemes whose addresses are HOST:PORT, checked before Dask is asked
HOST_PORT_SCHEMES = ("tcp", "tls", "ws", "wss")


def _host_port(distributed: Any, scheduler: str) -> tuple[str, int] | None:
    """The host and port of a scheduler's address (None for a scheme without them, like ``ucx``), or
    :class:`EnumerateError` at once for an address that cannot be one (Dask would try it for
    :data:`CONNECT_SECONDS`, or say it in its own terms)."""
    cannot = f"cannot reach the Dask scheduler at {scheduler}"
    if not scheduler.strip():
        raise EnumerateError(
            "the Dask scheduler's address is empty: give one like tcp://HOST:8786, or 'local'"
        )
    try:
        scheme, where = distributed.comm.parse_address(scheduler)
    except ValueError as err:
        raise EnumerateError(f"{cannot}: {err}") from None
    if scheme == "inproc":
        raise EnumerateError(
            f"{cannot}: an inproc:// address names a scheduler inside one process, not one this command "
            "can reach: give its tcp://HOST:PORT"
        )
    if scheme not in HOST_PORT_SCHEMES:
        return None
    try:
        host, port = distributed.comm.parse_host_port(where)
    except ValueError as err:
        text = where.rpartition(":")[2] if ":" in where else None
        why = f"the port {text!r} is not a number" if text is not None and not text.isdigit() else str(err)
        raise EnumerateError(
            f"{cannot}: {why} (an address is {scheme}://HOST:PORT; a scheduler's port is 8786 unless set)"
        ) from None
    if not 0 < port < 65536:
        raise EnumerateError(f"{cannot}: port {port} is out of range (1 to 65535)")
    return host, port


def _causes(err: BaseException) -> list[BaseException]:
    """``err`` and the errors it was raised from, outermost first."""
    found: list[BaseException] = []
    cause: BaseException | None = err
    while cause is not None and cause not in found:
        found.append(cause)
        cause = cause.__cause__ or cause.__context__
    return found


def _refused(where: tuple[str, int] | None) -> bool:
    """Whether a plain connection to ``where`` is refused (nothing listens there)."""
    if where is None or not where[0]:
        return False
    try:
        with socket.create_connection(where, timeout=5):
            return False
    except ConnectionRefusedError:
        return True
    except OSError:
        return False


def _why_not(err: BaseException, where: tuple[str, int] | None) -> str:
    """Why a scheduler could not be reached, in a user's words."""
    causes = _causes(err)
    place = f"{where[0]}:{where[1]}" if where is not None else "that address"
    if isinstance(err, socket.gaierror) and where is not None:
        return f"cannot find the host {where[0]!r} ({err.strerror or err})"
    if isinstance(err, OSError) and str(err).startswith("Timed out trying to connect"):
        # Dask keeps only its last try's error, which on a busy machine may be a try it cut short
        if any(isinstance(c, ConnectionRefusedError) for c in causes) or _refused(where):
            return (
                f"nothing accepts connections at {place} (connection refused, tried for "
                f"{CONNECT_SECONDS} s): is the scheduler running, and is this its port (8786 unless set)?"
            )
        return (
            f"no answer from {place} within {CONNECT_SECONDS} s (is the machine up, is a firewall in the "
            "way?)"
        )
    if any(isinstance(c, (ConnectionResetError, BrokenPipeError)) for c in causes) or (
        type(err).__name__ == "CommClosedError"
    ):
        return (
            "it closed the connection without answering as a Dask scheduler does: is it a scheduler's "
            "address?"
        )
    if isinstance(err, MemoryError):  # Dask read what came first as the length of a message
        return (
            "it does not answer as a Dask scheduler (what it sent is not Dask's protocol: the port of "
            "another service, like a web server?)"
        )
    if isinstance(err, (OSError, TimeoutError, ValueError)):
        return str(err)
    # a worker's or a TLS scheduler's address: Dask's own errors, about its insides
    return f"it does not answer as a Dask scheduler ({type(err).__name__}: {err})"


def _connect(distributed: Any, scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``, or :class:`EnumerateError` saying why not.  An address
    that cannot be one, or whose host has no address, is refused at once; a port where nothing listens
    is tried again for :data:`CONNECT_SECONDS` (a scheduler may be starting), as Dask does."""
    where = _host_port(distributed, scheduler)
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            if where is not None and where[0]:  # Dask tries an unknown host name for the whole timeout
                socket.getaddrinfo(where[0], where[1], type=socket.SOCK_STREAM)
            box["client"] = distributed.Client(scheduler, timeout=f"{CONNECT_SECONDS}s")
        except BaseException as err:  # noqa: BLE001 - said below, in the caller's thread
            box["error"] = err

    thread = threading.Thread(target=connect, name="rushhour-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 5)  # Dask's own timeout first, where it applies
    if thread.is_alive():
        raise EnumerateError(
            f"no Dask scheduler answered at {scheduler} within {CONNECT_SECONDS + 5} s: is it a scheduler's "
            "address (port 8786 unless set), not its dashboard's (8787) or a worker's?"
        )
    err = box.get("error")
    if err is None:
        return box["client"]
    raise EnumerateError(f"cannot reach the Dask scheduler at {scheduler}: {_why_not(err, where)}")


def _run_dask(
    job: Job,
    todo: Sequence[tuple[int, Part]],
    on_result: OnResult,
    *,
    workers: int,
    scheduler: str,
    native: bool | None,
    note: Callable[[str], None] | None,
) -> None:
    distributed = require_dask()
    cluster = client = None
    with _dask_logs_quiet():
        try:
            if scheduler == "local":
                # a Ctrl-C that stops a cluster half way started breaks it (a traceback at exit, a
                # 60 s wait): answered once it has started
                with workers_module.interrupt_as_flag():
                    try:
                        cluster = distributed.LocalCluster(
                            n_workers=workers,
                            threads_per_worker=1,
                            processes=True,
                            dashboard_address=None,
                            # no dashboard, and the scheduler's web server (which it starts anyway) on a
                            # free port: on its usual 8787, held by another scheduler of the machine,
                            # it moved with a warning of several lines on stderr
                            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                            silence_logs=logging.CRITICAL + 1,
                        )
                        client = distributed.Client(cluster)
                    except Exception as err:
                        raise EnumerateError(f"cannot start a local Dask cluster: {err}") from None
            else:
                client = _connect(distributed, scheduler)
                if note is not None and not client.scheduler_info().get("workers"):
                    note(
                        f"warning: the Dask scheduler at {scheduler} has no workers: the parts wait for "
                        f"some (dask worker {scheduler} starts one; Ctrl-C stops the run)"
                    )
            _run_on(distributed, client, job, todo, on_result, scheduler=scheduler, native=native, note=note)
        finally:
            # and the same while it stops: a second Ctrl-C, after the first, waited 60 s for Dask
            with workers_module.interrupt_as_flag(), contextlib.suppress(Exception):
                if client is not None:
                    client.close(timeout=10)
                if cluster is not None:
                    cluster.close(timeout=10)


#: what a worker is asked, as text it evaluates: the rushhour it imports.  Nothing of rushhour goes with
#: it, so a worker without rushhour answers with its ImportError instead of leaving the cluster
VERSION_QUESTION = "__import__('rushhour').__version__"
#: how often a run looks for workers that joined the cluster since it last looked
WATCH_SECONDS = 1.0


class _Workers:
    """The cluster's workers as a run sees them.  A part is rushhour's function: a worker that cannot
    import rushhour cannot even read it, and leaves the cluster at its first part, which Dask does not
    report to the client: the run would wait for ever, with nothing said.  So every worker is asked
    which rushhour it imports before it is given a part (those there at the start) or within
    :data:`WATCH_SECONDS` of joining (those that come later).  One that joins and leaves before it is
    asked (it took a part at once) is said, and so is a cluster left with no worker while parts
    remain."""

    def __init__(self, client: Any, scheduler: str, note: Callable[[str], None] | None) -> None:
        self.client = client
        self.scheduler = scheduler
        self.note = note
        self.asked: set[str] = set()
        self.joined: set[str] = set()  # every worker that joined during the run, told by the scheduler
        self.said_gone = self.said_none = False
        self.next_look = 0.0
        client.subscribe_topic("all", self._event)

    def _event(self, event: tuple[float, Any]) -> None:
        """The scheduler's news, in the client's thread: only the workers that join matter here."""
        message = event[1]
        if isinstance(message, dict) and message.get("action") == "add-worker":
            self.joined.add(str(message.get("worker")))

    def look(self) -> None:
        """Ask the workers that joined since the last look; :class:`EnumerateError` for one whose
        rushhour is missing or another version."""
        now = time.monotonic()
        if now < self.next_look:
            return
        self.next_look = now + WATCH_SECONDS
        present = set(self.client.nthreads())
        new = sorted(present - self.asked)
        if new:
            answers = self.client.run(eval, VERSION_QUESTION, workers=new, on_error="return")
            for address, answer in sorted(answers.items()):
                if isinstance(answer, ImportError):
                    raise EnumerateError(
                        f"the Dask worker at {address} cannot import rushhour ({type(answer).__name__}: "
                        f"{answer}): install rushhour {__version__} where every worker runs"
                    )
                if isinstance(answer, str) and answer != __version__:
                    raise EnumerateError(
                        f"the Dask worker at {address} runs rushhour {answer}, this run {__version__}: "
                        "install the same version where every worker runs"
                    )
                # any other answer: the worker went away while asked; the scheduler reruns its parts
            self.asked.update(new)
        gone = sorted(set(self.joined) - present - self.asked)
        if gone and not self.said_gone and self.note is not None:
            self.said_gone = True
            self.note(
                f"warning: the Dask worker at {gone[0]} left the cluster before it could be asked which "
                "rushhour it runs; a worker that cannot import rushhour leaves at its first part: is "
                f"rushhour {__version__} installed where the workers run?"
            )
        if present:
            self.said_none = False
        elif (self.asked or self.joined) and not self.said_none and self.note is not None:
            self.said_none = True
            self.note(
                f"warning: the Dask scheduler at {self.scheduler} has no workers left: the parts wait for "
                "some (Ctrl-C stops the run)"
            )


def _run_on(
    distributed: Any,
    client: Any,
    job: Job,
    todo: Sequence[tuple[int, Part]],
    on_result: OnResult,
    *,
    scheduler: str,
    native: bool | None,
    note: Callable[[str], None] | None = None,
) -> None:
    try:
        cluster_workers = _Workers(client, scheduler, note)
        cluster_workers.look()  # before any part is given to a worker that cannot read it
    except RushHourError:
        raise
    except Exception as err:  # the scheduler went away while asked
        raise EnumerateError(f"the Dask cluster at {scheduler} stopped the run: {err}") from None
    token = uuid.uuid4().hex  # keys unique on a scheduler shared by several runs
    index_of = {}
    futures = []
    for index, part in todo:
        future = client.submit(
            run_part, job, part, native, key=f"rushhour-part-{index}-{token}", retries=RETRIES, pure=False
        )
        index_of[future.key] = index
        futures.append(future)
    completed = distributed.as_completed(futures, with_results=True)
    # only as_completed holds the futures now, and each one is let go once its result is saved: a
    # finished part's result leaves the cluster, and a worker lost later is not asked to run it again
    futures.clear()
    try:
        while not completed.is_empty():
            cluster_workers.look()
            if not completed.has_ready():
                time.sleep(workers_module.POLL_RESULTS)
                continue
            future, result = next(completed)
            if isinstance(result, BaseException):  # cancelled: the scheduler went away
                raise EnumerateError(
                    f"the Dask cluster at {scheduler} stopped the run: its scheduler went away "
                    f"({type(result).__name__})"
                )
            on_result(index_of[future.key], result)
            future.release()
    except (RushHourError, KeyboardInterrupt):
        raise
    except Exception as err:  # a task failed every retry, the scheduler went away...
        why = str(err)
        if isinstance(err, distributed.KilledWorker):  # Dask's own words ask to inspect logs, name a URL
            which = index_of.get(err.task, "?")
            died = err.allowed_failures + 1
            why = (
                f"{plural(died, 'worker')} died while running part {which}, as many as "
                "the scheduler allows (its distributed.scheduler.allowed-failures, plus one): out of "
                "memory? the workers' logs say"
            )
        raise EnumerateError(f"the Dask cluster at {scheduler} stopped the run: {why}") from None
