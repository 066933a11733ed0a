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
