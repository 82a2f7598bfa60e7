"""The compiled search (rushhour/search/_native.c) is optional: without a C compiler the install goes on
and the pure-Python search is used instead (see docs/solvers.md)."""

import ast
import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py as _build_py

# relative to this folder, where every build runs: an absolute path in ``depends`` is left out of the sdist
CONTRACT = "rushhour/search/contract.py"


def contract_macros() -> list[tuple[str, str]]:
    """The constants of rushhour/search/contract.py, defined once there, as C macros."""
    macros = []
    source = (Path(__file__).parent / CONTRACT).read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, int):
                    macros.append((target.id, str(node.value.value)))
    return macros


class build_py(_build_py):  # named as the command it replaces, which its messages name
    """Leaves in ``build/lib`` only what this tree builds: a module deleted or moved since an earlier
    build of the same folder would otherwise stay there and go into the wheel and the install."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        keep = {os.path.normpath(path) for path in self.get_outputs(include_bytecode=True)}
        ext = self.get_finalized_command("build_ext")
        keep |= {os.path.normpath(os.path.join(self.build_lib, ext.get_ext_filename(e.name)))
                 for e in ext.extensions}
        for top in {package.split(".")[0] for package in self.packages or ()}:
            for folder, _, names in os.walk(os.path.join(self.build_lib, top), topdown=False):
                for name in names:
                    path = os.path.normpath(os.path.join(folder, name))
                    if path not in keep:
                        os.remove(path)
                if not os.listdir(folder):
                    os.rmdir(folder)


setup(
    cmdclass={"build_py": build_py},
    ext_modules=[
        Extension(
            "rushhour.search._native",
            ["rushhour/search/_native.c", "rushhour/search/_frontier.c", "rushhour/search/_clusters.c",
             "rushhour/search/_analysis.c"],
            depends=["rushhour/search/_clusters.h", "rushhour/search/_native.h", CONTRACT],
            optional=True,
            define_macros=contract_macros(),
            extra_compile_args=["-O2"],
        )
    ],
)
