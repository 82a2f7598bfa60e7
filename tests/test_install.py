"""The package as a user installs it: the sdist holds what its build needs (and no half of the test
suite), a build leaves nothing behind from an earlier one, and a build without a C compiler goes on and
runs every command on the Python search.

Each test builds a copy of the tree in a temporary folder with ``setup.py`` commands (no network, no
compiler needed), so that nothing is written in the project itself."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the files at the top of the tree that building needs
TOP = ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in", "LICENSE")
CACHES = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.so", "*.egg-info", ".pytest_cache")


def copy_tree(into: Path, *, tests: bool = False) -> Path:
    """The files of the project that a build reads (and ``tests/`` when asked), copied into ``into``."""
    for name in TOP:
        shutil.copy2(ROOT / name, into / name)
    for folder in ("rushhour", "boards", *(("tests",) if tests else ())):
        shutil.copytree(ROOT / folder, into / folder, ignore=CACHES)
    return into


def setup_py(where: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    made = subprocess.run([sys.executable, "setup.py", *args], cwd=where, capture_output=True, text=True,
                          env=env, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    return made


def tree_files(*patterns: str) -> set[str]:
    """The files of the tree matching ``patterns`` (relative to the top), as paths from the top."""
    return {path.relative_to(ROOT).as_posix() for pattern in patterns for path in ROOT.glob(pattern)
            if "__pycache__" not in path.parts}


def test_the_sdist_holds_every_file_the_build_needs_and_no_part_of_the_tests(tmp_path: Path) -> None:
    (tmp_path / "tree").mkdir()
    tree = copy_tree(tmp_path / "tree", tests=True)
    made = setup_py(tree, "sdist", "--dist-dir", str(tmp_path / "dist"))
    # an absolute path among the extension's dependencies is left out with this warning
    assert "won't be automatically included" not in made.stdout + made.stderr
    (archive,) = (tmp_path / "dist").glob("rushhour-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    needed = tree_files("rushhour/search/*.c", "rushhour/search/*.h", "rushhour/**/*.py", "boards/*.txt") | {
        "rushhour/search/contract.py", "rushhour/search/_native.pyi", "rushhour/py.typed",
        "README.md", "pyproject.toml", "setup.py", "LICENSE",
    }
    assert {"rushhour/search/_native.c", "rushhour/search/_native.h", "boards/classic.txt"} <= needed
    assert needed - names == set()
    # the tests read docs/ and bench/ too: a sdist with the test files alone holds a suite that cannot run
    assert sorted(name for name in names if name.startswith(("tests/", "build/"))) == []
    assert sorted(name for name in names if name.endswith((".so", ".pyc"))) == []


def test_a_build_leaves_out_what_an_earlier_build_of_the_folder_left(tmp_path: Path) -> None:
    tree = copy_tree(tmp_path)
    lib = tree / "build" / "lib"
    left = [lib / "rushhour" / "moved_away.py", lib / "rushhour" / "tui" / "screen.py",
            lib / "rushhour" / "search" / "_native.cpython-39-x86_64-linux-gnu.so"]
    ours = lib / "rushhour" / "search" / f"_native{sysconfig.get_config_var('EXT_SUFFIX')}"
    for path in [*left, ours]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# from an earlier build\n")
    setup_py(tree, "-q", "build_py", "--build-lib", str(lib))
    built = {path.relative_to(lib).as_posix() for path in lib.rglob("*") if path.is_file()}
    assert [path for path in left if path.exists()] == []
    assert not (lib / "rushhour" / "tui").exists()
    # the compiled module of this Python stays for build_ext to judge up to date or not
    assert ours.exists()
    expected = tree_files("rushhour/**/*.py")
    expected |= {f"rushhour/boards/{path.name}" for path in (ROOT / "boards").glob("*.txt")}
    expected |= {"rushhour/py.typed", "rushhour/search/_native.pyi", ours.relative_to(lib).as_posix()}
    # the C sources are built from the sdist, not installed
    assert built == expected


def test_without_a_c_compiler_the_build_goes_on_and_the_python_search_answers(tmp_path: Path) -> None:
    tree = copy_tree(tmp_path)
    env = {key: value for key, value in os.environ.items() if key != "RUSHHOUR_NATIVE"}
    env.update(CC="/bin/false", LDSHARED="/bin/false")
    made = setup_py(tree, "build", "--build-lib", "build/lib", env=env)
    assert 'building extension "rushhour.search._native" failed' in made.stdout + made.stderr
    lib = tree / "build" / "lib"
    assert list((lib / "rushhour" / "search").glob("_native*.so")) == []
    del env["CC"], env["LDSHARED"]
    env["PYTHONPATH"] = str(lib)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    away = tmp_path / "elsewhere"  # not the tree's folder, which `python -m` would import from
    away.mkdir()

    def rushhour(*args: str, built: bool = True) -> str:
        """The command's output from the build without the compiled search, or from this tree."""
        ran = subprocess.run([sys.executable, "-m", "rushhour", *args], cwd=away,
                             env=env if built else {**env, "PYTHONPATH": str(ROOT)},
                             capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        return ran.stdout

    where = subprocess.run([sys.executable, "-c", "import rushhour; print(rushhour.__file__)"], cwd=away,
                           env=env, capture_output=True, text=True, timeout=60).stdout.strip()
    assert Path(where) == lib / "rushhour" / "__init__.py"
    version = rushhour("--version").splitlines()
    assert version[1].startswith("compiled search: not built (no C compiler at the install)")

    def answer(text: str) -> list[str]:  # all but the time taken
        return [line for line in text.splitlines() if " explored in " not in line]

    solved = rushhour("solve", "classic:12")
    assert "Optimal solution:" in solved
    assert answer(solved) == answer(rushhour("solve", "classic:12", built=False))
    # every built-in pack is installed: the same list as the tree's own
    assert rushhour("levels") == rushhour("levels", built=False)


def test_the_files_setup_py_compiles_are_in_the_tree() -> None:
    """Every C source, header and the contract setup.py names is a file of the tree (a rename is caught
    here, not at a user's install, where the compiled search would silently be left out)."""
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    named = set(re.findall(r"rushhour/[\w/]+\.[ch]\b|rushhour/[\w/]+\.py\b", text))
    assert {"rushhour/search/_native.c", "rushhour/search/_native.h", "rushhour/search/contract.py"} <= named
    assert sorted(path for path in named if not (ROOT / path).is_file()) == []
    # and every C source and header of the search is built (and so in the sdist's file list)
    assert tree_files("rushhour/search/*.c", "rushhour/search/*.h") - named == set()
