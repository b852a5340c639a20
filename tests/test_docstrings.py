"""Every public function documents itself, numpy-style, and no jitted kernel is public
(issue 28, items 6 and 7). Read from the source with ``ast``: nothing of gamecore is imported.

Public: a module-level ``def`` whose name has no leading underscore, and a method of such a
class (a module-level class whose name has no leading underscore), except dunder methods,
properties, a Protocol's declarations (a body of ``...``), and a method overriding one of
a gamecore base class (a game's ``exact``, ``simulate``, ``count``, ``hand``,
``rules_type``, ``exact_counts``, ``cross_check``): an override keeps its base's contract
and is read in the base's docstring.

Its docstring must have
- a ``Parameters`` section (a ``Parameters`` line underlined with dashes) naming every
  parameter but ``self`` and ``cls`` (``a, b : int`` names two; ``*args`` and ``**kwargs``
  are named with or without their stars), when it takes any;
- a ``Returns`` (or ``Yields``) section when it gives a value: a ``return`` with a value
  or a ``yield`` in its own body, or a return annotation other than ``None`` (an abstract
  method says what its overrides return).

A kernel, a name compiled by numba (decorated with ``@kernel``, ``@kernel(...)``,
``@njit``, ``@numba.njit``, ``@jit``, ``@vectorize``, ... or assigned from one), must be
private: a public function in front of it validates, converts, calls it and says so in
its docstring.

Nothing else is exempt: when this test was written it listed what failed (247 functions
without their sections, 18 public kernels), and issue 28 emptied both lists. The only
public kernels are those other modules' kernels inline, each documented as a function:
gamecore._jit.INLINED_ACROSS_MODULES, with the reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gamecore"

#: The decorators (by their last name: ``numba.njit`` is ``njit``) that compile a kernel:
#: gamecore._jit's ``kernel`` and numba's own.
NUMBA_DECORATORS = frozenset(
    {"kernel", "njit", "jit", "vectorize", "guvectorize", "cfunc", "generated_jit", "stencil"}
)

#: The decorators that make a method an attribute to read, not a function to call.
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "setter", "getter", "deleter"})


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text("utf-8")) for name, path in MODULES.items()}

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def last_name(node: ast.expr) -> str:
    """The name a decorator or base class is spelled with: ``numba.njit(cache=True)`` ->
    ``njit``, ``abc.ABC`` -> ``ABC``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def is_public(name: str) -> bool:
    return not name.startswith("_")


def is_kernel(node: FunctionNode) -> bool:
    return any(last_name(decorator) in NUMBA_DECORATORS for decorator in node.decorator_list)


def classes() -> dict[str, list[ast.ClassDef]]:
    """Every module-level class of the package by its name (a name may be defined twice)."""
    found: dict[str, list[ast.ClassDef]] = {}
    for tree in TREES.values():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(node)
    return found


CLASSES = classes()


def inherited_methods(node: ast.ClassDef, seen: frozenset[str] = frozenset()) -> set[str]:
    """The method names ``node``'s gamecore base classes (and theirs) define."""
    names: set[str] = set()
    for base in node.bases:
        base_name = last_name(base)
        if base_name in seen:
            continue
        for base_node in CLASSES.get(base_name, []):
            names |= {child.name for child in base_node.body if isinstance(child, FunctionNode)}
            names |= inherited_methods(base_node, seen | {base_name})
    return names


def public_functions() -> dict[str, FunctionNode]:
    """Every public function and method the docstring rules apply to: qualified name ->
    node (a kernel included: it is reported as a kernel too)."""
    found: dict[str, FunctionNode] = {}
    for module, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, FunctionNode) and is_public(node.name):
                found[f"{module}.{node.name}"] = node
            elif isinstance(node, ast.ClassDef) and is_public(node.name):
                overridden = inherited_methods(node)
                for child in node.body:
                    if not isinstance(child, FunctionNode) or not is_public(child.name):
                        continue  # a dunder or private method
                    decorators = {last_name(d) for d in child.decorator_list}
                    if decorators & PROPERTY_DECORATORS or child.name in overridden:
                        continue
                    if is_stub(child):
                        continue  # a Protocol's declaration: its implementation documents it
                    found[f"{module}.{node.name}.{child.name}"] = child
    return found


def is_stub(node: FunctionNode) -> bool:
    """Whether ``node``'s body is only ``...`` (a Protocol's method, an overload)."""
    (first, *rest) = node.body
    return not rest and isinstance(first, ast.Expr) and getattr(first.value, "value", 0) is ...


