"""The book's dice and character creation, with its worked numbers ("Using the Dice", "How To
Create A Character", the sample sheet of Bruce Long)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from ecs_zombie import new_game
from ecs_zombie.errors import GameError
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.systems.sza.character_sheet import (
    create_character,
    render_sheet,
    sheet_to_prefab,
    sheet_to_prefab_yaml,
)
from ecs_zombie.systems.sza.components import Arms, Character
from ecs_zombie.systems.sza.dice import percentile, read_percentile
from ecs_zombie.systems.sza.tables import Rules


def rules() -> Rules:
    r: Rules = load_ruleset("sza").tables["sza.rules"]
    return r


@pytest.mark.parametrize(("tens", "units", "value"), [(7, 2, 72), (4, 10, 40), (10, 6, 6), (10, 10, 100), (1, 10, 10)])
def test_percentile_reading(tens: int, units: int, value: int) -> None:
    """Dark die tens, light die units, 0 read as 0, 00 as 100 (a d10 scripted 10 shows the face 0)."""
    assert read_percentile(tens, units) == value


def test_percentile_through_forced_dice(make_game: Any) -> None:
    game = make_game("sza", dice=[7, 2, 10, 6, 10, 10])
    assert [percentile(game, "t") for _ in range(3)] == [72, 6, 100]


def test_d10_reads_zero_as_ten_and_sums(make_game: Any) -> None:
    """1d10 is 1..10; 2d10 of 6 and 0 is 16 (the book's example)."""
    game = make_game("sza", dice=[10, 6, 10])
    assert game.roll("1d10", "t") == 10
    assert game.roll("2d10", "t") == 16


@pytest.mark.parametrize(("roll", "score"), [(1, 50), (10, 50), (11, 55), (35, 60), (36, 65), (66, 70), (80, 75),
                                             (90, 80), (91, 85), (95, 85), (96, 90), (100, 90)])
def test_attribute_scoring_table(roll: int, score: int) -> None:
    assert rules().score(roll) == score


@pytest.mark.parametrize(("value", "bonus"), [(50, 0), (59, 0), (60, 1), (69, 1), (70, 2), (79, 2), (80, 3), (89, 3),
                                              (90, 4), (95, 4)])
def test_bonus_bands_put_90_in_the_top_band(value: int, bonus: int) -> None:
    """DESIGN CHOICE: the bands skip 90 (80-89, then "> 90"); 90 is read as the top band."""
    assert rules().bonus(value) == bonus


def test_jonah_teoh_creates_bruce_long() -> None:
    """d100 66 -> Stamina base 70, a Firefighter's 80; Accuracy 55 -> Initiative 5; Smarts 70 ->
    Morale 7 and bonus +2; Strength 60 -> Bonus Attack Value +1 (the sample sheet)."""
    forced = [6, 6, 3, 10, 4, 10, 6, 10, 1, 1]  # STA 66, STR 30, ACC 40, SMRT 60, ability 1, weapon 1
    sheet = create_character("Firefighter", seed=0, name="Bruce Long", dice=forced)
    assert sheet["base"] == {"stamina": 70, "strength": 60, "accuracy": 65, "smarts": 70}
    assert sheet["total"] == {"stamina": 80, "strength": 60, "accuracy": 55, "smarts": 70}
    assert (sheet["initiative"], sheet["morale"], sheet["smarts_bonus"]) == (5, 7, 2)
    assert sheet["ability"] == "fire_suit"
    assert sheet["weapons"] == [{"weapon": "fire_axe", "title": "Fire Axe", "damage": "1d8", "bonus_attack_value": 1,
                                 "base_to_hit": 55, "ammo": None}]
    text = render_sheet(sheet)
    assert "Bruce Long" in text and "IN: 5   MR: 7" in text


@pytest.mark.parametrize("cls", ["firefighter", "soldier", "convict", "politician", "paramedic", "Prison Convict"])
def test_every_class_creates_within_bounds(cls: str) -> None:
    for seed in range(20):
        s = create_character(cls, seed)
        r = rules()
        spec = r.classes[s["class"]]
        for attr, value in s["total"].items():
            assert 40 <= value <= 100
            assert value == s["base"][attr] + spec["modifiers"][attr]
        assert s["initiative"] == s["total"]["accuracy"] // 10
        assert s["morale"] == s["total"]["smarts"] // 10
        assert s["ability"] in spec["abilities"]
    assert create_character(cls, 5) == create_character(cls, 5)


def test_soldier_carries_the_sar21() -> None:
    s = create_character("soldier", 1)
    sar = s["weapons"][0]
    assert (sar["weapon"], sar["ammo"], sar["damage"], sar["bonus_attack_value"]) == ("sar21", 10, "1d20", 0)
    assert len(s["weapons"]) == 2


def test_unknown_class_is_an_error() -> None:
    with pytest.raises(GameError):
        create_character("wizard")


def test_saved_sheet_is_a_prefab_scenarios_accept(tmp_path: Path) -> None:
    sheet = create_character("soldier", 4, name="Lee Wei")
    (tmp_path / "lee.yaml").write_text(sheet_to_prefab_yaml(sheet))
    assert yaml.safe_load((tmp_path / "lee.yaml").read_text()) == sheet_to_prefab(sheet)
    (tmp_path / "mine.yaml").write_text(
        "ruleset: sza\nprefabs: [lee.yaml]\nentities:\n"
        "  - {prefab: campaign, set: {SzaStage: {stages: [bungalow]}}}\n"
        "  - {prefab: lee_wei}\n  - {prefab: mary_jacobs}\n")
    game = new_game(str(tmp_path / "mine.yaml"), 2)
    try:
        names = {ch.name: e for e, ch in game.world.query1(Character)}
        assert set(names) == {"Lee Wei", "Mary Jacobs"}
        arms = game.world.get(names["Lee Wei"], Arms)
        assert (arms.ranged, arms.rounds) == ("sar21", 10)
        game.play()
        assert game.over
    finally:
        game.close()
