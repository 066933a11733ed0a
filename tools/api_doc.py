"""Write `docs/api.md`, the reference of ecs-zombie's public API, from the source's docstrings.

    python tools/api_doc.py            # rewrite docs/api.md
    python tools/api_doc.py --check    # exit 1 when docs/api.md is not what the source gives

The public names are `ecs_zombie.__all__`. Each is found where `ecs_zombie/__init__.py` imports it
from (eagerly or through its lazy table) and read from that module's source with `ast`: signature,
docstring, and for a class its public methods and properties. Reading the source, not the imported
objects, gives the same page from a checkout and from an installed (mypyc-compiled) build, and
imports nothing. `tests/engine/test_engine_api.py` fails when the page is stale.
"""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ecs_zombie"
PAGE = ROOT / "docs" / "api.md"

SECTIONS = [
    ("Playing a game", ["new_game", "Game", "Decision", "Stepper"]),
    ("Policies", ["Policy", "PolicyTable", "make_policy"]),
    ("Writing rules", ["system", "component", "registered_components", "decision_kind", "heuristic", "table",
                       "metrics", "board", "hidden", "option_reader"]),
    ("Loading and saving", ["load_ruleset", "Ruleset", "load_scenario", "Scenario", "load_game", "save_game",
                            "load_replay", "ReplayFile", "verify_replay", "Recorder"]),
    ("Errors", ["GameError", "DataError", "SaveError", "ScriptError", "DecisionError"]),
    ("Version", ["__version__"]),
]


def _module_file(module: str) -> Path:
    """The source of `ecs_zombie.x` (a package's `__init__.py`)."""
    rel = module.split(".")[1:]
    path = PACKAGE.joinpath(*rel)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def origins() -> tuple[list[str], dict[str, tuple[str, str]]]:
    """`__all__` and, for each name, the module and attribute it comes from."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    public: list[str] = []
    found: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ecs_zombie."):
            for alias in node.names:
                found.setdefault(alias.asname or alias.name, (node.module, alias.name))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name == "__all__":
                public = [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
            elif name == "_LAZY":
                for key, value in ast.literal_eval(node.value).items():
                    found[key] = tuple(value)  # type: ignore[assignment]
    return public, found


def _doc(node: ast.AST) -> str:
    doc = ast.get_docstring(node)  # type: ignore[arg-type]
    return inspect.cleandoc(doc) if doc else ""


def _signature(fn: ast.FunctionDef | ast.AsyncFunctionDef, drop_self: bool = False) -> str:
    args = fn.args
    if drop_self and args.args:
        rest = args.args[1:]
        defaults = args.defaults[len(args.defaults) - len(rest):] if len(args.defaults) > len(rest) else args.defaults
        args = ast.arguments(posonlyargs=args.posonlyargs, args=rest, vararg=args.vararg, kwonlyargs=args.kwonlyargs,
                             kw_defaults=args.kw_defaults, kwarg=args.kwarg, defaults=defaults)
    text = ast.unparse(args)
    returns = f" -> {ast.unparse(fn.returns)}" if fn.returns is not None else ""
    return f"({text}){returns}"


def _quote(doc: str) -> list[str]:
    return [doc, ""] if doc else ["*(no docstring)*", ""]


def _class(node: ast.ClassDef) -> list[str]:
    lines: list[str] = []
    bases = ", ".join(ast.unparse(b) for b in node.bases)
    fields = [ast.unparse(s.target) + ": " + ast.unparse(s.annotation) for s in node.body
              if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and not s.target.id.startswith("_")]
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    head = [f"class {node.name}" + (f"({bases})" if bases else "")]
    if init is not None:
        head.append(f"{node.name}{_signature(init, drop_self=True).removesuffix(' -> None')}  # constructor")
    lines += ["```python", *head, "```", "", *_quote(_doc(node))]
    if fields:
        lines += ["Fields: " + ", ".join(f"`{f}`" for f in fields) + ".", ""]
    for s in node.body:
        if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) or s.name.startswith("_"):
            continue
        decorators = {ast.unparse(d) for d in s.decorator_list}
        if any(d.endswith(".setter") for d in decorators):
            continue
        if "property" in decorators:
            returns = f": {ast.unparse(s.returns)}" if s.returns is not None else ""
            title = f"`{node.name}.{s.name}{returns}` (property)"
        else:
            title = f"`{node.name}.{s.name}{_signature(s, drop_self='staticmethod' not in decorators)}`"
        doc = _doc(s)
        lines += [f"- {title}" + (": " + doc.replace("\n", "\n  ") if doc else "")]
    if lines[-1] != "":
        lines.append("")
    return lines


def _entry(name: str, module: str, attr: str) -> list[str]:
    path = _module_file(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = f"`{module}.{attr}`" if attr != name else f"`{module}`"
    lines = [f"### `{name}`", "", f"From {where}.", ""]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == attr:
            lines += ["```python", f"def {name}{_signature(node)}", "```", "", *_quote(_doc(node))]
            return lines
        if isinstance(node, ast.ClassDef) and node.name == attr:
            return lines + _class(node)
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == attr for t in targets):
                # the type, not the value: the page must not go stale with each release
                value = node.value.value if isinstance(node.value, ast.Constant) else None
                kind = type(value).__name__ if value is not None else "object"
                return [*lines, "```python", f"{name}: {kind}", "```", "", *_quote(_doc(tree))]
    raise SystemExit(f"api_doc: {name} ({module}.{attr}) not found in {path}")


def render() -> str:
    """The page, from the source as it is."""
    public, found = origins()
    listed = [n for _title, names in SECTIONS for n in names]
    missing = [n for n in public if n not in listed]
    extra = [n for n in listed if n not in public]
    if missing or extra:
        raise SystemExit(f"api_doc: sections out of step with __all__ (unlisted: {missing}, not public: {extra})")
    init_doc = _doc(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")))
    lines = ["# ecs-zombie: the public API", "",
             "<!-- Generated by tools/api_doc.py from the docstrings: edit those, then run it. -->", "",
             init_doc, "", "`from ecs_zombie import ...`: " + ", ".join(f"`{n}`" for n in public) + ".", ""]
    for title, names in SECTIONS:
        lines += [f"## {title}", ""]
        for name in names:
            module, attr = found[name]
            lines += _entry(name, module, attr)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE.relative_to(ROOT)} is stale: run python tools/api_doc.py", file=sys.stderr)
            return 1
        print(f"{PAGE.relative_to(ROOT)} is up to date")
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
