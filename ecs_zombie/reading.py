"""Decisions, pieces and events read for a person at the table (`ecs-zombie play`).

A decision's options are what its system hands over: entity ids, zone names, `[x, y]` squares,
`['move', x, y]` actions, `'verb:arg'` texts. A person should never see an entity id, so each is
read here:

- **a piece** by what it is: a name (any component's `name` field: a Singapore character's, a
  Director item's), its `Kind`, a card's face; pieces of the same kind are numbered in the order
  they came into play (`zombie 3`), the same number on the board and in the options. A piece marked
  `hidden` (Stalingrad's face-down zombies) reads as `face-down zombie`: what it is stays secret.
- **a square** `[x, y]` as its coordinates and what stands there.
- **anything else** as itself (`yes`/`no` for a truth value, text as written).

A ruleset says how its own options read with `@option_reader(kind)` (a function of the `Reading`
and the option returning a text, or None for the default), and which rolls the players do not see
with `secret_roll(why)`. Which context keys hold pieces (`figure`, `character`, ...) is
`ENTITY_KEYS`, which a ruleset may extend. Nothing here changes the game: reading is side-effect
free, so a game played at the terminal is the same game as one answered by a policy.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ecs_zombie.decisions import Decision
    from ecs_zombie.game import Event, Game

OptionReader = Callable[["Reading", Any], "str | None"]

READERS: dict[str, OptionReader] = {}
SECRET_ROLLS: set[str] = set()
# Context keys of a decision whose integer value is a piece (the figure placed, the zombie that attacks).
ENTITY_KEYS: set[str] = {"figure", "character", "zombie", "piece", "survivor"}
# Context keys whose `[x, y]` value is a square.
SQUARE_KEYS: set[str] = {"hex", "at", "square", "cell_xy"}


def option_reader(kind: str) -> Callable[[OptionReader], OptionReader]:
    """Register how the options of decision `kind` read for a person: `fn(reading, option)` returns
    the text (never an entity id: use `reading.piece(ent)`, `reading.square(x, y)`), or None to
    fall back on the default reading."""

    def wrap(fn: OptionReader) -> OptionReader:
        READERS[kind] = fn
        return fn

    return wrap


def secret_roll(why: str) -> None:
    """A roll the players do not see the result of (a face-down piece's type): shown as rolled
    face down, without its values."""
    SECRET_ROLLS.add(why)


def by_name(t: type) -> str:
    return t.__name__


def _words(name: str) -> str:
    """`SearchSpot` -> `search spot`."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


class Reading:
    """Everything one decision (or one look at the board) reads with: the game, the decision, and a
    label for every piece, numbered once so that the board and the options agree."""

    def __init__(self, game: Game, decision: Decision | None = None) -> None:
        from ecs_zombie.components import Faction, Kind, Markers

        self.game = game
        self.decision = decision
        self.brief = False
        self.comps = game.world.raw()
        self.labels: dict[int, str] = {}
        bases: dict[int, str] = {}
        unique: set[int] = set()
        for ent in sorted(self.comps):
            comps = self.comps[ent]
            markers = comps.get(Markers)
            if markers is not None and "hidden" in markers.tags:
                faction = comps.get(Faction)
                bases[ent] = "face-down " + (faction.side.removesuffix("s") if faction and faction.side else "piece")
                continue
            base, named = self._base(comps)
            if base is None:
                kind = comps.get(Kind)
                base = kind.name if kind is not None and kind.name else None
            if base:
                bases[ent] = base
                if named:
                    unique.add(ent)
        counts: dict[str, int] = {}
        for base in bases.values():
            counts[base] = counts.get(base, 0) + 1
        seen: dict[str, int] = {}
        for ent, base in bases.items():
            if counts[base] > 1 and ent not in unique:
                seen[base] = seen.get(base, 0) + 1
                self.labels[ent] = f"{base} {seen[base]}"
            else:
                self.labels[ent] = base

    @staticmethod
    def _base(comps: dict[type, Any]) -> tuple[str | None, bool]:
        """A piece's own name (with its kind), a card's face, a deck's name; (None, False) otherwise."""
        from ecs_zombie.components import Card, Deck, Kind, Zone

        card = comps.get(Card)
        if card is not None:
            return f"card {card.face}", True  # cards of one face are alike: no number
        deck = comps.get(Deck)
        if deck is not None:
            return f"{deck.name} deck", True
        kind = comps.get(Kind)
        for t in sorted(comps, key=lambda t: t.__name__):
            if t in (Kind, Zone, Deck) or not dataclasses.is_dataclass(t):
                continue
            value = getattr(comps[t], "name", None)
            if isinstance(value, str) and value:
                if kind is not None and kind.name and kind.name != value:
                    return f"{value} ({kind.name})", True
                return value, True
        return None, False

    # -- pieces ------------------------------------------------------------------------------------

    def piece(self, ent: int) -> str:
        """A piece's label (`zombie 3`, `Bruce Long (survivor)`); `a removed piece` once it is gone."""
        label = self.labels.get(ent)
        if label is not None:
            return label
        comps = self.comps.get(ent)
        if comps is None:
            return "a piece no longer in play"
        from ecs_zombie import components as engine

        own = [t for t in comps if t.__module__ != engine.__name__]  # what the game itself calls it
        return " ".join(_words(by_name(t)) for t in sorted(own or comps, key=by_name)) or "a piece"

    def where(self, ent: int) -> str:
        """Where a piece is: its zone and board, its square, or '' when it is nowhere on the table."""
        from ecs_zombie.components import Position, Zone

        comps = self.comps.get(ent, {})
        zone = comps.get(Zone)
        if zone is not None and zone.name:
            return f"{zone.name}, board {zone.board}" if self.game.players > 1 else zone.name
        pos = comps.get(Position)
        if pos is not None:
            return f"at ({pos.x}, {pos.y})"
        return ""

    def status(self, ent: int) -> str:
        """A piece's state in a few words: wounds taken, whom it is engaged with, its markers."""
        from ecs_zombie.components import Engaged, Markers, Wounds

        comps = self.comps.get(ent, {})
        hidden = comps.get(Markers) is not None and "hidden" in comps[Markers].tags
        parts = []
        wounds = comps.get(Wounds)
        if wounds is not None and wounds.taken:
            # a face-down piece's limit would tell its type
            parts.append(f"{wounds.taken} wound{'s' * (wounds.taken != 1)}" if hidden
                         else f"{wounds.taken} of {wounds.limit} wounds")
        engaged = comps.get(Engaged)
        if engaged is not None and engaged.opponents:
            parts.append("engaged with " + ", ".join(self.piece(o) for o in engaged.opponents))
        markers = comps.get(Markers)
        if markers is not None:
            shown = [t for t in markers.tags if t != "hidden" and ":" not in t]
            if shown:
                parts.append(", ".join(shown))
        return "; ".join(parts)

    def describe(self, ent: int) -> str:
        """A piece with where it is and its state: `survivor 3 (front; 1 of 2 wounds)` (its label
        alone while reading a choice already made)."""
        if self.brief:
            return self.piece(ent)
        details = [d for d in (self.where(ent), self.status(ent)) if d]
        return self.piece(ent) + (f" ({'; '.join(details)})" if details else "")

    def at(self, x: int, y: int) -> list[int]:
        """The pieces standing on square (x, y), in id order."""
        from ecs_zombie.components import Position

        return [ent for ent in sorted(self.comps) if (pos := self.comps[ent].get(Position)) is not None
                and pos.x == x and pos.y == y]

    def square(self, x: int, y: int) -> str:
        """A square as its coordinates and what stands there: `(3, 4): zombie 2, open door`."""
        there = [self.piece(ent) for ent in self.at(x, y)]
        return f"({x}, {y})" + (": " + ", ".join(there) if there else "")

    # -- options -------------------------------------------------------------------------------------

    def option(self, option: Any, kind: str | None = None, brief: bool = False) -> str:
        """One option of the decision (of `kind`, default the decision's) read for a person; `brief`:
        pieces by their labels alone (a choice already made, read in the state that followed it)."""
        kind = kind or (self.decision.kind if self.decision is not None else "")
        reader = READERS.get(kind)
        self.brief = brief
        try:
            if reader is not None:
                text = reader(self, option)
                if text is not None:
                    return text
            return self.value(option, self._entities(kind))
        finally:
            self.brief = False

    def _entities(self, kind: str) -> bool:
        """Whether a decision kind's documented options hold pieces (its `options` text says `entity`)."""
        from ecs_zombie.decisions import KINDS

        info = KINDS.get(kind)
        return info is None or "entity" in info.options

    def value(self, value: Any, entities: bool = True) -> str:
        """The default reading: a piece (when `entities` and the integer names one in play), a square
        for `[x, y]`, a verb and its arguments for `['move', x, y]`, yes/no, text as written."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            if entities and value in self.comps:
                return self.piece(value) if self.brief else self.describe(value)
            return str(value)
        if isinstance(value, str):
            return value
        if isinstance(value, list | tuple):
            items = list(value)
            if len(items) == 2 and all(type(v) is int for v in items):
                return self.square(items[0], items[1])
            if items and isinstance(items[0], str):
                rest = items[1:]
                if len(rest) == 2 and all(type(v) is int for v in rest):
                    return f"{items[0]} {self.square(rest[0], rest[1])}"
                return " ".join([items[0], *(self.value(v, entities) for v in rest)])
            return ", ".join(self.value(v, entities) for v in items)
        if isinstance(value, dict):
            return ", ".join(f"{k}: {self.value(v, entities)}" for k, v in value.items())
        return str(value)

    def context(self) -> list[str]:
        """The decision's context as `key: value` lines (pieces and squares read)."""
        if self.decision is None:
            return []
        lines = []
        for key, value in self.decision.context.items():
            if key in ENTITY_KEYS and type(value) is int:
                text = self.describe(value)
            elif key in SQUARE_KEYS and isinstance(value, list | tuple) and len(value) == 2:
                text = self.square(int(value[0]), int(value[1]))
            elif isinstance(value, dict):
                continue  # a policy's aid (hit estimates by entity): not for reading
            else:
                text = self.value(value, entities=False)
            lines.append(f"{key.replace('_', ' ')}: {text}")
        return lines

    # -- the board -------------------------------------------------------------------------------------

    def pieces(self) -> list[str]:
        """The pieces on the table, by zone or by square, each with its state (what a board shows
        when the ruleset draws none)."""
        from ecs_zombie.components import Card, Deck, Faction, Position, Zone

        zones: dict[tuple[int, str], list[str]] = {}
        squares: dict[tuple[int, int], list[str]] = {}
        off: list[str] = []
        for ent in sorted(self.comps):
            comps = self.comps[ent]
            if ent not in self.labels or Card in comps or Deck in comps:
                continue
            label = self.piece(ent)
            state = self.status(ent)
            text = label + (f" [{state}]" if state else "")
            zone, pos = comps.get(Zone), comps.get(Position)
            if zone is not None and zone.name:
                zones.setdefault((zone.board, zone.name), []).append(text)
            elif pos is not None:
                squares.setdefault((pos.y, pos.x), []).append(text)
            elif Faction in comps:
                off.append(text)
        lines = []
        for (board, name), texts in sorted(zones.items()):
            where = f"board {board}, {name}" if self.game.players > 1 else name
            lines.append(f"{where}: " + ", ".join(texts))
        for (y, x), texts in sorted(squares.items()):
            lines.append(f"({x}, {y}): " + ", ".join(texts))
        if off:
            lines.append("not on the table: " + ", ".join(off))
        return lines or ["(no pieces on the table)"]

    def board(self) -> list[str]:
        """The ruleset's text drawing of the board, or the pieces described when it has none."""
        from ecs_zombie.registry import BOARDS

        drawing = BOARDS.get(getattr(self.game.ruleset, "board", ""))
        return drawing(self.game) if drawing is not None else self.pieces()

    # -- events ----------------------------------------------------------------------------------------

    def event(self, event: Event) -> str | None:
        """A roll, a draw, a shuffle, another side's decision, a new tick or the end, as a line;
        None for the events a person does not follow one by one (effects show on the board)."""
        _tick, kind, data, _path = event
        if kind == "tick":
            return f"-- {self.game.ruleset.tick_name} {data.get('tick')} --"
        if kind == "roll":
            why = str(data.get("why", ""))
            if why in SECRET_ROLLS:
                return f"rolled {data.get('dice')} face down ({why})"
            values = data.get("values", [])
            return f"rolled {data.get('dice')} for {why}: {', '.join(str(v) for v in values)}"
        if kind == "draw":
            return f"drew {data.get('card')} from the {data.get('deck')} deck ({data.get('why')})"
        if kind == "shuffle":
            return f"shuffled the {data.get('deck')} deck ({data.get('why')})"
        if kind == "decision":
            chosen = self.option(data.get("option"), str(data.get("kind")), brief=True)
            return f"{data.get('side')} chose {chosen} ({data.get('kind')})"
        if kind == "game_over":
            return f"game over: {data.get('outcome')}"
        return None

    def events(self, events: Iterable[Event], skip_side: str | None = None) -> list[str]:
        """`event` over many, leaving out the decisions of `skip_side` (the person's own)."""
        lines = []
        for e in events:
            if skip_side is not None and e[1] == "decision" and e[2].get("side") == skip_side:
                continue
            line = self.event(e)
            if line is not None:
                lines.append(line)
        return lines
