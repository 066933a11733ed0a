"""Components that are Singapore Zombie Apocalypse's own: what the core components do not say.

They are registered as `Sza<Class>` (SzaAttributes, SzaArms, ...): component names are global and
other rulesets use the plain words.

Reused from the core: Position (square), Wounds (Stamina: `left` of the total, `limit`), Faction, Kind, Markers
(per-turn states and once-per-combat uses), Owner (the seat playing a character), Engaged (pieces
on the same square, locked in melee) and Tally (the stage's counts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ecs_zombie.components import component


@component(name="SzaAttributes")
@dataclass(slots=True)
class Attributes:
    """The main attributes besides Stamina (which is `Wounds`) and the two derivative ones.

    Initiative and Morale are stored, not derived on the fly: the pre-generated characters print
    values the derivation (Accuracy / 10, Smarts / 10) does not give, and the book's sheet is kept."""

    strength: int = 50
    accuracy: int = 50
    smarts: int = 50
    initiative: int = 5
    morale: int = 5


@component(name="SzaCharacter")
@dataclass(slots=True)
class Character:
    """Who a piece is: name, class, special abilities and those already spent."""

    name: str = ""
    cls: str = ""
    abilities: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    injected: bool = False  # has received an Intravenous Injection (once per target)


@component(name="SzaArms")
@dataclass(slots=True)
class Arms:
    """A melee weapon, and for the Soldier the SAR-21 with its rounds and spare magazines."""

    melee: str = "bite"
    ranged: str = ""
    rounds: int = 0
    magazines: int = 0


@component(name="SzaInventory")
@dataclass(slots=True)
class Inventory:
    """Items by name (bandage, water uses, key, documents, magazine, equipment), sorted."""

    items: dict[str, int] = field(default_factory=dict)

    def add(self, item: str, n: int = 1) -> None:
        self.items[item] = self.items.get(item, 0) + n
        if list(self.items) != sorted(self.items):
            self.items = {k: self.items[k] for k in sorted(self.items)}

    def take(self, item: str, n: int = 1) -> bool:
        have = self.items.get(item, 0)
        if have < n:
            return False
        if have == n:
            del self.items[item]
        else:
            self.items[item] = have - n
        return True


@component(name="SzaInfection")
@dataclass(slots=True)
class Infection:
    """Infected at Stamina 0 or below; `turns_left` counts down to rising as a zombie.

    `fresh` marks infection taken this turn: the countdown starts at the end of the next turn."""

    infected: bool = False
    turns_left: int = 0
    fresh: bool = False


@component(name="SzaStage")
@dataclass(slots=True)
class Stage:
    """The campaign and the scenario being played: the board's changing state and the event graph.

    `stages` are scenario ids of the `sza.scenarios` table, played in order; `index` the current
    one; `built` whether its board is laid out. `event` is the current numbered event and
    `event_turns` the turns spent in it. `opened` (doors, broken windows), `looted` (salvaged
    features) are cell numbers (y * width + x); `flags` what the events test; `supply` the game
    master's zombie counters left; `order` this turn's side order from Initiative."""

    stages: list[str] = field(default_factory=list)
    index: int = 0
    built: bool = False
    turn: int = 0
    event: str = ""
    event_turns: int = 0
    entered: bool = False
    opened: list[int] = field(default_factory=list)
    looted: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    supply: int = 0
    order: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)


@component(name="SzaVehicle")
@dataclass(slots=True)
class Vehicle:
    """A car, truck or motorcycle: locked until broken into; passengers by entity id."""

    kind: str = "car"
    capacity: int = 5
    unlocked: bool = False
    passengers: list[int] = field(default_factory=list)
