"""The layering of docs/architecture.md, checked on the code's own imports: apps import only downwards, nothing in
the product imports the evaluation (bench) or the test fakes (testing), and tasks hold entry points only."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Lower index = lower floor. An app may import itself and anything below it.
LAYERS = ["core", "agents", "governance", "memory", "testing", "recmem_site", "bench"]
PRODUCT = ["core", "agents", "governance", "memory", "recmem_site"]


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


def test_no_import_circle_between_modules_of_different_apps():
    modules = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p
               for app in LAYERS for p in _sources(app)}

    def targets(path: Path) -> set[str]:
        tree = ast.parse(path.read_text())
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        return {n for n in names if n in modules}

    graph = {m: targets(p) for m, p in modules.items()}
    spanning = [sorted(c) for c in _strongly_connected(graph) if len({m.split(".")[0] for m in c}) > 1]
    assert not spanning, f"import circles across apps: {spanning}"


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
