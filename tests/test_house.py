"""House rules of the library, checked on its source: no import cycles, no private names across modules.

The checks parse ``lib/cvrepro`` with :mod:`ast` (nothing is imported) and
count every import, at module level or inside a function alike.

* Import graph: module ``a`` depends on module ``b`` when it imports ``b``
  or a name defined in ``b`` (``from pkg import name`` depends on ``pkg``'s
  ``__init__`` unless ``name`` is a submodule). Importing a submodule does
  not count as depending on its package's ``__init__`` (Python runs it, but
  only the names one imports tie the two), so a package ``__init__`` may
  import its submodules as long as none of them imports the ``__init__``'s
  own names back. Any cycle fails.
* Private names: ``from x import _name`` and ``x._name`` (``x`` a module) are
  refused across modules; so is importing a private module (``_checks``)
  from outside its own package. Dunder names (``__version__``) are public.

Both checks run on tiny synthetic packages too, to show that they catch
what they are meant to catch.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[1] / "lib" / "cvrepro"


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Dotted name -> file of every module under ``root`` (a package directory named ``package``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([package, *parts])] = path
    return found


def _package_of(module: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _resolve_from(module: str, path: Path, node: ast.ImportFrom) -> str | None:
    """The absolute module name a ``from ... import`` reads from."""
    if node.level == 0:
        return node.module
    base = _package_of(module, path)
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` of a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _private_module_outside(target: str, importer_package: str) -> bool:
    """Whether ``target`` has a private component that ``importer_package`` is not inside of."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if _is_private(part):
            owner = ".".join(parts[:i])
            if not (importer_package == owner or importer_package.startswith(owner + ".")):
                return True
    return False


def analyse(root: Path, package: str):
    """The import graph (module -> set of modules) and the private-name violations of a package."""
    modules = module_names(root, package)
    graph = {m: set() for m in modules}
    problems = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        own_package = _package_of(module, path)
        bound = {}                          # local name -> module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == package or alias.name.startswith(package + "."):
                        graph[module].add(alias.name)
                        if alias.asname:
                            bound[alias.asname] = alias.name
                        else:
                            bound[package] = package
                        if _private_module_outside(alias.name, own_package):
                            problems.append(f"{module}: imports private module {alias.name}")
            elif isinstance(node, ast.ImportFrom):
                source = _resolve_from(module, path, node)
                if not source or not (source == package or source.startswith(package + ".")):
                    continue
                if _private_module_outside(source, own_package):
                    problems.append(f"{module}: imports from private module {source}")
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    if sub in modules:
                        graph[module].add(sub)
                        bound[alias.asname or alias.name] = sub
                        if _private_module_outside(sub, own_package):
                            problems.append(f"{module}: imports private module {sub}")
                    else:
                        graph[module].add(source)
                        if _is_private(alias.name) and source != module:
                            problems.append(f"{module}: imports private name {alias.name} from {source}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                base = _dotted(node.value)
                if base is None:
                    continue
                head, _, rest = base.partition(".")
                if head in bound:
                    target = bound[head] + ("." + rest if rest else "")
                    if target in modules and target != module:
                        problems.append(f"{module}: uses private name {node.attr} of {target}")
    for deps in graph.values():
        deps.intersection_update(modules)
    return graph, sorted(set(problems))


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), plus self-imports."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# --------------------------------------------------------------------------- #
# The library
# --------------------------------------------------------------------------- #
def test_library_has_no_import_cycles():
    graph, _ = analyse(LIB, "cvrepro")
    assert len(graph) > 30                  # the walk found the library
    assert import_cycles(graph) == []


def test_library_imports_no_private_names_across_modules():
    _, problems = analyse(LIB, "cvrepro")
    assert problems == []


# --------------------------------------------------------------------------- #
# The checks themselves, on synthetic packages
# --------------------------------------------------------------------------- #
def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


CLEAN = {
    "__init__.py": "from .a import f\n",
    "a.py": "from . import b\nimport pkg.c as c\n\ndef f():\n    return b.g() + c.h()\n",
    "b.py": "def g():\n    from .c import h\n    return h()\n",
    "c.py": "def h():\n    return 1\n\ndef _own():\n    return h()\n",
    "sub/__init__.py": "",
    "sub/_helpers.py": "def check():\n    return True\n",
    "sub/user.py": "from ._helpers import check\n",
}


def test_a_clean_package_passes(tmp_path):
    graph, problems = analyse(_package(tmp_path, CLEAN), "pkg")
    assert graph["pkg.a"] == {"pkg.b", "pkg.c"}
    assert graph["pkg.b"] == {"pkg.c"}      # a function-level import counts
    assert graph["pkg"] == {"pkg.a"}
    assert import_cycles(graph) == []
    assert problems == []


@pytest.mark.parametrize("change, cycle", [
    ({"c.py": "from .a import f\n\ndef h():\n    return 1\n"}, ["pkg.a", "pkg.b", "pkg.c"]),
    ({"c.py": "def h():\n    from . import a\n    return 1\n"}, ["pkg.a", "pkg.b", "pkg.c"]),
    ({"c.py": "def h():\n    from pkg import f\n    return f\n"}, ["pkg", "pkg.a", "pkg.b", "pkg.c"]),
    ({"c.py": "import pkg.c\n\ndef h():\n    return 1\n"}, ["pkg.c"]),
])
def test_a_planted_cycle_is_found(tmp_path, change, cycle):
    graph, _ = analyse(_package(tmp_path, {**CLEAN, **change}), "pkg")
    assert cycle in import_cycles(graph)


@pytest.mark.parametrize("change, problem", [
    ({"b.py": "from .c import _own\n"}, "pkg.b: imports private name _own from pkg.c"),
    ({"b.py": "def g():\n    from pkg.c import _own\n    return _own()\n"},
     "pkg.b: imports private name _own from pkg.c"),
    ({"b.py": "from . import c\n\ndef g():\n    return c._own()\n"}, "pkg.b: uses private name _own of pkg.c"),
    ({"b.py": "import pkg.c\n\ndef g():\n    return pkg.c._own()\n"}, "pkg.b: uses private name _own of pkg.c"),
    ({"b.py": "from .sub._helpers import check\n"}, "pkg.b: imports from private module pkg.sub._helpers"),
    ({"b.py": "from .sub import _helpers\n"}, "pkg.b: imports private module pkg.sub._helpers"),
])
def test_a_planted_private_import_is_found(tmp_path, change, problem):
    _, problems = analyse(_package(tmp_path, {**CLEAN, **change}), "pkg")
    assert problem in problems


def test_xdist_groups_keep_their_tests_on_one_worker(tmp_path):
    """`make test` shares runs between tests through xdist_group marks (tests/conftest.py); pytest-xdist 3.8
    ignores them under pytest 9.2 (pytest-dev/pytest-xdist#1386), hence pytest's pin in requirements.lock."""
    import subprocess
    import sys

    (tmp_path / "test_grouped.py").write_text(
        "import os\nimport pytest\n\n\n@pytest.mark.xdist_group('one')\n@pytest.mark.parametrize('i', range(6))\n"
        "def test_grouped(i):\n"
        "    with open(os.path.join(os.path.dirname(__file__), f'worker{i}'), 'w') as fh:\n"
        "        fh.write(os.environ['PYTEST_XDIST_WORKER'])\n")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider",
                    str(tmp_path)], cwd=tmp_path, check=True, capture_output=True)
    assert len({(tmp_path / f"worker{i}").read_text() for i in range(6)}) == 1
