"""Character creation ("How To Create A Character") and the filled character sheet.

`create_character(class, seed, name)` follows the book's steps: a d100 on the Attribute Scoring
Table for Stamina, Strength, Accuracy and Smarts, in that order; the class modifiers; Initiative =
Accuracy / 10 and Morale = Smarts / 10, rounded down; the Smarts bonus (and the Bonus Attack Value
from Strength); then one of the class's two abilities and a weapon. The dice come from the seed's
stream `sza/character` (or a forced script, as in games: a d10 of 10 shows the face 0); the d100 is
read from a tens and a units d10 (00 is 100).
DESIGN CHOICE: the player's free picks are made by dice when no choice is given: the ability by a
d2 between the class's two, the weapon by a die over the class's preferred weapons (Soldiers also
carry the SAR-21 with 10 rounds). `sheet_to_prefab_yaml` writes the sheet as a prefab file that a
scenario lists under `prefabs:` and places like any pre-generated character.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ecs_zombie.dice import DiceScript, roll_die
from ecs_zombie.errors import GameError
from ecs_zombie.rng import derive
from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.systems.sza.dice import read_percentile
from ecs_zombie.systems.sza.tables import ATTRIBUTES, Rules

ALIASES = {"fire fighter": "firefighter", "prison convict": "convict", "prison_convict": "convict"}


def class_id(name: str, rules: Rules) -> str:
    key = ALIASES.get(name.strip().lower(), name.strip().lower().replace(" ", "_").replace("-", "_"))
    if key not in rules.classes:
        known = ", ".join(sorted(rules.classes))
        raise GameError(f"unknown class {name!r} (known: {known})")
    return key


def create_character(class_name: str, seed: int = 0, name: str | None = None,
                     dice: list[int] | None = None, ability: str | None = None,
                     weapon: str | None = None) -> dict[str, Any]:
    """A filled character sheet (a plain dict) for `class_name`, from `seed` or forced `dice`."""
    rules: Rules = load_ruleset("sza").tables["sza.rules"]
    cls = class_id(class_name, rules)
    spec = rules.classes[cls]
    stream = derive(seed, "sza/character")
    script = DiceScript(list(dice or []))
    rolls: list[dict[str, Any]] = []

    def d(sides: int, why: str) -> int:
        value = roll_die(sides, stream, script)
        rolls.append({"die": f"d{sides}", "value": value, "why": why})
        return value

    base, total, bonus = {}, {}, {}
    for attr in ATTRIBUTES:
        roll = read_percentile(d(10, f"{attr} (tens)"), d(10, f"{attr} (units)"))
        base[attr] = rules.score(roll)
        bonus[attr] = int(spec["modifiers"][attr])
        total[attr] = base[attr] + bonus[attr]
    options = list(spec["abilities"])
    if ability is None:
        ability = options[d(len(options), "ability") - 1] if len(options) > 1 else options[0]
    elif ability not in options:
        raise GameError(f"a {spec['title']} picks one of {', '.join(options)}, not {ability!r}")
    weapons = list(spec["weapons"])
    if weapon is None:
        weapon = weapons[d(len(weapons), "weapon") - 1] if len(weapons) > 1 else weapons[0]
    elif weapon not in rules.melee:
        raise GameError(f"unknown weapon {weapon!r} (known: {', '.join(sorted(rules.melee))})")
    arms = [_weapon_row(rules, weapon, total, False)]
    ranged = str(spec.get("ranged", ""))
    if ranged:
        arms.insert(0, _weapon_row(rules, ranged, total, True))
    title = str(spec["title"])
    return {
        "name": name or f"{title} {seed}",
        "class": cls,
        "class_title": title,
        "base": base,
        "class_bonus": bonus,
        "total": total,
        "initiative": total["accuracy"] // 10,
        "morale": total["smarts"] // 10,
        "smarts_bonus": rules.bonus(total["smarts"]),
        "ability": ability,
        "ability_title": str(rules.abilities[ability]["title"]),
        "current_stamina": total["stamina"],
        "infected": False,
        "weapons": arms,
        "equipment": {},
        "rolls": rolls,
        "seed": seed,
    }


def _weapon_row(rules: Rules, wid: str, total: dict[str, int], ranged: bool) -> dict[str, Any]:
    if ranged:
        w = rules.ranged[wid]
        return {"weapon": wid, "title": w["title"], "damage": w["damage"], "bonus_attack_value": 0,
                "base_to_hit": total["accuracy"], "ammo": int(w["magazine"]),
                "magazines": int(w.get("extra_bullets", 0))}
    w = rules.melee[wid]
    return {"weapon": wid, "title": w["title"], "damage": w["damage"],
            "bonus_attack_value": rules.bonus(total["strength"]), "base_to_hit": total["accuracy"], "ammo": None}


def slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return s or "character"


def sheet_to_prefab(sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet as one prefab (`extends: sza_character`), named after the character."""
    total = sheet["total"]
    melee = next(w["weapon"] for w in sheet["weapons"] if w["ammo"] is None)
    ranged = next((w for w in sheet["weapons"] if w["ammo"] is not None), None)
    body: dict[str, Any] = {
        "extends": "sza_character",
        "SzaCharacter": {"name": sheet["name"], "cls": sheet["class"], "abilities": [sheet["ability"]]},
        "Wounds": {"taken": total["stamina"] - sheet["current_stamina"], "limit": total["stamina"]},
        "SzaAttributes": {"strength": total["strength"], "accuracy": total["accuracy"], "smarts": total["smarts"],
                       "initiative": sheet["initiative"], "morale": sheet["morale"]},
        "SzaArms": {"melee": melee, "ranged": ranged["weapon"] if ranged else "",
                 "rounds": ranged["ammo"] if ranged else 0, "magazines": ranged["magazines"] if ranged else 0},
        "SzaInventory": {"items": dict(sorted(sheet.get("equipment", {}).items()))},
    }
    return {slug(sheet["name"]): body}