def parameters(node: FunctionNode) -> list[str]:
    arguments = node.args
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]]
    names += [a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [name for name in names if name not in ("self", "cls")]


def own_nodes(node: FunctionNode):
    """The nodes of ``node``'s body, not of the functions, lambdas and classes inside it."""
    stack = list(node.body)
    while stack:
        child = stack.pop()
        yield child
        if not isinstance(child, (*FunctionNode.__args__, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(child))


def gives_a_value(node: FunctionNode) -> bool:
    annotation = node.returns
    if annotation is not None:
        text = ast.unparse(annotation).strip("'\"")
        # a context manager's generator yields nothing: Iterator[None]
        nothing = re.fullmatch(r"(\w+\.)*(Iterator|Generator|Iterable)\[None\b.*", text)
        return not nothing and text not in ("None", "NoReturn", "Never", "typing.NoReturn")
    return any(
        (isinstance(child, ast.Return) and child.value is not None
         and not (isinstance(child.value, ast.Constant) and child.value.value is None))
        or isinstance(child, (ast.Yield, ast.YieldFrom))
        for child in own_nodes(node)
    )  # fmt: skip


def sections(docstring: str) -> dict[str, list[str]]:
    """A numpy-style docstring's sections: header -> its lines (headers underlined with
    dashes, at the docstring's own indentation)."""
    lines = docstring.splitlines()
    found: dict[str, list[str]] = {}
    current = None
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line.strip() and not line[0].isspace() and re.fullmatch(r"-{3,}", following.strip()):
            current = line.strip()
            found[current] = []
        elif current is not None and not re.fullmatch(r"-{3,}", line.strip()):
            found[current].append(line)
    return found


def named(section: list[str]) -> set[str]:
    """The parameters a Parameters section names: its unindented lines, ``name : type``."""
    names = set()
    for line in section:
        if line.strip() and not line[0].isspace():
            for name in line.split(" : ")[0].split(","):
                names.add(name.strip().lstrip("*"))
    return names


def missing(node: FunctionNode) -> list[str]:
    """What ``node``'s docstring lacks of the rules: empty when it keeps them."""
    docstring = ast.get_docstring(node) or ""
    found = sections(docstring)
    problems = []
    wanted = parameters(node)
    if wanted:
        if "Parameters" not in found:
            problems.append("no Parameters section")
        else:
            unnamed = [
                name for name in wanted if name.lstrip("*") not in named(found["Parameters"])
            ]
            if unnamed:
                problems.append(f"Parameters does not name {', '.join(unnamed)}")
    if gives_a_value(node) and "Returns" not in found and "Yields" not in found:
        problems.append("no Returns section")
    return problems


def undocumented() -> dict[str, list[str]]:
    return {
        name: problems for name, node in public_functions().items() if (problems := missing(node))
    }


def public_kernels() -> set[str]:
    found = set()
    for module, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, FunctionNode) and is_public(node.name) and is_kernel(node):
                found.add(f"{module}.{node.name}")
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                call = node.value
                compiled = last_name(call) in NUMBA_DECORATORS or (
                    isinstance(call.func, ast.Call) and last_name(call.func) in NUMBA_DECORATORS
                )
                if compiled:
                    found |= {
                        f"{module}.{target.id}"
                        for target in node.targets
                        if isinstance(target, ast.Name) and is_public(target.id)
                    }
    return found


def test_every_public_function_has_numpy_style_parameters_and_returns():
    problems = undocumented()
    assert not problems, "\n".join(
        f"{name}: {'; '.join(found)}" for name, found in sorted(problems.items())
    )


#: Kernels public by design, each documented as a function: other modules' kernels inline
#: them (gamecore/_jit.py's INLINED_ACROSS_MODULES says why; read from its source here).
INLINED_ACROSS_MODULES = set(
    ast.literal_eval(
        next(
            node.value.args[0]
            for node in TREES["gamecore._jit"].body
            if isinstance(node, ast.Assign)
            and getattr(node.targets[0], "id", "") == "INLINED_ACROSS_MODULES"
        )
    )
)


def test_no_kernel_is_public():
    new = sorted(public_kernels() - INLINED_ACROSS_MODULES)
    assert not new, f"kernels are private (a public function in front of one): {new}"


def test_a_kernel_public_to_be_inlined_is_inlined_and_documented():
    """Each of INLINED_ACROSS_MODULES is a kernel compiled ``inline=True`` (the only reason
    it may be public) and keeps the docstring rules of a public function."""
    for name in sorted(INLINED_ACROSS_MODULES):
        module, _, function = name.rpartition(".")
        node = next(n for n in TREES[module].body if getattr(n, "name", "") == function)
        assert is_kernel(node), name
        decorators = [ast.unparse(d) for d in node.decorator_list]
        assert "kernel(inline=True)" in decorators, (name, decorators)
        assert not missing(node), (name, missing(node))


def test_the_rules_read_a_docstring_as_meant():
    """The reader itself, on a small source: what passes, what fails and why."""
    source = '''
def documented(a, *args, b=1, **options) -> int:
    """Sum.

    Parameters
    ----------
    a, b : int
        Terms.
    *args : int
        More terms.
    **options
        Ignored.

    Returns
    -------
    int
        The sum.
    """
    return a + b

def undocumented(a):
    """Return ``a``."""
    return a

def nothing(a) -> None:
    """Print ``a``.

    Parameters
    ----------
    a : int
        What to print.
    """
    print(a)

def generator():
    """Count.

    Yields
    ------
    int
        0, 1, ...
    """
    yield 0
'''
    tree = ast.parse(source)
    verdicts = {node.name: missing(node) for node in tree.body}
    assert verdicts == {
        "documented": [],
        "undocumented": ["no Parameters section", "no Returns section"],
        "nothing": [],
        "generator": [],
    }
    (partial,) = ast.parse('def f(a, b):\n    """F.\n\n    Parameters\n    ----------\n'
                           '    a : int\n        A.\n    """\n').body  # fmt: skip
    assert missing(partial) == ["Parameters does not name b"]
    (managed,) = ast.parse("def f() -> Iterator[None]:\n    yield\n").body
    assert missing(managed) == []
    (compiled,) = ast.parse("@numba.njit(cache=True)\ndef f(a):\n    return a\n").body
    assert is_kernel(compiled)
