"""The compiled search (rushhour/search/_native.c) is optional: without a C compiler the install goes on
and the pure-Python search is used instead (see docs/solvers.md)."""

import ast
from pathlib import Path

from setuptools import Extension, setup

CONTRACT = Path(__file__).parent / "rushhour" / "search" / "contract.py"


def contract_macros() -> list[tuple[str, str]]:
    """The constants of rushhour/search/contract.py, defined once there, as C macros."""
    macros = []
    for node in ast.parse(CONTRACT.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, int):
                    macros.append((target.id, str(node.value.value)))
    return macros


setup(
    ext_modules=[
        Extension(
            "rushhour.search._native",
            ["rushhour/search/_native.c", "rushhour/search/_frontier.c", "rushhour/search/_clusters.c",
             "rushhour/search/_analysis.c"],
            depends=["rushhour/search/_clusters.h", "rushhour/search/_native.h", str(CONTRACT)],
            optional=True,
            define_macros=contract_macros(),
            extra_compile_args=["-O2"],
        )
    ]
)
