"""The rooms' import rules (docs/architecture.md), checked on the source with ``ast``.

Each rule says which room may not import what; a failure names the file, the
line and the import, so whoever added it sees which rule it breaks and why.
Imports under ``if TYPE_CHECKING:`` count too: a type-only import still ties
two rooms together for the reader and for mypy.
"""

from __future__ import annotations

import ast
import functools
import importlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from controller.games.spec import GameSpec, Vocabulary

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("controller", "display", "hardware", "firmware")


@dataclass(frozen=True)
class Import:
    """One imported module (and, for ``from m import a, b``, the names taken from it)."""

    path: Path
    line: int
    module: str
    names: tuple[str, ...] = ()

    def __str__(self) -> str:
        taken = f" ({', '.join(self.names)})" if self.names else ""
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.module}{taken}"


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(room: str) -> Iterator[Import]:
    """Every import in the ``.py`` files under ``room`` (a folder of the repository)."""
    return iter(_imports_in(room))


@functools.cache
def _imports_in(room: str) -> tuple[Import, ...]:
    """``imports(room)``, parsed once per test process: a dozen tests read the same tree,
    and parsing every module again for each was most of their time."""
    return tuple(_parse_imports(room))


def _parse_imports(room: str) -> Iterator[Import]:
    for path in sorted((ROOT / room).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        module_name = _module_of(path)
        package = module_name if path.name == "__init__.py" else module_name.rpartition(".")[0]
        for node in _statements(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Import(path, node.lineno, alias.name)
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:  # a relative import: resolve it against the file's package
                    parts = package.split(".")
                    base = parts[: len(parts) - node.level + 1]
                    module = ".".join([*base, module] if module else base)
                yield Import(path, node.lineno, module, tuple(a.name for a in node.names))


_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement in ``tree``, at any depth (in functions, classes, ``if``, ``try``...).

    An import is a statement, so this finds every one ``ast.walk`` would, without
    visiting the expressions, which are most of a module's nodes and most of the time.
    """
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _BLOCKS))


def _top(module: str) -> str:
    return module.split(".")[0]


def _is_stdlib(module: str) -> bool:
    return _top(module) in sys.stdlib_module_names or _top(module) == "__future__"


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_checker_sees_imports() -> None:
    # A rule over no imports would pass whatever the code did.
    found = list(imports("controller/table"))
    assert any(i.module == "controller.table.session" for i in found)
    assert any(_within(i.module, "hardware") for i in found)


# A game folder's table side: what a tap means, what to show, how a bot plays.
# Everything else in controller/games (the contract, the rules, the manifest) is pure.
TABLE_SIDE = ("table.py", "bots.py", "search.py")


def _is_table_side(path: Path) -> bool:
    return path.name in TABLE_SIDE and path.parent.parent == ROOT / "controller" / "games"


def test_engines_import_only_the_standard_library_and_their_own_package() -> None:
    bad = [
        str(i)
        for i in imports("controller/games")
        if not _is_table_side(i.path)
        and not (_is_stdlib(i.module) or _within(i.module, "controller.games"))
    ]
    bad += [
        str(i)
        for i in imports("controller/games")
        if not _is_table_side(i.path)
        and any(
            _within(i.module, f"controller.games.{g}.{m[:-3]}")
            for g in _games()
            for m in TABLE_SIDE
        )
    ]
    assert not bad, "a game's rules must stay pure (standard library only): " + "; ".join(bad)


def _games() -> list[str]:
    return [p.parent.name for p in sorted((ROOT / "controller" / "games").glob("*/spec.py"))]


def test_a_game_folder_has_the_parts_the_registry_finds() -> None:
    for key in _games():
        folder = ROOT / "controller" / "games" / key
        for part in ("__init__.py", "spec.py", "engine.py", "table.py", "bots.py"):
            assert (folder / part).is_file(), f"{folder.relative_to(ROOT)} has no {part}"


def test_hardware_and_firmware_never_import_the_controller_or_the_display() -> None:
    bad = [
        str(i)
        for room in ("hardware", "firmware")
        for i in imports(room)
        if _within(i.module, "controller") or _within(i.module, "display")
    ]
    bad += [str(i) for i in imports("firmware") if _within(i.module, "hardware")]
    assert not bad, "drivers know nothing of games or screens: " + "; ".join(bad)


# What display may take from controller.games: the registry (to find a game's
# spec and scene), the spec and base types, and from a game module its SPEC, its
# VOCABULARY and its types (snapshot dataclasses, card values, enums), never
# its functions or other constants, which is where rules live.
_DISPLAY_MAY_USE = (
    "controller.games",
    "controller.games.spec",
    "controller.games.base",
    "controller.games.words",  # messages as data: say(), the typed arguments
)


def _is_public_game_name(module: str, name: str) -> bool:
    """A name display may take from a game module: its spec, its vocabulary, or a type
    (never a rule)."""
    value = getattr(importlib.import_module(module), name)
    return isinstance(value, type | GameSpec | Vocabulary)


def test_display_takes_only_specs_and_types_from_the_engines() -> None:
    bad = []
    for i in imports("display"):
        if _within(i.module, "controller.bots") or _within(i.module, "controller.adapters"):
            bad.append(str(i))
        elif _within(i.module, "controller.games") and i.module not in _DISPLAY_MAY_USE:
            if not i.names or not all(_is_public_game_name(i.module, n) for n in i.names):
                bad.append(str(i))
        elif _within(i.module, "controller") and not (
            _within(i.module, "controller.view")
            or _within(i.module, "controller.games")
            or _within(i.module, "controller.words")  # the one presenter of words
            or _within(i.module, "controller.view.seat_colours")  # one palette: LEDs and panels
        ):
            bad.append(str(i))  # the display draws a TableView; it does not drive the table
    assert not bad, "display draws the view and never decides a rule: " + "; ".join(bad)


# The kiosk's run-time modules that open the display: the window, the headless
# demo's pictures, and the entry that asks SDL whether a display is there yet.
DISPLAY_USERS = tuple(
    ROOT / "controller" / "kiosk" / f"{name}.py" for name in ("windowed", "headless", "run")
)


def test_the_controller_reaches_the_display_only_from_the_kiosk() -> None:
    bad = [
        str(i)
        for i in imports("controller")
        if (_within(i.module, "display") or _top(i.module) == "pygame")
        # The doctor asks pygame's SDL which video drivers it has (a check of the Pi).
        and i.path not in (*DISPLAY_USERS, ROOT / "controller" / "cli" / "doctor.py")
    ]
    assert not bad, "only the kiosk's window, demo and entry use the display: " + "; ".join(bad)


def test_the_table_state_machine_drives_no_device_directly() -> None:
    # The table writes to small sinks (LedSink, JournalSink) and reads typed events;
    # drivers, serial ports and GPIO stay behind hardware/'s interfaces.
    allowed = ("hardware.events", "hardware.cues")
    bad = [
        str(i)
        for i in imports("controller/table")
        if (_within(i.module, "hardware") and i.module not in allowed)
        or _top(i.module) in ("serial", "gpiozero", "neopixel", "sqlite3")
    ]
    assert not bad, "controller/table talks to devices only through sinks: " + "; ".join(bad)


def test_only_the_table_and_the_tools_that_run_it_import_it() -> None:
    # The table's parts are its own business: nothing else reaches into them.
    bad = [
        str(i)
        for room in PROJECT
        for i in imports(room)
        if _within(i.module, "controller.table")
        and i.module != "controller.table"
        and not i.path.is_relative_to(ROOT / "controller" / "table")
    ]
    assert not bad, "use controller.table's public names, not its parts: " + "; ".join(bad)


def test_the_network_stays_out_of_the_table_and_the_engines() -> None:
    # A table without [cafe] runs no network code: only the fleet package talks MQTT,
    # and only the composition root (app) and the hub's own package use it.
    bad = [
        str(i)
        for room in ("controller/table", "controller/games", "controller/adapters", "display")
        for i in imports(room)
        if _top(i.module) in ("paho", "fastapi", "uvicorn", "sqlalchemy")
        or _within(i.module, "controller.fleet")
        or _top(i.module) == "hub"
    ]
    bad += [
        str(i)
        for i in imports("controller")
        if _top(i.module) == "hub" and i.path != ROOT / "controller" / "cli" / "main.py"
    ]
    assert not bad, "network code lives in controller/fleet and hub/: " + "; ".join(bad)


def test_the_hub_reads_tables_only_through_records_specs_and_the_fleet_topics() -> None:
    allowed = (
        "controller.fleet.topics",
        "controller.games",
        "controller.tags.members",  # the nickname and member-card UID rules, as the tables use
        "controller.records.record",
        "controller.records.scoresheet",
        "controller.records.clock",  # whether a table's stamp can be believed, as it judges
    )

    def reaches(i: Import) -> list[str]:
        # ``from controller.fleet import topics`` reaches controller.fleet.topics.
        return [f"{i.module}.{n}" for n in i.names] if i.names else [i.module]

    bad = [
        str(i)
        for i in imports("hub")
        if _within(i.module, "controller")
        and not all(any(_within(m, a) for a in allowed) for m in reaches(i))
        and not any(_within(i.module, a) for a in allowed)
    ]
    bad += [str(i) for i in imports("hub") if _top(i.module) in ("pygame", "display", "hardware")]
    assert not bad, "the hub is not a table: " + "; ".join(bad)


# --- no cycles, and which room may import which -------------------------------------------


def _project_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for room in (*PROJECT, "hub"):
        for path in sorted((ROOT / room).rglob("*.py")):
            found[_module_of(path)] = path
    return found


def _import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports, counting imports inside functions and
    under ``TYPE_CHECKING`` (``from a import b`` reaches ``a.b`` when that is a module)."""
    modules = _project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for room in (*PROJECT, "hub"):
        for i in imports(room):
            source = _module_of(i.path)
            for target in (i.module, *(f"{i.module}.{n}" for n in i.names)):
                if target in modules and target != source:
                    graph[source].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    # A rule over a finder that never finds would pass whatever the code did.
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back() -> None:
    cycles = _cycles(_import_graph())
    assert not cycles, "import cycles (inside functions and TYPE_CHECKING count): " + "; ".join(
        " -> ".join(c) for c in cycles
    )


def _room(module: str) -> str:
    """The room a module lives in: controller's sub-package, a game's table side, or the top."""
    parts = module.split(".")
    if parts[0] != "controller" or len(parts) == 1:
        return parts[0]
    if parts[1] == "games" and len(parts) >= 4 and parts[3] in {m[:-3] for m in TABLE_SIDE}:
        return "games/table-side"
    return parts[1]


# Which room may import which: a layering, lowest first. A room imports only rooms
# listed for it; the test below also checks that the rooms form no cycle.
MAY_IMPORT: dict[str, set[str]] = {
    "firmware": set(),
    "hardware": {"firmware"},  # the link framing is shared with the reader board
    "games": set(),  # the rules: the standard library only
    "view": {"games", "hardware"},  # the seat buttons' names (``hardware.events.Button``)
    "words": {"games", "view"},
    "bots": {"games"},
    "adapters": {"games", "view", "hardware"},
    "games/table-side": {"games", "adapters", "bots", "view", "hardware"},
    "display": {"games", "view", "words", "hardware"},  # ``Button``, as ``view``
    "config": {"games", "words", "tags", "hardware"},
    "records": {"games", "words", "config"},
    "tags": {"games", "view", "words"},
    "table": {"games", "adapters", "view", "words", "config", "records", "tags", "hardware"},
    "fleet": {"games", "view", "words", "config", "tags", "table"},
    "kiosk": {
        *("games", "adapters", "bots", "view", "words", "config", "records", "tags"),
        *("table", "fleet", "hardware", "display"),
    },
    "hub": {"games", "records", "tags", "fleet"},
    "cli": {
        *("controller", "games", "words", "config", "records", "tags", "kiosk"),
        *("hardware", "hub"),
    },
    "__main__": {"cli"},
}


def test_each_room_imports_only_the_rooms_below_it() -> None:
    graph = _import_graph()
    rooms: dict[str, set[str]] = {}
    bad = []
    for source, targets in graph.items():
        for target in targets:
            a, b = _room(source), _room(target)
            if a == b:
                continue
            rooms.setdefault(a, set()).add(b)
            if b not in MAY_IMPORT.get(a, set()):
                bad.append(f"{source} -> {target} ({a} may import {sorted(MAY_IMPORT.get(a, ()))})")
    assert not bad, "a room reaches a room it may not: " + "; ".join(sorted(bad))
    assert not _cycles(rooms), f"rooms import each other: {_cycles(rooms)}"
    assert not _cycles(MAY_IMPORT), f"the layering itself has a cycle: {_cycles(MAY_IMPORT)}"


def test_the_table_stays_thin() -> None:
    # Table grew into a god object twice (729 lines and 63 methods); the screens now
    # get a context and return the next screen. New behaviour goes into a part.
    tree = ast.parse((ROOT / "controller" / "table" / "__init__.py").read_text(encoding="utf-8"))
    (table,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table"]
    methods = [n for n in table.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert table.end_lineno is not None
    lines = table.end_lineno - table.lineno + 1
    assert lines <= 300, f"Table is {lines} lines; move the new behaviour into a part"
    assert len(methods) <= 25, f"Table has {len(methods)} methods; move some into a part"
