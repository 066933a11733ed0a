"""Validators for Night of the Shambling Dead's tables (CRT, strengths, narration track, deck)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecs_zombie.cards import playing_cards
from ecs_zombie.data import check_keys, fail, need
from ecs_zombie.limits import MAX_TABLE_NUMBER
from ecs_zombie.registry import table
from ecs_zombie.systems.core.track import validate_track

table("shambling.narration")(validate_track)
table("shambling.deck")(playing_cards)


@dataclass(frozen=True, slots=True)
class CRT:
    """Combat Results Table: wounds by d6 roll and combat strength (the last column is "N+")."""

    columns: list[int]
    rows: dict[int, list[int]]

    def wounds(self, roll: int, strength: int) -> int:
        if strength < self.columns[0]:
            return 0
        col = min(strength, self.columns[-1]) - self.columns[0]
        return self.rows[roll][col]


@table("shambling.crt")
def crt(data: Any) -> CRT:
    check_keys(data, ("columns", "rows"), "")
    columns = need(data, "columns", list, "crt")
    if columns != list(range(1, len(columns) + 1)) or len(columns) > MAX_TABLE_NUMBER:
        raise fail("columns must be 1, 2, ..., N (the last one read as N or more)", data, "columns", "columns")
    rows_doc = need(data, "rows", dict, "crt")
    rows: dict[int, list[int]] = {}
    for die in range(1, 7):
        key = str(die)
        row = rows_doc.get(key)
        if not isinstance(row, list) or len(row) != len(columns) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_TABLE_NUMBER for v in row
        ):
            raise fail(f"row {die} must list {len(columns)} whole numbers >= 0 (and at most {MAX_TABLE_NUMBER})",
                       rows_doc, key, f"rows.{key}")
        rows[die] = list(row)
    extra = sorted(set(rows_doc) - {str(d) for d in range(1, 7)})
    if extra:
        raise fail(f"unknown row {extra[0]!r} (rows are the d6 rolls 1..6)", rows_doc, extra[0], f"rows.{extra[0]}")
    return CRT(columns, rows)


@dataclass(frozen=True, slots=True)
class Strengths:
    by_kind: dict[str, tuple[int, int]]
    support_bonus: int
    support_defence: int

    def of(self, kind: str, wounded: bool) -> int:
        unwounded, hurt = self.by_kind[kind]
        return hurt if wounded else unwounded


@table("shambling.strength")
def strength(data: Any) -> Strengths:
    check_keys(data, ("survivor", "hero", "zombie", "support_bonus", "support_defence"), "")
    kinds = {}
    for kind in ("survivor", "hero", "zombie"):
        entry = need(data, kind, dict, "strength")
        check_keys(entry, ("unwounded", "wounded"), kind)
        kinds[kind] = (_number(entry, "unwounded", kind), _number(entry, "wounded", kind))
    return Strengths(kinds, _number(data, "support_bonus", "strength"), _number(data, "support_defence", "strength"))


def _number(node: Any, key: str, field: str) -> int:
    value = need(node, key, int, field)
    if abs(value) > MAX_TABLE_NUMBER:
        raise fail(f"{key} must be from -{MAX_TABLE_NUMBER} to {MAX_TABLE_NUMBER}", node, key, f"{field}.{key}")
    return int(value)