def sheet_to_prefab_yaml(sheet: dict[str, Any]) -> str:
    """A prefab file for the character; list it under a scenario's `prefabs:` and place it by name."""
    head = (f"# {sheet['name']}, {sheet['class_title']} (Singapore Zombie Apocalypse character sheet,\n"
            f"# seed {sheet['seed']}). Use it in a scenario:  prefabs: [this file]  and\n"
            f"#   entities: [{{prefab: {slug(sheet['name'])}}}]\n")
    return head + yaml.safe_dump(sheet_to_prefab(sheet), sort_keys=False, default_flow_style=None, width=100)


def render_sheet(sheet: dict[str, Any]) -> str:
    """The filled character sheet as text, laid out like the book's sample."""
    lines = [f"CHARACTER'S NAME: {sheet['name']}", f"CLASS: {sheet['class_title']}", "",
             "        Base  Class  Total", ]
    labels = {"stamina": "STA", "strength": "STR", "accuracy": "ACC", "smarts": "SMRT"}
    for attr, label in labels.items():
        b = sheet["class_bonus"][attr]
        bonus = f"{b:+d}" if b else "-"
        extra = f"   BONUS {sheet['smarts_bonus']:+d}" if attr == "smarts" else ""
        lines.append(f"{label:<6}{sheet['base'][attr]:>6}{bonus:>7}{sheet['total'][attr]:>7}{extra}")
    lines += ["", f"IN: {sheet['initiative']}   MR: {sheet['morale']}   Special Ability: {sheet['ability_title']}",
              f"Current STA: {sheet['current_stamina']}   Infected: {'Y' if sheet['infected'] else 'N'}", "",
              "Weapon          DMG    Bonus Attack Value   Base # To Hit   Ammo"]
    for w in sheet["weapons"]:
        ammo = "-" if w["ammo"] is None else str(w["ammo"])
        lines.append(f"{w['title']:<16}{w['damage']:<7}{w['bonus_attack_value']:+d}{'':<19}{w['base_to_hit']:<16}{ammo}")
    return "\n".join(lines)


def save_prefab(sheet: dict[str, Any], target: str) -> Path:
    """Write the sheet's prefab YAML atomically (a bare file name goes into `saves/`, like saves)."""
    from ecs_zombie.session import output_path
    from ecs_zombie.snapshot import write_atomic

    path = output_path(target)
    write_atomic(path, sheet_to_prefab_yaml(sheet).encode("utf-8"))
    return path
