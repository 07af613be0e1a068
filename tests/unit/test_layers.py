"""The shape of the code, read from its imports (`ast`): the rules import no I/O, the table
imports no game, nothing below the registries imports them, tgbot imports nothing of workers,
the stand-in nothing of the bot, and no module comes back to itself through its imports. And
the table's modules name no game's button kinds: each game registers its own."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "tgbot", "workers")
GAMES = ("hintrigue", "guesswhat", "huescues", "wunchunk", "hunch")
"""The games' own packages (`engine/games/<game>/`, `tgbot/games/<game>/`, `workers/ai/<game>`)."""
IO_LIBRARIES = frozenset({
    "redis", "rq", "telegram", "httpx", "httpcore", "starlette", "uvicorn", "socket",
    "requests", "urllib", "sqlite3", "subprocess", "PIL", "aiohttp",
})  # fmt: skip
REGISTRIES = frozenset({"engine.games.registry", "tgbot.games.registry", "workers.games"})
"""The lists of games, at the top of each package."""
ROOTS = frozenset({"tgbot.bootstrap", "workers.runtime"})
"""The composition roots: they hand the registries down."""
ENTRY_POINTS = frozenset({"tgbot.__main__", "tgbot.local.dev", "tgbot.standin.__main__"})
"""Processes a person starts: they sit above everything and may import anything."""
FUNCTION_LEVEL = {
    "tgbot.__main__": "picks one process from the command line: it imports only what that one "
    "needs (the web process never loads the workers or the pictures)",
}
"""The modules allowed to import the project's own packages inside a function, and why."""


@dataclass(frozen=True)
class Import:
    """One import of the project's own code."""

    importer: str
    imported: str
    in_function: bool
    type_only: bool
    line: int


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The project module an imported name lives in (a module, or a name in one)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _names(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level or node.module is None:
        return []
    return [f"{node.module}.{alias.name}" for alias in node.names]


def _walk(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Every import with whether it is inside a function and under `if TYPE_CHECKING:`."""

    def visit(
        node: ast.AST, in_function: bool, type_only: bool
    ) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_function, type_only
        for child in ast.iter_child_nodes(node):
            yield from visit(
                child,
                in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef),
                type_only
                or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)),
            )

    yield from visit(tree, False, False)


def _imports() -> list[Import]:
    found = []
    for module, path in MODULES.items():
        for node, in_function, type_only in _walk(ast.parse(path.read_text(encoding="utf-8"))):
            for name in _names(node):
                target = _resolve(name) if name.split(".")[0] in PACKAGES else name
                if target and target != module:
                    found.append(Import(module, target, in_function, type_only, node.lineno))
    return found


IMPORTS = _imports()


def _game_of(module: str) -> str | None:
    """The game a module belongs to, if it is one of a game's own."""
    for prefix in ("engine.games.", "tgbot.games.", "workers.ai."):
        if module.startswith(prefix):
            head = module[len(prefix) :].split(".")[0]
            if head in GAMES:
                return head
    return None


def test_the_rules_do_no_io_outside_the_store():
    found = [
        f"{i.importer}:{i.line} imports {i.imported}"
        for i in IMPORTS
        if i.importer.startswith("engine")
        and not i.importer.startswith("engine.store")
        and i.imported.split(".")[0] in IO_LIBRARIES
    ]
    assert found == []


def test_the_store_is_the_only_part_of_the_engine_that_imports_redis():
    importers = {i.importer for i in IMPORTS if i.imported.split(".")[0] == "redis"}
    engine = {m for m in importers if m.startswith("engine")}
    assert engine and all(m.startswith("engine.store") for m in engine), sorted(engine)


def test_no_module_imports_inside_a_function_outside_the_allow_list():
    found = {
        f"{i.importer}:{i.line} imports {i.imported}"
        for i in IMPORTS
        if i.in_function and i.imported in MODULES and i.importer not in FUNCTION_LEVEL
    }
    assert found == set()


def test_no_module_comes_back_to_itself_through_its_imports():
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for i in IMPORTS:
        if i.imported in MODULES and not i.type_only:
            graph[i.importer].add(i.imported)
    cycles = _cycles(graph)
    assert cycles == [], cycles


def test_the_table_names_no_game():
    # Not even for a type: a game is handed to the table (its registration), never looked up.
    found = [
        f"{i.importer}:{i.line} imports {i.imported}"
        for i in IMPORTS
        if i.importer not in REGISTRIES | ROOTS | ENTRY_POINTS
        and _game_of(i.importer) is None
        and _game_of(i.imported) is not None
    ]
    assert found == []


def test_the_table_names_no_games_button_kinds():
    from tgbot.games.registry import LINEUP
    from tgbot.table import callback

    games = {kind: side.name for side in LINEUP.screens.values() for kind in side.button_kinds}
    assert {"card", "decoy", "vote", "gpick", "hcel", "wput"} <= games.keys()
    assert callback.KINDS.keys().isdisjoint(games)
    assert callback.KINDS.keys() >= callback.WITHOUT_GAME | callback.WITH_TOPIC
    # Not in the codec, nor anywhere else in the table: no string of its code is one.
    found = [
        f"{module}:{node.lineno} names {node.value} ({games[node.value]}'s)"
        for module, path in MODULES.items()
        if module.startswith("tgbot.table")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in games
    ]
    assert found == []


def test_games_never_import_each_other():
    found = [
        f"{i.importer} imports {i.imported}"
        for i in IMPORTS
        if (mine := _game_of(i.importer)) and (theirs := _game_of(i.imported)) and mine != theirs
    ]
    assert found == []


def test_only_composition_roots_entry_points_and_other_registries_import_the_registries():
    found = [
        f"{i.importer}:{i.line} imports {i.imported}"
        for i in IMPORTS
        if i.imported in REGISTRIES and i.importer not in REGISTRIES | ROOTS | ENTRY_POINTS
    ]
    assert found == []


def test_tgbot_imports_nothing_of_workers_but_from_its_entry_point():
    found = [
        f"{i.importer}:{i.line} imports {i.imported}"
        for i in IMPORTS
        if i.importer.startswith("tgbot")
        and i.imported.startswith("workers")
        and i.importer not in ENTRY_POINTS
    ]
    assert found == []


def test_the_engine_imports_neither_tgbot_nor_workers():
    found = [
        f"{i.importer} imports {i.imported}"
        for i in IMPORTS
        if i.importer.startswith("engine") and i.imported.split(".")[0] in ("tgbot", "workers")
    ]
    assert found == []


def test_the_stand_in_imports_nothing_of_the_bot():
    found = [
        f"{i.importer} imports {i.imported}"
        for i in IMPORTS
        if i.importer.startswith("tgbot.standin")
        and i.imported.split(".")[0] in PACKAGES
        and not i.imported.startswith("tgbot.standin")
    ]
    assert found == []


def test_the_checks_see_what_they_check():
    # Guards against a walk that finds nothing: every check above would pass vacuously.
    assert len(MODULES) > 150
    assert any(i.importer == "engine.store.rooms" and i.imported == "redis" for i in IMPORTS)
    assert any(i.in_function for i in IMPORTS)
    assert any(i.type_only for i in IMPORTS)
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found
