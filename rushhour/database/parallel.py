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

import threading
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from rushhour import workers as workers_module
from rushhour.database.definitions import EnumerateError, Job, Part, PartResult
from rushhour.database.part import run_part
from rushhour.errors import RushHourError, WorkerError

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
) -> None:
    """Run the parts ``todo`` (index, part) and call ``on_result(index, result)`` for each one."""
    if not todo:
        return
    if scheduler is not None:
        _run_dask(job, todo, on_result, workers=workers, scheduler=scheduler, native=native)
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


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise EnumerateError(
            "a Dask scheduler needs Dask distributed, which is not installed: pip install 'dask[distributed]'"
        ) from None
    return distributed


def _run_dask(
    job: Job,
    todo: Sequence[tuple[int, Part]],
    on_result: OnResult,
    *,
    workers: int,
    scheduler: str,
    native: bool | None,
) -> None:
    distributed = _dask()
    cluster = None
    try:
        if scheduler == "local":
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(scheduler, timeout="20s")
    except (OSError, TimeoutError, ValueError) as err:
        raise EnumerateError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    try:
        token = uuid.uuid4().hex  # keys unique on a scheduler shared by several runs
        index_of = {}
        futures = []
        for index, part in todo:
            future = client.submit(
                run_part, job, part, native, key=f"rushhour-part-{index}-{token}", retries=RETRIES, pure=False
            )
            index_of[future.key] = index
            futures.append(future)
        try:
            for future, result in distributed.as_completed(futures, with_results=True):
                on_result(index_of[future.key], result)
        except (RushHourError, KeyboardInterrupt):
            raise
        except Exception as err:  # a task failed every retry, the scheduler went away...
            raise EnumerateError(f"the Dask cluster at {scheduler} stopped the run: {err}") from None
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
