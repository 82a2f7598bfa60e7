"""The package's layers: every import of ``rushhour/`` (at module level or inside a function) runs down
the table below or stays in its layer, and no modules import each other in a circle, but for the one
documented hook: :class:`~rushhour.board.Board` reads and writes text through the formats, a layer above
it (``board._formats``, see rushhour/board.py).

Imports under ``if TYPE_CHECKING:`` are left out (they never run), and so is the implicit import of a
package's ``__init__`` when one of its modules is imported: an edge is an ``import`` statement."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rushhour"

#: bottom to top; a module may import its own layer and the layers below.  The longest matching prefix
#: names a module's layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    # ground: no board, no puzzle, only the language and the machine
    ("rushhour.errors", "rushhour.numbers", "rushhour.files", "rushhour.lru", "rushhour.workers", "rushhour._forkserver",
     "rushhour.version"),
    # the model and its reference rules; text (counts in words, runs of moves) builds on its Move
    ("rushhour.board", "rushhour.text"),
    ("rushhour.formats",),  # boards as text
    ("rushhour.logic", "rushhour.search"),  # the two ways to answer questions about a board
    # what is built from answers: new puzzles, databases, the built-in levels and a player's saves
    ("rushhour.generator", "rushhour.harden", "rushhour.database", "rushhour.levels", "rushhour.progress"),
    # playing and drawing, without a terminal
    ("rushhour.game", "rushhour.controller", "rushhour.play", "rushhour.render"),
    ("rushhour.api", "rushhour"),  # the library's front door
    ("rushhour.tui", "rushhour.cli", "rushhour.__main__"),  # the terminal
)
#: the one edge up the table, and the one function allowed to make it
HOOK = ("rushhour.board", "rushhour.formats.single")
HOOK_FUNCTION = "_formats"


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py*"):
        if path.suffix not in (".py", ".pyi"):
            continue
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path  # a .pyi stands for a compiled module (rushhour.search._native)
    return names


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                out.update(id(n) for n in ast.walk(child))
    return out


def _targets(node: ast.Import | ast.ImportFrom, names: dict[str, Path]) -> list[str]:
    """The modules of the package that an import statement loads."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    elif node.module is None or node.level:
        raise AssertionError(f"a relative import on line {node.lineno}: the package imports absolutely")
    else:
        wanted = [
            f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in names else node.module
            for a in node.names
        ]
    return [name for name in wanted if name == "rushhour" or name.startswith("rushhour.")]


def imports() -> list[tuple[str, str, int, str | None]]:
    """Every import in the package: (importer, imported, line, the function it is in or None)."""
    names = module_names()
    out = []
    for module, path in sorted(names.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_nodes(tree)
        owner: dict[int, str] = {}
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                for n in ast.walk(func):
                    owner.setdefault(id(n), func.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skip:
                for target in _targets(node, names):
                    assert target in names, f"{module}, line {node.lineno}: no module {target}"
                    out.append((module, target, node.lineno, owner.get(id(node))))
    return out


def layer(module: str) -> int:
    best = max(
        (
            (len(prefix), k)
            for k, group in enumerate(LAYERS)
            for prefix in group
            if module == prefix or module.startswith(prefix + ".")
        ),
        default=None,
    )
    assert best is not None, f"{module} is in no layer: add it to LAYERS in tests/test_layers.py"
    return best[1]


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_hook_is_the_only_edge_up_and_lives_in_one_function() -> None:
    made = [(line, func) for a, b, line, func in imports() if (a, b) == HOOK]
    assert made and all(func == HOOK_FUNCTION for _, func in made), made
    assert layer(HOOK[0]) < layer(HOOK[1])


def test_no_import_runs_up_the_layers() -> None:
    upward = [
        f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)}) on line {line}"
        for a, b, line, _ in imports()
        if (a, b) != HOOK and layer(b) > layer(a)
    ]
    assert not upward, "\n".join(upward)


def test_no_modules_import_each_other_in_a_circle() -> None:
    edges = {(a, b) for a, b, _, _ in imports() if a != b and (a, b) != HOOK}
    assert cycles(edges) == []
    # the check sees circles: the hook closes one
    assert cycles(edges | {HOOK}) != []


def test_nothing_but_the_package_imports_the_front_door() -> None:
    assert {a for a, b, _, _ in imports() if b == "rushhour.api"} == {"rushhour"}


def test_no_module_imports_a_private_name_of_another() -> None:
    """``from rushhour.x import _name`` is refused; compiled modules (``_native``) are loaded by their
    one loader, rushhour/search/native.py."""
    names = module_names()
    crossed = []
    for module, path in names.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rushhour"):
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    private = alias.name.startswith("_") and alias.name != "__version__"
                    if private and not (target in names and module == "rushhour.search.native"):
                        crossed.append(f"{module}: from {node.module} import {alias.name}")
    assert not crossed, "\n".join(crossed)
