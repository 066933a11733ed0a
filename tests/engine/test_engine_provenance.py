"""Which code made a save (ecs_zombie/provenance.py): the engine's version and, per scheduled system,
a fingerprint of its function's source and of its module's source; and the lines verification
prints for each system whose code differs."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ecs_zombie import provenance
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.version import __version__


@pytest.fixture
def ruleset() -> Any:
    return load_ruleset("shambling")


def test_every_scheduled_system_is_fingerprinted_once(ruleset: Any) -> None:
    prints = provenance.fingerprints(ruleset)
    names = {step.spec.name for step in ruleset.scheduled()}
    assert set(prints) == names and list(prints) == sorted(names)
    assert all(len(f) == 12 and len(m) == 12 for f, m in prints.values())
    assert provenance.stamp(ruleset) == {"code": prints, "engine": __version__}


def test_a_module_fingerprint_is_its_files_sha256(ruleset: Any) -> None:
    step = next(s for s in ruleset.scheduled() if s.spec.name == "shambling.combat")
    spec = importlib.util.find_spec(step.spec.module)
    assert spec is not None and spec.origin is not None
    origin = Path(spec.origin)
    if origin.suffix != ".py":  # the installed build: the module is compiled, its source beside it
        origin = origin.with_name(origin.name.split(".", 1)[0] + ".py")
    text = origin.read_text(encoding="utf-8")
    function_hash, module_hash = provenance.fingerprints(ruleset)["shambling.combat"]
    assert module_hash == hashlib.sha256(text.encode()).hexdigest()[:12]
    assert function_hash != module_hash and function_hash != ""


def test_two_systems_of_one_module_share_its_hash_but_not_their_own(ruleset: Any) -> None:
    by_module: dict[str, list[str]] = {}
    for step in ruleset.scheduled():
        by_module.setdefault(step.spec.module, []).append(step.spec.name)
    names = next(n for n in by_module.values() if len(set(n)) > 1)
    prints = provenance.fingerprints(ruleset)
    assert len({prints[n][1] for n in names}) == 1
    assert len({prints[n][0] for n in set(names)}) == len(set(names))


def test_code_changes_name_each_system(ruleset: Any) -> None:
    now = provenance.fingerprints(ruleset)
    assert provenance.code_changes(now, ruleset) == []
    assert provenance.code_changes(None, ruleset) == [] and provenance.code_changes(["x"], ruleset) == []
    names = sorted(now)
    a, b, c, d = names[:4]
    recorded: dict[str, Any] = dict(now)
    recorded[a] = ["0" * 12, now[a][1]]  # the function changed
    recorded[b] = [now[b][0], "0" * 12]  # only its module
    recorded[c] = "garbled"
    del recorded[d]
    recorded["gone.system"] = ["1", "2"]
    expected = {a: f"{a}: its function's code changed", b: f"{b}: code elsewhere in its module changed",
                c: f"{c}: code elsewhere in its module changed", d: f"{d}: not in the recording's ruleset",
                "gone.system": "gone.system: no longer scheduled"}
    assert provenance.code_changes(recorded, ruleset) == [expected[k] for k in sorted(expected)]


def test_a_module_without_source_has_empty_fingerprints() -> None:
    assert provenance._module_source("ecs_zombie_no_such_module") == (provenance._h(""), {})
    text_hash, functions = provenance._module_source("ecs_zombie.rng")
    assert "derive" in functions and "below" not in functions  # top-level functions only (not methods)
    assert text_hash == provenance._h((Path(provenance.__file__).parent / "rng.py").read_text(encoding="utf-8"))


def test_a_compiled_module_is_fingerprinted_by_its_source_beside_it(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """In the compiled build a system's module is a `.so` (`name.cpython-311-x86_64-linux-gnu.so`):
    its fingerprint is that of the `name.py` shipped beside it, the same as in the checkout."""
    (tmp_path / "rules.py").write_text("def strike():\n    return 1\n")
    (tmp_path / "rules.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    compiled = SimpleNamespace(origin=str(tmp_path / "rules.cpython-311-x86_64-linux-gnu.so"))
    plain = SimpleNamespace(origin=str(tmp_path / "rules.py"))
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: compiled if name == "so_mod" else plain)
    monkeypatch.setattr(provenance, "_MODULES", {})
    assert provenance._module_source("so_mod") == provenance._module_source("py_mod")
    assert provenance._module_source("so_mod")[1].keys() == {"strike"}
