"""docs/composing.md's YAML is real: every ruleset snippet in it loads (or, where the guide shows a
mistake, fails with exactly the error lines the guide quotes under it).

How the guide's fenced blocks are read:
- a `yaml` block whose first line is `# file: NAME` is a file the following snippets may use
  (prefabs, tables, scenarios), written under that name beside them;
- a `yaml` block with `id:` and `phases:` is a whole ruleset; one with only some of a ruleset's
  keys is those keys put over the guide's small base ruleset (`# file: tiny.yaml`), the way the
  guide says "tiny.yaml with ...";
- a ruleset snippet followed at once by a `text` block of `error:` lines must fail with exactly
  those lines (paths as `ecs-zombie validate ruleset.yaml` prints them from the snippet's folder);
  any other ruleset snippet must load, and a scenario snippet (`ruleset:` and `entities:`) must
  validate with its ruleset.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from ecs_zombie.errors import DataError
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.scenario import load_scenario

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "composing.md"
RULESET_KEYS = {"id", "name", "description", "tick", "max_ticks", "packages", "default_scenario", "prefabs",
                "tables", "parameters", "phases", "steps", "metrics", "board", "hidden", "attached"}


def blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced block, in order."""
    return [(m.group(1).strip(), m.group(2)) for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.S | re.M)]


def snippets(text: str) -> tuple[dict[str, str], list[tuple[int, str, str, list[str]]]]:
    """The files the guide defines, and its ruleset and scenario snippets as (index, kind, body,
    expected error lines)."""
    found = blocks(text)
    files: dict[str, str] = {}
    cases: list[tuple[int, str, str, list[str]]] = []
    for i, (info, body) in enumerate(found):
        if info != "yaml":
            continue
        first = body.splitlines()[0] if body else ""
        if first.startswith("# file: "):
            files[first[len("# file: "):].strip()] = body
        doc = yaml.safe_load(body)
        if not isinstance(doc, dict):
            continue
        follow = found[i + 1] if i + 1 < len(found) else ("", "")
        expected = [line for line in follow[1].splitlines() if line.startswith("error:")] if follow[0] == "text" \
            else []
        if "ruleset" in doc and "entities" in doc:
            cases.append((i, "scenario", body, expected))
        elif set(doc) <= RULESET_KEYS and (("phases" in doc and "id" in doc) or not first.startswith("# file: ")):
            cases.append((i, "ruleset", body, expected))
    return files, cases


def _sections(text: str) -> dict[str, str]:
    """A YAML file's text cut at its top-level keys (a comment line stays with the key above it)."""
    out: dict[str, str] = {}
    key, lines = "", []
    for line in text.splitlines(keepends=True):
        m = re.match(r"([A-Za-z_]+):", line)
        if m:
            if key or lines:
                out[key] = "".join(lines)
            key, lines = m.group(1), []
        lines.append(line)
    out[key] = "".join(lines)
    return out


def over(base: str, keys: str) -> str:
    """`base` with each top-level key of `keys` in place of its own (a new key goes at the end)."""
    merged = _sections(base)
    for key, text in _sections(keys).items():
        if key:
            merged[key] = text
    return "".join(merged.values())


def _materialise(folder: Path, files: dict[str, str], kind: str, body: str) -> Path:
    for name, content in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(content)
    doc: Any = yaml.safe_load(body)
    if kind == "scenario":
        path = folder / "scenario.yaml"
        path.write_text(body)
        return path
    if "id" not in doc:  # keys over the base ruleset, in its own text (so lines are tiny.yaml's)
        body = over(files["tiny.yaml"], body)
    path = folder / "ruleset.yaml"
    path.write_text(body)
    return path


def outcome(folder: Path, files: dict[str, str], kind: str, body: str) -> list[str]:
    """The error lines loading the snippet gives (none when it loads), as the command prints them."""
    path = _materialise(folder, files, kind, body)
    here = os.getcwd()
    os.chdir(folder)
    try:
        if kind == "scenario":
            load_scenario(str(path))
        else:
            load_ruleset(str(path))
    except DataError as exc:
        return [f"error: {line}" for line in str(exc).splitlines()]
    finally:
        os.chdir(here)
    return []


FILES, CASES = snippets(GUIDE.read_text())


def test_the_guide_has_snippets_and_mistakes() -> None:
    assert "tiny.yaml" in FILES
    assert sum(1 for c in CASES if c[3]) >= 10  # mistakes shown with their messages
    assert sum(1 for c in CASES if not c[3]) >= 4  # snippets that load


@pytest.mark.parametrize(("index", "kind", "body", "expected"), CASES, ids=[f"block{c[0]}" for c in CASES])
def test_each_snippet_loads_or_fails_as_the_guide_says(tmp_path: Path, index: int, kind: str, body: str,
                                                      expected: list[str]) -> None:
    assert [_known(line) for line in outcome(tmp_path, FILES, kind, body)] == [_known(line) for line in expected]


def _known(line: str) -> str:
    """An error line with the list of known board drawings or determinizers cut: it holds those of
    every package imported so far in the process (other tests import more)."""
    if "unknown board drawing" in line or "unknown determinizer" in line:
        return re.sub(r"\(known: [^)]*\)", "(known: ...)", line)
    return line


if __name__ == "__main__":  # print what each snippet gives, to write the guide's quotes
    import tempfile

    for index, kind, body, _expected in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"--- block {index} ({kind}): {body.splitlines()[0]}")
            print("\n".join(outcome(Path(tmp), FILES, kind, body)) or "ok")
