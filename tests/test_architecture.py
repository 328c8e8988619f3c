"""The layering of docs/architecture.md, checked on the code's own imports: apps import only downwards, nothing in
the product imports the evaluation (bench) or the test fakes (testing), tasks hold entry points only, and the
packages for agents (the client, the MCP server, the examples) stand outside the product: they reach it over HTTP
only, and the product never imports them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Lower index = lower floor. An app may import itself and anything below it.
LAYERS = ["core", "agents", "governance", "memory", "testing", "recmem_site", "bench"]
PRODUCT = ["core", "agents", "governance", "memory", "recmem_site"]
# Outside the product, for agents: installed on their own (clients/python, `recmem-client`) or run as scripts.
OUTSIDE = {"recmem_client": REPO / "clients/python/src/recmem_client",
           "recmem_mcp": REPO / "clients/python/src/recmem_mcp",
           "examples": REPO / "examples"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _sources(app: str):
    for path in sorted((REPO / app).rglob("*.py")):
        parts = path.relative_to(REPO).parts
        if "tests" in parts or "migrations" in parts:
            continue
        yield path


def test_apps_import_only_downwards():
    wrong = []
    for app in LAYERS:
        allowed = set(LAYERS[: LAYERS.index(app) + 1])
        for path in _sources(app):
            for name in _imports(path) & set(LAYERS):
                if name not in allowed:
                    wrong.append(f"{path.relative_to(REPO)} imports {name}")
    assert not wrong, "imports that run upwards:\n" + "\n".join(wrong)


def test_the_product_never_imports_bench_or_the_fakes():
    wrong = [f"{path.relative_to(REPO)} imports {name}"
             for app in PRODUCT for path in _sources(app) for name in _imports(path) & {"bench", "testing"}]
    assert not wrong, "\n".join(wrong)


def test_the_fakes_never_import_bench():
    wrong = [f"{path.relative_to(REPO)} imports bench" for path in _sources("testing") if "bench" in _imports(path)]
    assert not wrong, "\n".join(wrong)


OUTSIDE_PRODUCT_PATH = re.compile(r"\b(bench|testing)\.[A-Za-z_]")


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module that are values (not docstrings or other bare string statements): where a
    dotted path would be imported by name (a queue task, ``import_module``, a setting's default)."""
    tree = ast.parse(path.read_text())
    bare = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in bare]


def test_the_product_names_neither_bench_nor_the_fakes_by_dotted_path():
    """No back door around the import rule: no task name, ``import_module`` argument or setting naming a module of
    bench or testing (``"testing.fake_openai..."``, ``"bench.eager..."``)."""
    wrong = [f"{path.relative_to(REPO)}: {text!r}"
             for app in PRODUCT for path in _sources(app) for text in _code_strings(path)
             if OUTSIDE_PRODUCT_PATH.search(text)]
    assert not wrong, "\n".join(wrong)


def test_the_product_never_imports_the_packages_for_agents():
    wrong = [f"{path.relative_to(REPO)} imports {name}"
             for app in [*PRODUCT, "testing", "bench"] for path in _sources(app)
             for name in _imports(path) & set(OUTSIDE)]
    assert not wrong, "\n".join(wrong)


def test_the_packages_for_agents_reach_the_product_over_http_only():
    assert all(folder.is_dir() for folder in OUTSIDE.values()), OUTSIDE
    inside = set(LAYERS) - {"agents"}  # `agents` is also the OpenAI Agents SDK's package name (see below)
    wrong = []
    for folder in OUTSIDE.values():
        for path in sorted(folder.rglob("*.py")):
            names = _imports(path)
            wrong += [f"{path.relative_to(REPO)} imports {name}" for name in names & inside]
            wrong += [f"{path.relative_to(REPO)} imports RecMem's agents app" for name in _agents_imports(path)]
    assert not wrong, "\n".join(wrong)


def _agents_imports(path: Path) -> list[str]:
    """Imports of RecMem's `agents` app (its modules), as opposed to the OpenAI Agents SDK's `agents` package."""
    ours = {p.stem for p in (REPO / "agents").iterdir() if p.suffix == ".py" or p.is_dir()}
    ours -= {"__init__", "__pycache__"}
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] == "agents" and (len(parts) > 1 and parts[1] in ours
                                         or len(parts) == 1 and {a.name for a in node.names} & ours):
                found.append(node.module)
    return found


def _module_graph() -> dict[str, set[str]]:
    """Every product module -> the product modules it imports (absolute and relative imports, at any depth)."""
    modules = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p
               for app in LAYERS for p in _sources(app)}

    def targets(name: str, path: Path) -> set[str]:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # "from ..normalise import x" inside governance.privacy.recognizers
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                # "from pkg import sub" imports the submodule sub; any other name comes from pkg itself
                subs = {f"{base}.{a.name}" for a in node.names} & modules.keys()
                names.update(subs)
                if len(subs) < len(node.names):
                    names.add(base)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        return {n for n in names if n in modules and n != name}

    return {m: targets(m, p) for m, p in modules.items()}


def test_no_import_circle_between_modules_of_different_apps():
    spanning = [sorted(c) for c in _strongly_connected(_module_graph()) if len({m.split(".")[0] for m in c}) > 1]
    assert not spanning, f"import circles across apps: {spanning}"


def test_no_import_circle_inside_an_app():
    """A circle inside one app is a module that should have been split (the rules and the runner of the secret
    recognizers were one): each module's imports form a tree, the Python client's annotation-only one aside."""
    circles = [sorted(c) for c in _strongly_connected(_module_graph())]
    assert not circles, f"import circles: {circles}"


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm (iterative): the import circles, each as the set of modules on it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_tasks_hold_entry_points_only():
    tree = ast.parse((REPO / "memory" / "tasks.py").read_text())
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert all(n.name.endswith("_task") for n in functions), [n.name for n in functions]
