"""The package's shape, kept by the project itself (issue 28): the layout issue met its limits
when it landed and three issues later cli.py had tripled, because nothing kept them.

Limits: no module over 600 lines, no function over 80, no signature over 8 parameters, no
underscore name of one module used in another, no import cycle, and the command line and
the report build reach a game only through the registry (gamecore.games), never by
importing its package.

What exceeded the limits when this test was written is listed in KNOWN_OVER, each with the
size it had: an entry may shrink, never grow, and an entry back within the limits must
leave the list (the test says so), so the list only ever gets shorter.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gamecore"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
MAX_PARAMETERS = 8

#: What exceeded a limit when the limits became a test: "module" or "module.function" ->
#: (lines, parameters) as measured then (None where that limit was kept).
KNOWN_OVER: dict[str, tuple[int | None, int | None]] = {}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text("utf-8")) for name, path in MODULES.items()}


def measured() -> dict[str, tuple[int | None, int | None]]:
    """Every module and function over a limit: name -> (lines, parameters) where over."""
    over = {}
    for name, tree in TREES.items():
        lines = len(MODULES[name].read_text("utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            over[name] = (lines, None)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = node.end_lineno - node.lineno + 1
            arguments = node.args
            count = len(arguments.posonlyargs) + len(arguments.args) + len(arguments.kwonlyargs)
            if length > MAX_FUNCTION_LINES or count > MAX_PARAMETERS:
                over[f"{name}.{node.name}"] = (
                    length if length > MAX_FUNCTION_LINES else None,
                    count if count > MAX_PARAMETERS else None,
                )
    return over


def test_nothing_new_exceeds_the_limits_and_nothing_known_grows():
    found = measured()
    problems = []
    for name, (lines, parameters) in found.items():
        known_lines, known_parameters = KNOWN_OVER.get(name, (None, None))
        if lines is not None and (known_lines is None or lines > known_lines):
            problems.append(f"{name}: {lines} lines (limit {MAX_MODULE_LINES} a module, "
                            f"{MAX_FUNCTION_LINES} a function)")  # fmt: skip
        if parameters is not None and (known_parameters is None or parameters > known_parameters):
            problems.append(f"{name}: {parameters} parameters (limit {MAX_PARAMETERS})")
    assert not problems, "\n".join(problems)


def test_what_is_back_within_the_limits_leaves_the_known_list():
    found = measured()
    fixed = [name for name in KNOWN_OVER if name not in found]
    assert not fixed, f"within the limits now, remove from KNOWN_OVER: {fixed}"


def imports(name: str) -> set[str]:
    """The gamecore modules ``name`` imports, anywhere in it (a function's import is an
    import too), outside ``if TYPE_CHECKING:`` blocks."""
    found = set()
    skipped = {
        id(child)
        for node in ast.walk(TREES[name])
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
        for statement in node.body
        for child in ast.walk(statement)
    }
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(TREES[name]):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in MODULES else base)
    return {module for module in found if module in MODULES and module != name}


def test_no_import_cycle():
    """Tarjan's strongly connected components of the import graph; a package importing its
    own submodules (its __init__ gathering them) is how a package shows its face, not a cycle."""
    graph = {
        name: {
            target
            for target in imports(name)
            if not target.startswith(name + ".") and not name.startswith(target + ".")
        }
        for name in MODULES
    }
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            connect(node)
    assert not cycles, cycles


def test_no_private_name_crosses_a_module():
    crossing = []
    for name, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gamecore"):
                crossing += [
                    f"{name} imports {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert not crossing, crossing


def game_packages() -> set[str]:
    """The packages that define a game (a ``game.py`` registered in gamecore.games)."""
    from gamecore import games

    return {entry.partition(":")[0].rpartition(".")[0] for entry in games.REGISTRY.values()}


@pytest.mark.parametrize(
    "consumer",
    sorted(n for n in MODULES if n == "gamecore.cli" or n.startswith("gamecore.reporting")),
)
def test_the_command_line_and_the_report_build_reach_games_through_the_registry(consumer):
    reached = {
        target
        for target in imports(consumer)
        for package in game_packages()
        if target == package or target.startswith(package + ".")
    }
    assert not reached, f"{consumer} imports {sorted(reached)}: go through gamecore.games"
