"""The equivalent mutants recorded under benchmarks/mutation/ still name code that exists: an entry
whose line moved where its text is no longer unique, changed or went matches no mutant, and a later
mutation run would count its mutant (if it still exists) as a survivor with no reason given."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

PACKAGES = ("core", "director", "engine", "shambling", "stalingrad", "sza")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_equivalent_entry_matches_a_mutant(package: str) -> None:
    result = subprocess.run([sys.executable, "benchmarks/mutation.py", package, "--stale"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_tables_mutant_runs_the_tests_naming_its_keys_first() -> None:
    """A YAML mutant runs every test of its package (any may read the value), but the tests of files
    that name more of its keys or its table's file come first, fastest first within each group."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "benchmarks" / "mutation.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules["mutation_tool"] = tool
    try:
        spec.loader.exec_module(tool)
        text = "abilities:\n  inspire: {range: 2}\n  medic: {heal: 1}\n"
        (inspire, _minus, *_rest) = tool.yaml_mutants("prefabs/sza/rules.yaml", text)
        assert inspire.names == ("abilities", "inspire", "range") and inspire.replacement == "3"
        passing = ["a.py::fast", "b.py::mid", "c.py::slow", "d.py::slower"]
        texts = {"a.py": "nothing here", "b.py": "inspire", "c.py": "inspire range rules.yaml", "d.py": "rules"}
        assert tool.select_tests(inspire, None, passing, {}, texts) == ["c.py::slow", "b.py::mid", "d.py::slower",
                                                                         "a.py::fast"]
    finally:
        del sys.modules["mutation_tool"]
