"""The Stalingrad table validators' error messages (the grid's geometry is tested with the engine:
tests/engine/test_engine_grid_rules.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecs_zombie.data import load_yaml
from ecs_zombie.errors import DataError
from ecs_zombie.registry import TABLES
from ecs_zombie.ruleset import load_ruleset


def test_map_errors_name_file_and_line(tmp_path: Path) -> None:
    """Table validators: an uneven row is an error naming the file, the line and the row."""
    load_ruleset("stalingrad")
    p = tmp_path / "map.yaml"
    p.write_text('legend:\n  ".": {terrain: open}\nrows:\n  - "..."\n  - ".."\n')
    with pytest.raises(DataError) as info:
        TABLES["stalingrad.map"](load_yaml(p))
    text = str(info.value)
    assert "map.yaml" in text and ":5" in text and "rows[1]" in text
    p.write_text('legend:\n  ".": {terrain: lava}\nrows: ["."]\n')
    with pytest.raises(DataError, match="terrain must be one of"):
        TABLES["stalingrad.map"](load_yaml(p))


def test_movement_costs_must_be_positive(tmp_path: Path) -> None:
    """Movement table: every action costs at least 1 MP (so an activation always ends)."""
    load_ruleset("stalingrad")
    p = tmp_path / "movement.yaml"
    modes = "\n".join(f"{m}: {{mp: 4, step: 1, diagonal: 2, turn: 0, open_door: 1, close_door: 1, pass_gear: 1}}"
                      for m in ("running", "walking", "stationary", "searching"))
    p.write_text(modes + "\n")
    with pytest.raises(DataError, match="turn must be at least 1"):
        TABLES["stalingrad.movement"](load_yaml(p))
