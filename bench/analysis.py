"""The compiled cluster analysis (rushhour/search/_analysis.c) on the analyses the generator really asks
for, against another build of it in the same run.

    python bench/analysis.py [--size 9] [--min-moves 30] [--seed 1] [--tries 20] [--rounds 3]
                             [--baseline REV]

First the generator runs ``--tries`` tries of ``--seed`` (``--size`` boards, ``--min-moves``) and every
call it makes to the compiled analysis is recorded: the board, the position limit and the room for kept
moves (seed 1, 20 tries on 9x9: 5,263 analyses, 54.5 million positions).  Then each build answers all of
them, ``--rounds`` times, the builds taking turns; printed per build: the median and best seconds of a
round, the positions explored a second, and the ratio of the baseline's median to the build's.

``--baseline REV`` builds the compiled module of that git revision (its files, in a temporary directory,
with this interpreter) as the baseline; both builds must give the same answers, call for call, or the
bench says so and exits 1.  Peak memory of the process at the end.  Run from the repository root.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import io
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType

from rushhour import generator
from rushhour.errors import RushHourError
from rushhour.search import native
from rushhour.search.native_spec import NativeSpec

Call = tuple[NativeSpec, tuple[int, ...], int, int]
ROOT = Path(__file__).resolve().parent.parent


def record(settings: generator.Settings, tries: int) -> list[Call]:
    """The compiled analysis calls of ``tries`` tries (the time limit left out: none applies here)."""
    module = native.compiled
    assert module is not None, "the compiled search is not built"
    calls: list[Call] = []

    class Recording:
        def __getattr__(self, name: str) -> object:
            return getattr(module, name)

        def analyze(self, spec: NativeSpec, start: tuple[int, ...], cap: int, seconds: float, edges: int,
                    poll: object = None) -> object:
            calls.append((spec, start, cap, edges))  # the generator shows no progress: poll is None
            return module.analyze(spec, start, cap, seconds, edges, poll)

    native.compiled = Recording()  # type: ignore[assignment]
    try:
        for number in range(tries):
            generator.attempt(settings, number)
    finally:
        native.compiled = module
    return calls


class BuildError(Exception):
    """The baseline could not be built or read; the message says why."""


def build(rev: str, into: Path) -> ModuleType:
    """The compiled module of git revision ``rev``, built in ``into``, reading this build's record."""
    got = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True)
    if got.returncode:
        raise BuildError(f"git archive {rev}: {got.stderr.decode(errors='replace').strip()}")
    archive = got.stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)
    made = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into,
                          capture_output=True)
    built = next((into / "rushhour" / "search").glob("_native*.so"), None)
    if made.returncode or built is None:
        raise BuildError(f"the compiled module of {rev} did not build (a C compiler is needed)")
    loader = importlib.machinery.ExtensionFileLoader("rushhour.search._native", str(built))
    spec = importlib.util.spec_from_file_location("rushhour.search._native", built, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    if getattr(module, "SPEC_FIELDS", None) != getattr(native.compiled, "SPEC_FIELDS", None):
        raise BuildError(f"the compiled module of {rev} reads another record than this build's")
    return module


def answers(module: ModuleType, calls: list[Call]) -> tuple[float, list[object]]:
    """The seconds ``module`` takes to answer every call, and its answers."""
    began = time.perf_counter()
    out = [module.analyze(spec, start, cap, 0.0, edges) for spec, start, cap, edges in calls]
    return time.perf_counter() - began, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=9, help="board side")
    ap.add_argument("--min-moves", type=int, default=30, help="the generator's target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tries", type=int, default=20, help="generator tries whose analyses are recorded")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per build (median reported)")
    ap.add_argument("--baseline", metavar="REV", help="a git revision whose build is the baseline")
    args = ap.parse_args()
    if native.compiled is None:
        print("error: the compiled search is not built", file=sys.stderr)
        return 1
    if args.tries < 1 or args.rounds < 1:
        print("error: --tries and --rounds are at least 1", file=sys.stderr)
        return 2
    settings = generator.Settings(width=args.size, height=args.size, min_moves=args.min_moves, seed=args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        builds = {"this build": native.compiled}
        try:
            settings = settings.checked()
            if args.baseline:  # first: a revision that does not build is said at once
                builds = {f"baseline {args.baseline}": build(args.baseline, Path(tmp)), **builds}
        except (RushHourError, BuildError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        calls = record(settings, args.tries)
        times: dict[str, list[float]] = {name: [] for name in builds}
        given: dict[str, list[object]] = {}
        for _ in range(args.rounds):
            for name, module in builds.items():
                seconds, given[name] = answers(module, calls)
                times[name].append(seconds)
    first = next(iter(given.values()))
    positions = sum(answer[1] for answer in first)  # type: ignore[index]
    print(f"{len(calls):,} analyses of {args.tries} tries ({args.size}x{args.size}, {args.min_moves}+ moves, "
          f"seed {args.seed}): {positions:,} positions; {args.rounds} rounds per build")
    base = statistics.median(next(iter(times.values())))
    for name, runs in times.items():
        median = statistics.median(runs)
        print(f"{name:24} median {median:7.2f} s  best {min(runs):7.2f} s  "
              f"{positions / median / 1e6:6.2f} M positions/s  x{base / median:.2f}")
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB")
    if any(answer != first for answer in given.values()):
        print("the builds answered differently")
        return 1
    print("the builds gave the same answers, call for call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
