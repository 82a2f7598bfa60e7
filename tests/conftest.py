"""Hypothesis runs the same examples everywhere: on a developer's machine and in CI alike, derandomized
(the examples follow from each test's own text), so a failure seen once is seen again by anyone who
runs the same tests.  ``pytest --hypothesis-profile explore`` draws fresh, random examples, more of
them, to look for new failures on purpose.

The package's bytecode is written once before the tests run: the tests start the program again and again
(``python -m rushhour`` in a subprocess or a pseudo-terminal, the workers of a pool), and where the
environment tells Python not to write bytecode (``PYTHONDONTWRITEBYTECODE``, as the development machine
does) each of those starts would compile every module from source again, about 0.35 s a start on the
2-core machine."""

import compileall
import contextlib
import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.boards import TINY

settings.register_profile(
    "repeatable",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile("explore", settings.get_profile("repeatable"), max_examples=300, derandomize=False)
settings.load_profile("repeatable")


def pytest_configure(config: pytest.Config) -> None:
    spec = importlib.util.find_spec("rushhour")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        with contextlib.suppress(OSError):  # a folder that cannot be written is left as it is
            compileall.compile_dir(folder, quiet=2)


@pytest.fixture
def level(tmp_path: Path) -> Path:
    """The TINY level of tests/boards.py in a file of its own (B-1 then A+3 wins in 2 moves)."""
    path = tmp_path / "tiny.txt"
    path.write_text(TINY)
    return path
