"""A mutation-testing pass over the core, within a CPU budget: mutmut's mutants of the functions that
decide the answers, a fixed-seed sample of each area, each run against the tests that reach it.

    pip install 'mutmut>=3.3'
    nice python bench/mutants.py [--per-area 25] [--seed 30] [--children 1] [--areas AREA...] [--list]

The modules and the test files are in ``[tool.mutmut]`` of pyproject.toml; the areas below name the
functions whose mutants are sampled (mutmut's names: ``module.x_function`` or ``module.xǁClassǁmethod``).
A mutant is *killed* when a test fails, *timeout* when the tests ran far longer than without it (a
mutant that makes a search or a wait endless: detected too), *survived* when every test passed: those
are listed with their diffs, to be read one by one (docs/testing.md says what the last run left and
why).  mutmut works on a copy of the tree in ``mutants/`` (ignored by git); delete it after a change
to the sources.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

AREAS: dict[str, tuple[str, ...]] = {
    "board rules": (
        "rushhour.board.xǁBoardǁlegal_moves",
        "rushhour.board.xǁBoardǁ_reach",
        "rushhour.board.xǁBoardǁ_blocker",
        "rushhour.board.xǁBoardǁ_slide",
        "rushhour.board.xǁBoardǁapply",
        "rushhour.board.xǁBoardǁis_won",
        "rushhour.board.xǁBoardǁsuccessors",
        "rushhour.board.xǁLayoutǁwon_offset",
    ),
    "oracle": (
        "rushhour.logic.oracle.x_legal_moves",
        "rushhour.logic.oracle.xǁMoveOracleǁlegal_moves",
        "rushhour.logic.oracle.xǁMoveOracleǁ_core",
        "rushhour.logic.oracle.x_facts_of_cell",
    ),
    "bfs": (
        "rushhour.search.bfs.x_shortest_python",
        "rushhour.search.bfs.x__spread_python",
        "rushhour.search.bfs.x__first_near_win",
        "rushhour.search.bfs.x__near_win_first",
        "rushhour.search.bfs.x_layers",
    ),
    "generator verification": (
        "rushhour.generator.xǁ_Tryǁfinish",
        "rushhour.generator.xǁ_Tryǁuseless_vehicle",
    ),
    "enumerator minimality": (
        "rushhour.database.reference.x__minimal",
        "rushhour.database.reference.x__shorter",
    ),
    "progress lock": ("rushhour.files.x__lock",),
}
_RESULT = re.compile(r"\s*(\S+__mutmut_\d+): (.+)")


def mutmut(*args: str, check: bool = True) -> str:
    done = subprocess.run(["mutmut", *args], cwd=ROOT, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"mutmut {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def results() -> dict[str, str]:
    """Every mutant mutmut made, with its state (``not checked`` before a run)."""
    return {m[1]: m[2] for m in map(_RESULT.match, mutmut("results", "--all", "true").splitlines()) if m}


def area_of(name: str) -> str | None:
    function = name.split("__mutmut_")[0]
    return next((area for area, names in AREAS.items() if function in names), None)


def sample(names: list[str], per_area: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    chosen = []
    for area in AREAS:
        mine = sorted(n for n in names if area_of(n) == area)
        chosen += sorted(rng.sample(mine, min(per_area, len(mine))))
    return chosen


def report(chosen: list[str], states: dict[str, str]) -> None:
    print(f"{'area':24} {'mutants':>7} {'killed':>7} {'timeout':>7} {'survived':>8} {'other':>6}")
    for area in AREAS:
        counts = Counter(states.get(n, "?") for n in chosen if area_of(n) == area)
        other = sum(v for k, v in counts.items() if k not in ("killed", "timeout", "survived"))
        total = sum(counts.values())
        print(
            f"{area:24} {total:7} {counts['killed']:7} {counts['timeout']:7} {counts['survived']:8} {other:6}"
        )
    for name in chosen:
        if states.get(name) not in ("killed", "timeout"):
            print(f"\n## {name}: {states.get(name)}")
            print("\n".join(line for line in mutmut("show", name).splitlines() if line[:1] in "-+@"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-area", type=int, default=25, help="mutants sampled in each area")
    parser.add_argument("--seed", type=int, default=30, help="the sample's seed")
    parser.add_argument("--children", type=int, default=1, help="mutants tested at once")
    parser.add_argument("--areas", nargs="+", choices=list(AREAS), help="only these areas (default: all)")
    parser.add_argument("--list", action="store_true", help="only list the sample")
    args = parser.parse_args()
    if shutil.which("mutmut") is None:
        print("mutmut is not installed: pip install 'mutmut>=3.3'", file=sys.stderr)
        return 2
    # the first run makes every mutant and records which tests reach which function
    mutmut("run", "--max-children", "1", "rushhour.files.x__lock__mutmut_1", check=False)
    chosen = sample(list(results()), args.per_area, args.seed)
    if args.areas:
        chosen = [name for name in chosen if area_of(name) in args.areas]
    if args.list:
        print("\n".join(chosen))
        return 0
    mutmut("run", "--max-children", str(args.children), *chosen, check=False)
    report(chosen, results())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
