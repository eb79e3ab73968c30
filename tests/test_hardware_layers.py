"""hardware/'s import graph: strictly layered (no cycles), and never reaching up.

The graph is read from the source with ``ast`` (every ``import``, also those
inside functions or under ``TYPE_CHECKING``), so an import that only runs late
cannot hide a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.conftest import ROOT

# The packages whose modules are nodes of the graph: hardware/ and the firmware
# codec it shares, so that a cycle through firmware/ is found too.
PACKAGES = ("hardware", "firmware")
# What hardware/ must never import: the rules and the screens sit above it.
FORBIDDEN = ("controller", "display")
# Modules the controller imports just to name a cue or a protocol: standard library only.
DEPENDENCY_FREE = ("hardware.cues", "hardware.protocols")


def module_name(root: Path, path: Path) -> str:
    """``root/hardware/leds.py`` -> ``hardware.leds``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(module: str, path: Path) -> set[str]:
    """Every module name ``path`` imports anywhere in its body, relative imports resolved.

    ``from a.b import c`` counts as importing both ``a.b`` and ``a.b.c``; the
    caller keeps whichever is a module.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            names.add(target)
            names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """For each module of ``packages`` under ``root``: every name it imports."""
    graph: dict[str, set[str]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name = module_name(root, path)
            graph[name] = imported_names(name, path)
    return graph


def internal_edges(graph: Mapping[str, set[str]]) -> dict[str, set[str]]:
    """The graph restricted to its own modules: who imports whom inside the packages."""
    return {
        name: {other for other in imports if other in graph and other != name}
        for name, imports in graph.items()
    }


def find_cycle(edges: Mapping[str, set[str]]) -> list[str] | None:
    """One import cycle as ``[a, b, ..., a]``, or ``None`` if the graph is layered."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(edges):
        if start not in done:
            found = visit(start)
            if found:
                return found
    return None


def layers(edges: Mapping[str, set[str]]) -> dict[str, int]:
    """Each module's layer: 0 for one importing nothing internal, else one above its highest."""
    cycle = find_cycle(edges)
    assert cycle is None, "no layers in a cycle: " + " -> ".join(cycle or [])
    memo: dict[str, int] = {}

    def layer(node: str) -> int:
        if node not in memo:
            memo[node] = 1 + max((layer(n) for n in edges[node]), default=-1)
        return memo[node]

    return {node: layer(node) for node in edges}


def test_hardware_has_no_import_cycle() -> None:
    edges = internal_edges(import_graph(ROOT, PACKAGES))
    assert "hardware.reader_factory" in edges  # the walk really found the modules
    cycle = find_cycle(edges)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_reader_layers_are_in_the_documented_order() -> None:
    # Base below the serial stream, below each protocol, below the factory on top.
    level = layers(internal_edges(import_graph(ROOT, PACKAGES)))
    assert level["hardware.seat_reader"] < level["hardware.serial_stream"]
    assert level["hardware.seat_reader"] < level["hardware.mock_reader"]
    for protocol in ("line_protocol", "link_reader", "rfid125", "pn532_reader"):
        assert level["hardware.serial_stream"] < level[f"hardware.{protocol}"]
        assert level[f"hardware.{protocol}"] < level["hardware.reader_factory"]
    assert level["hardware.supervisor"] < level["hardware.reader_factory"]
    top = max(level[name] for name in level if name.startswith("hardware."))
    assert level["hardware.reader_factory"] == top


def test_hardware_never_imports_the_controller_or_the_display() -> None:
    graph = import_graph(ROOT, ("hardware",))
    reaching_up = sorted(
        f"{module} imports {name}"
        for module, imports in graph.items()
        for name in imports
        if name.split(".")[0] in FORBIDDEN
    )
    assert reaching_up == []


def test_cue_and_protocol_names_need_only_the_standard_library() -> None:
    graph = import_graph(ROOT, ("hardware",))
    for module in DEPENDENCY_FREE:
        outside = sorted(
            name
            for name in graph[module]
            if name.split(".")[0] not in sys.stdlib_module_names and name != "__future__"
        )
        assert outside == [], f"{module} imports {outside}"


def test_naming_a_cue_or_a_protocol_loads_no_driver() -> None:
    # In a fresh interpreter: importing them must not pull in pyserial or the pixel buffer.
    code = (
        "import sys, hardware.cues, hardware.protocols\n"
        "print(' '.join(sorted(m for m in ('serial', 'adafruit_pixelbuf', 'gpiozero') "
        "if m in sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.strip() == ""


def test_the_walk_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    # The checker itself: a cycle closed by a late (function-level) relative import is caught.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import thing\n")
    (package / "b.py").write_text("def thing():\n    from . import a\n    return a\n")
    (package / "c.py").write_text("import pkg.b\nimport controller.table\n")
    graph = import_graph(tmp_path, ("pkg",))
    cycle = find_cycle(internal_edges(graph))
    assert cycle is not None and cycle[0] == cycle[-1]
    assert set(cycle) == {"pkg.a", "pkg.b"}
    assert "controller.table" in graph["pkg.c"]
    (package / "b.py").write_text("thing = 1\n")
    layered = internal_edges(import_graph(tmp_path, ("pkg",)))
    assert find_cycle(layered) is None
    assert layers(layered) == {"pkg": 0, "pkg.b": 0, "pkg.a": 1, "pkg.c": 1}
