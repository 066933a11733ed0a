"""Cards and decks as entities: each card an entity with `Card`, each deck an entity with `Deck`.

Standard playing-card faces are rank then suit: `A`/`1`, `2`..`10`, `J`, `Q`, `K` and `H`, `D`,
`C`, `S` (`7H`, `10S`, `AC`), and `JK` for a joker. An ace is worth 1, a joker 0.
"""

from __future__ import annotations

from typing import Any

from ecs_zombie.components import Card
from ecs_zombie.data import YList, check_keys, fail
from ecs_zombie.errors import ScriptError
from ecs_zombie.limits import MAX_TABLE_NUMBER
from ecs_zombie.registry import table

RANKS = {"A": 1, "1": 1, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 11)}
SUITS = ("H", "D", "C", "S")


def parse_face(face: str) -> tuple[str, int, str]:
    """`7h` -> ("7H", 7, "H"); raises ValueError for anything that is not a playing card."""
    f = face.strip().upper()
    if f in ("JK", "JOKER"):
        return "JK", 0, ""
    rank, suit = f[:-1], f[-1:]
    if suit not in SUITS or rank not in RANKS:
        raise ValueError(f"not a playing card: {face!r} (e.g. AH, 7H, 10S, JK)")
    return ("A" if rank == "1" else rank) + suit, RANKS[rank], suit


def is_black(card: Card) -> bool:
    return card.suit in ("C", "S")


@table("core.playing_cards")
def playing_cards(data: Any) -> list[dict[str, Any]]:
    """A deck table: a list of faces (`[AH, 2H, ..., JK]`) or of {face, value, suit, count} entries."""
    if not isinstance(data, YList) or not data:
        raise fail("a deck table is a non-empty list of cards", data, None, "cards")
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(data):
        if isinstance(entry, str):
            try:
                face, value, suit = parse_face(entry)
            except ValueError as exc:
                raise fail(str(exc), data, i, f"cards[{i}]") from None
            out.append({"face": face, "value": value, "suit": suit})
        elif isinstance(entry, dict) and isinstance(entry.get("face"), str):
            check_keys(entry, ("face", "value", "suit", "count"), f"cards[{i}]")
            count = entry.get("count", 1)
            value = entry.get("value", 0)
            if (type(count) is not int or not 1 <= count <= MAX_TABLE_NUMBER or type(value) is not int
                    or abs(value) > MAX_TABLE_NUMBER or not isinstance(entry.get("suit", ""), str)):
                raise fail(f"count must be a positive whole number and value a whole number (each at most "
                           f"{MAX_TABLE_NUMBER}, value either way), and suit text", data, i, f"cards[{i}]")
            for _ in range(count):
                out.append({"face": entry["face"], "value": value, "suit": str(entry.get("suit", ""))})
        else:
            raise fail("expected a card face or {face, value, suit, count}", data, i, f"cards[{i}]")
        if len(out) > MAX_TABLE_NUMBER:
            raise fail(f"a deck holds at most {MAX_TABLE_NUMBER} cards", data, i, f"cards[{i}]")
    return out


def check_card_script(faces: list[str], known: set[str]) -> list[str]:
    """Normalise a card script and check every card exists in some deck of the game."""
    out = []
    for i, raw in enumerate(faces):
        try:
            face = parse_face(raw)[0]
        except ValueError:
            face = raw.strip().upper()
        if face not in known:
            raise ScriptError(f"card script entry {i + 1}: {raw!r} is not a card of this game's decks")
        out.append(face)
    return out
