"""A tight plain-Python Night of the Shambling Dead: the benchmark reference for the engine's speed.

    python benchmarks/shambling_reference.py --check 200                  # seeds 0..199, event for event
    python benchmarks/shambling_reference.py --games 1000 --repeats 5     # games/s of both, and the ratio
    python benchmarks/shambling_reference.py --games 1000 --repeats 5 --installed

Why it exists (issue: speed): "Shambling in the checkout's plain Python at least 0.5x a tight
plain-Python loop of the same rules". A ratio needs a denominator that plays exactly the same game,
or it measures a different workload: this file plays the `shambling` ruleset with its defaults and its
default scenario (one player; its boards loop as the engine's do, and 2-4 seats matched the engine
too when tried), every decision answered as the `heuristic` policy answers it (systems/shambling/heuristics.py),
with no ECS, no esper and no engine class in the loop: figures are small `__slots__` objects kept in
per-zone lists in id order, boards hold their markers as booleans, and every rule is a plain
function. It draws from the same streams in the same order (ecs_zombie.rng's PCG32, seeded as Game
seeds its named streams `dice` and `deck/shambling`), gives new figures the ids the engine's world
would, and writes the same event log: for every seed, its `(tick, kind, data)` events equal the
engine's `[e[:3] for e in game.events]` and its outcome the engine's. `--check` holds it to that,
and tests/engine/test_engine_reference.py does on a few seeds in every test run, so that the
reference can never drift from the rules unseen (a faster reference that plays another game would
make the ratio a lie).

Tables (CRT, strengths, track, deck, prefabs, the parameters' defaults, the scenario) are read from
the YAML under prefabs/ once, before any timing; the rules' logic (README, "Night of the Shambling
Dead: choices where the text is silent") is written out here. What it leaves out: the engine's
strict mode, recording, forks, scripted dice and cards, the boards' tallies (they reach neither the
log nor the outcome) and the event's fourth field (the system path), and any ruleset parameter or
policy but the defaults.

Timing (`--games N --repeats R`): both play seeds 0..N-1, alternating reference and engine in each
repeat; the median CPU time (time.process_time) of each gives its games/s, and the ratio is the
engine's games/s over the reference's (target >= 0.5). With `--installed` the engine is the
installed build; the reference stays this file, but its PCG32 (ecs_zombie.rng) is then the
installed one too, compiled by mypyc when the wheel was.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any

import measured  # before ecs_zombie: it chooses the build measured
import yaml

from ecs_zombie.rng import PCG32, derive

ROOT = Path(__file__).resolve().parents[1]
PREFABS = ROOT / "prefabs"

FRONT, SUPPORT = "front", "support"
OTHER = {FRONT: SUPPORT, SUPPORT: FRONT}
DECK = "shambling"
RANKS = {"A": 1, "1": 1, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 11)}

Event = tuple[int, str, dict[str, Any]]
_ID = attrgetter("id")


# -- the tables, read once ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of the narration track: its title, steps before and after the battle, reorder, last."""

    title: str
    steps: tuple[tuple[str, dict[str, Any]], ...]
    after_battle: tuple[tuple[str, dict[str, Any]], ...]
    reorder: bool
    last: bool


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything a game reads that is not its state: the YAML's numbers, in the forms the loop wants."""

    crt: tuple[tuple[int, ...], ...]  # [roll][strength clamped to 0..top]: wounds (column 0: strength < 1)
    crt_sum: tuple[int, ...]  # [strength clamped]: the wounds of the six rolls added (the charger heuristic)
    top: int  # the CRT's last column ("20+")
    strength: dict[str, tuple[int, int]]  # kind -> (unwounded, wounded)
    support_bonus: int
    support_defence: int
    track: tuple[Turn, ...]
    faces: tuple[str, ...]  # the deck's cards in table order
    values: tuple[int, ...]
    suits: tuple[str, ...]
    limits: dict[str, int]  # kind -> wound limit
    max_ticks: int
    cap: int
    supply: int
    rounds: int
    join_threshold: int
    pursuit_threshold: int
    players: int
    # the scenario's figures in creation order: (prefab, seat, count) for each entry and seat
    layout: tuple[tuple[str, int, int], ...]


def _face(face: str) -> tuple[str, int, str]:
    f = face.strip().upper()
    if f in ("JK", "JOKER"):
        return "JK", 0, ""
    rank, suit = f[:-1], f[-1:]
    return ("A" if rank == "1" else rank) + suit, RANKS[rank], suit


def _read(rel: str) -> Any:
    with open(PREFABS / rel, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def load_tables() -> Tables:
    """The ruleset's tables, parameters' defaults and default scenario, from prefabs/ (once)."""
    ruleset = _read("rulesets/shambling.yaml")
    tables = ruleset["tables"]
    crt_doc = _read(tables["shambling.crt"])
    columns = crt_doc["columns"]
    top = columns[-1]
    crt = [tuple([0] * (top + 1))]
    for roll in range(1, 7):
        row = crt_doc["rows"][roll]
        crt.append(tuple([0, *row]))
    crt_sum = tuple(sum(crt[r][s] for r in range(1, 7)) for s in range(top + 1))
    strength_doc = _read(tables["shambling.strength"])
    strength = {k: (strength_doc[k]["unwounded"], strength_doc[k]["wounded"]) for k in ("survivor", "hero", "zombie")}
    track = tuple(
        Turn(t["title"],
             tuple((s["step"], {k: v for k, v in s.items() if k != "step"}) for s in t.get("steps", [])),
             tuple((s["step"], {k: v for k, v in s.items() if k != "step"}) for s in t.get("after_battle", [])),
             bool(t.get("reorder", False)), bool(t.get("last", False)))
        for t in _read(tables["shambling.narration"]))
    cards = [_face(str(c)) for c in _read(tables["shambling.deck"])]
    prefabs: dict[str, Any] = {}
    for rel in ruleset["prefabs"]:
        prefabs.update(_read(rel))

    def limit(kind: str) -> int:
        doc = prefabs[kind]
        while "Wounds" not in doc:
            doc = prefabs[doc["extends"]]
        return int(doc["Wounds"]["limit"])

    scenario = _read(ruleset["default_scenario"])
    players = int(scenario.get("players", 1))
    layout = []
    for entry in scenario["entities"]:
        seats = range(players) if entry.get("per_player") else [0]
        for seat in seats:
            layout.append((entry["prefab"], seat, int(entry.get("count", 1))))
    params = {k: v["default"] for k, v in ruleset["parameters"].items()}
    return Tables(
        crt=tuple(crt), crt_sum=crt_sum, top=top, strength=strength,
        support_bonus=strength_doc["support_bonus"], support_defence=strength_doc["support_defence"],
        track=track, faces=tuple(c[0] for c in cards), values=tuple(c[1] for c in cards),
        suits=tuple(c[2] for c in cards), limits={k: limit(k) for k in ("survivor", "hero", "zombie")},
        max_ticks=int(ruleset["max_ticks"]), cap=params["front_line_cap"], supply=params["zombie_supply"],
        rounds=params["combat_rounds"], join_threshold=params["join_threshold"],
        pursuit_threshold=params["pursuit_threshold"], players=players, layout=tuple(layout))


# -- the pieces -----------------------------------------------------------------------------------


class Fig:
    """A figure: the engine's Kind, Faction, Zone, Wounds, Engaged and Markers of one entity, as fields."""

    __slots__ = ("alive", "charging", "hero", "id", "kind", "limit", "ops", "stand_only", "taken", "zombie", "zone")

    def __init__(self, ident: int, kind: str, zone: str, limit: int) -> None:
        self.id = ident
        self.kind = kind
        self.hero = kind == "hero"
        self.zombie = kind == "zombie"
        self.zone = zone
        self.taken = 0
        self.limit = limit
        self.ops: list[Fig] = []  # in contact with (order never matters to the rules)
        self.alive = True
        self.charging = False
        self.stand_only = False


class Board:
    """A player's board: its figures per side and zone (each list in id order) and its markers."""

    __slots__ = ("counter_charge", "fallen", "seat", "side", "surv", "turned", "undeployed", "zomb")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.side = f"player:{seat}"
        self.surv: dict[str, list[Fig]] = {FRONT: [], SUPPORT: []}
        self.zomb: dict[str, list[Fig]] = {FRONT: [], SUPPORT: []}
        self.undeployed: list[Fig] = []
        self.fallen = False
        self.counter_charge = False
        self.turned = False


class Night:
    """One game's whole state (nothing of it lives anywhere else), and the log it writes."""

    __slots__ = ("boards", "deck_rng", "dice", "discard", "draw", "events", "first_card", "next_id", "outcome",
                 "over", "t", "tick")

    def __init__(self, seed: int, t: Tables) -> None:
        self.t = t
        self.dice: PCG32 = derive(seed, "dice")
        self.deck_rng: PCG32 = derive(seed, "deck/" + DECK)
        self.events: list[Event] = [(0, "new_game", {"seed": seed, "ruleset": "shambling", "players": t.players})]
        self.tick = 0
        self.over = False
        self.outcome = ""
        boards: dict[int, Board] = {}
        ident = 1
        for prefab, seat, count in t.layout:  # the scenario's entities, in the order spawn_entities makes them
            for _ in range(count):
                if prefab == "board":
                    boards[seat] = Board(seat)
                else:
                    boards[seat].undeployed.append(Fig(ident, prefab, "", t.limits[prefab]))
                ident += 1
        self.boards = [boards[s] for s in sorted(boards)]
        # The cards are the next entities, in table order: the pile holds card ids (the engine's
        # shuffle sorts ids), `id - first_card` indexes the table. The pile's top is its end.
        self.first_card = ident
        self.draw = list(range(ident + len(t.faces) - 1, ident - 1, -1))
        self.discard: list[int] = []
        self.next_id = ident + len(t.faces) + 1  # the deck entity takes one more id


def _file(lst: list[Fig], f: Fig) -> None:
    """Insert `f` into a zone's list, keeping id order."""
    i = len(lst)
    ident = f.id
    while i and lst[i - 1].id > ident:
        i -= 1
    lst.insert(i, f)


def _survivors(b: Board) -> list[Fig]:
    """A board's deployed survivors, in id order (a new list)."""
    front, support = b.surv[FRONT], b.surv[SUPPORT]
    if not support:
        return list(front)
    if not front:
        return list(support)
    return sorted(front + support, key=_ID)


def _standing(g: Night) -> list[Board]:
    return [b for b in g.boards if not b.fallen]


def _end(g: Night, outcome: str) -> None:
    if not g.over:
        g.over = True
        g.outcome = outcome
        g.events.append((g.tick, "game_over", {"outcome": outcome}))


def _roll1(g: Night, why: str) -> int:
    v = 1 + g.dice.below(6)
    g.events.append((g.tick, "roll", {"dice": "1d6", "values": [v], "why": why}))
    return v


def _roll2(g: Night, why: str) -> int:
    below = g.dice.below
    a = 1 + below(6)
    b = 1 + below(6)
    g.events.append((g.tick, "roll", {"dice": "2d6", "values": [a, b], "why": why}))
    return a + b


def _decided(g: Night, side: str, kind: str, choice: int, option: Any) -> None:
    g.events.append((g.tick, "decision", {"side": side, "kind": kind, "choice": choice, "option": option}))


def _shuffle(g: Night, why: str) -> None:
    draw = g.draw
    draw.extend(g.discard)
    g.discard.clear()
    draw.sort()
    g.deck_rng.shuffle(draw)
    g.events.append((g.tick, "shuffle", {"deck": DECK, "why": why}))


def _draw_card(g: Night, why: str) -> int:
    """The drawn card's index in the deck table; on the joker every card is reshuffled and another drawn."""
    faces = g.t.faces
    while True:
        if not g.draw:
            _shuffle(g, "draw pile empty")
        card = g.draw.pop()
        g.discard.append(card)
        c = card - g.first_card
        face = faces[c]
        g.events.append((g.tick, "draw", {"deck": DECK, "card": face, "why": why}))
        if face != "JK":
            return c
        _shuffle(g, "joker")


def _black(g: Night, c: int) -> bool:
    suit = g.t.suits[c]
    return suit == "C" or suit == "S"


def _spawn(g: Night, b: Board, kind: str, zone: str, stand_only: bool = False) -> Fig:
    f = Fig(g.next_id, kind, zone, g.t.limits[kind])
    g.next_id += 1
    f.stand_only = stand_only
    if zone:  # the newest id: the end of its zone's list
        (b.zomb if f.zombie else b.surv)[zone].append(f)
    return f


def _set_zone(b: Board, f: Fig, zone: str) -> None:
    lists = b.zomb if f.zombie else b.surv
    if f.zone:
        lists[f.zone].remove(f)
    f.zone = zone
    _file(lists[zone], f)


def _remove(g: Night, b: Board, f: Fig, why: str) -> None:
    """A figure leaves play, every contact it had broken."""
    for o in f.ops:
        if o.alive and f in o.ops:
            o.ops.remove(f)
    f.ops.clear()
    g.events.append((g.tick, "removed", {"figure": f.id, "piece": f.kind, "zone": f.zone, "why": why}))
    f.alive = False
    (b.zomb if f.zombie else b.surv)[f.zone].remove(f)


def _link(g: Night, a: Fig, b: Fig) -> None:
    if b not in a.ops:
        a.ops.append(b)
    if a not in b.ops:
        b.ops.append(a)
    x, y = (a.id, b.id) if a.id < b.id else (b.id, a.id)
    g.events.append((g.tick, "contact", {"a": x, "b": y}))


def _wound_pick(options: list[Fig], narrator: bool) -> int:
    """The heuristic's `shambling.wound` (options in id order, so the first lowest key wins the tie).
    The narrator: unwounded before wounded. The player: a wounded survivor, an unwounded one, the
    unwounded hero, the wounded hero last."""
    best = 0
    best_key = 9
    for i, f in enumerate(options):
        if narrator:
            key = (2 if f.taken else 0) + f.hero
        elif f.hero:
            key = 3 if f.taken else 2
        else:
            key = 0 if f.taken else 1
        if key < best_key:
            best, best_key = i, key
    return best


def _finish_off(options: list[Fig]) -> int:
    """The heuristic's `shambling.flee` and `shambling.pursue`: the wounded first, the hero last."""
    best = 0
    best_key = 9
    for i, f in enumerate(options):
        key = 2 * f.hero + (0 if f.taken else 1)
        if key < best_key:
            best, best_key = i, key
    return best


def _wound(g: Night, f: Fig) -> bool:
    """One wound; whether it was the figure's last."""
    f.taken += 1
    g.events.append((g.tick, "wound", {"figure": f.id, "taken": f.taken}))
    return f.taken >= f.limit


# -- placement ------------------------------------------------------------------------------------


def _place(g: Night, b: Board, f: Fig) -> None:
    if len(b.surv[FRONT]) >= g.t.cap:
        zone = SUPPORT
    else:
        zone = SUPPORT if f.taken else FRONT
        _decided(g, b.side, "shambling.place", 0 if zone == FRONT else 1, zone)
    _set_zone(b, f, zone)
    g.events.append((g.tick, "placed", {"figure": f.id, "zone": zone}))


def _deploy(g: Night) -> None:
    _shuffle(g, "start of game")
    for b in _standing(g):
        for f in b.undeployed:
            _place(g, b, f)
        b.undeployed.clear()


def _reorder(g: Night, turn: Turn | None) -> None:
    if turn is None or not turn.reorder:
        return
    cap = g.t.cap
    for b in _standing(g):
        if not any(f.hero for f in _survivors(b)):
            continue
        moved: set[int] = set()
        front, support = b.surv[FRONT], b.surv[SUPPORT]
        while True:
            fa = [f for f in front if f.id not in moved]
            sa = [f for f in support if f.id not in moved] if len(front) < cap else []
            choice: Fig | None = None
            index = 0
            for i, f in enumerate(fa):  # wounded out of the Front Line first
                if f.taken and not f.hero:
                    choice, index = f, 1 + i
                    break
            else:
                for i, f in enumerate(sa):
                    if not f.taken:
                        choice, index = f, 1 + len(fa) + i
                        break
            if fa or sa:
                _decided(g, b.side, "shambling.reorder", index, "done" if choice is None else choice.id)
            if choice is None:
                break
            zone = SUPPORT if choice.zone == FRONT else FRONT
            _set_zone(b, choice, zone)
            moved.add(choice.id)
            g.events.append((g.tick, "reordered", {"figure": choice.id, "zone": zone}))


# -- the narration track's steps --------------------------------------------------------------------


def _gauntlet(g: Night, strength: int) -> None:
    t = g.t
    wounds_at = min(strength, t.top) if strength >= 1 else 0
    for b in _standing(g):
        roll = _roll1(g, f"gauntlet (board {b.seat})")
        wounds = t.crt[roll][wounds_at]
        g.events.append((g.tick, "gauntlet", {"board": b.seat, "roll": roll, "strength": strength,
                                              "wounds": wounds}))
        alive = _survivors(b)
        for _ in range(wounds):
            if not alive:
                break
            if len(alive) == 1:
                f = alive[0]
            else:
                i = _wound_pick(alive, False)
                f = alive[i]
                _decided(g, b.side, "shambling.wound", i, f.id)
            if _wound(g, f):
                _remove(g, b, f, "killed")
                alive.remove(f)


def _assault(g: Night, cards: int, zone: str) -> None:
    values = g.t.values
    for b in _standing(g):
        why = f"assault (board {b.seat})"
        total = 0
        for _ in range(cards):
            total += values[_draw_card(g, why)]
        placed = max(0, min(total, g.t.supply - len(b.zomb[FRONT]) - len(b.zomb[SUPPORT])))
        for _ in range(placed):
            _spawn(g, b, "zombie", zone)
        g.events.append((g.tick, "assault", {"board": b.seat, "zone": zone, "zombies": placed}))
        if placed < total:
            g.events.append((g.tick, "supply_exhausted", {"board": b.seat, "drawn": total,
                                                          "unplaced": total - placed}))


def _dissension(g: Night) -> None:
    for b in _standing(g):
        if not _black(g, _draw_card(g, f"dissension (board {b.seat})")):
            continue
        fleeing = _roll1(g, f"dissension (board {b.seat})") // 2
        g.events.append((g.tick, "dissension", {"board": b.seat, "fleeing": fleeing}))
        for _ in range(fleeing):
            candidates = _survivors(b)
            if not candidates:
                break
            i = _finish_off(candidates) if len(candidates) > 1 else 0
            if len(candidates) > 1:
                _decided(g, b.side, "shambling.flee", i, candidates[i].id)
            _remove(g, b, candidates[i], "fled")


def _replacement(g: Night) -> None:
    t = g.t
    for b in _standing(g):
        c = _draw_card(g, f"replacement (board {b.seat})")
        if t.suits[c] != "H":
            continue
        value = t.values[c]
        hero = False
        if value == 10:  # no heuristic for shambling.new_hero: the first option, True
            _decided(g, b.side, "shambling.new_hero", 0, True)
            hero = True
        for i in range(value):
            _place(g, b, _spawn(g, b, "hero" if hero and i == 0 else "survivor", ""))
        g.events.append((g.tick, "reinforcements", {"board": b.seat, "survivors": value, "hero": hero}))


def _enemy_within(g: Night) -> None:
    for b in _standing(g):
        for f in _survivors(b):
            if not f.taken:
                continue
            if not _black(g, _draw_card(g, f"enemy within (figure {f.id})")):
                continue
            zone = f.zone
            _remove(g, b, f, "turned")
            z = _spawn(g, b, "zombie", zone, True)
            b.turned = True
            g.events.append((g.tick, "turned", {"figure": f.id, "zombie": z.id, "zone": zone}))


def _national_guard(g: Night) -> None:
    for b in _standing(g):
        if not b.turned:
            continue
        for f in _survivors(b):
            if _black(g, _draw_card(g, f"national guard (figure {f.id})")):
                _remove(g, b, f, "shot")


def _run_steps(g: Night, steps: tuple[tuple[str, dict[str, Any]], ...]) -> None:
    for name, params in steps:
        if name == "gauntlet":
            _gauntlet(g, params["strength"])
        elif name == "assault":
            _assault(g, params["cards"], params["zone"])
        elif name == "dissension":
            _dissension(g)
        elif name == "replacement":
            _replacement(g)
        elif name == "enemy_within":
            _enemy_within(g)
        elif name == "national_guard":
            _national_guard(g)
        else:
            raise ValueError(f"the reference knows no step {name!r}")


# -- battle ---------------------------------------------------------------------------------------


def _stand_and_receive(g: Night, b: Board, zone: str, zombies: list[Fig]) -> None:
    """The narrator puts each free zombie on a least-engaged survivor of the zone (the hero first)."""
    survivors: list[Fig] = []
    counts: list[int] | None = None
    for z in zombies:
        if z.ops:
            continue
        if counts is None:
            survivors = list(b.surv[zone])
            counts = [len(s.ops) for s in survivors]
        if not survivors:
            return
        low = min(counts)
        pick = -1
        n = 0
        first = -1
        for i, c in enumerate(counts):
            if c == low:
                if first < 0:
                    first = i
                if pick < 0 and survivors[i].hero:
                    pick, k = i, n
                n += 1
        if pick < 0:
            pick, k = first, 0
        if n > 1:
            _decided(g, "narrator", "shambling.assign", k, survivors[pick].id)
        _link(g, z, survivors[pick])
        counts[pick] += 1


def _least_engaged(figs: list[Fig]) -> list[Fig]:
    low = min(len(f.ops) for f in figs)
    return [f for f in figs if len(f.ops) == low]


def _charge_one(g: Night, b: Board, charger: Fig, zombies: list[Fig]) -> None:
    options = _least_engaged(zombies)  # the heuristic: fewest contacts, then the lowest id: the first
    if len(options) > 1:
        _decided(g, b.side, "shambling.charge_target", 0, options[0].id)
    _link(g, charger, options[0])
    charger.charging = True


def _enough(g: Night, b: Board, chargers: list[Fig]) -> bool:
    """The charger heuristic's test: one charger per Front Line zombie, and the expected wounds of
    their first strike cover every wound those zombies can take."""
    zombies = b.zomb[FRONT]
    if len(chargers) < len(zombies):
        return False
    t = g.t
    needed = 0
    for z in zombies:
        needed += z.limit - z.taken
    table = t.strength
    total = 0
    for f in chargers:
        total += table[f.kind][1 if f.taken else 0]
    bonus = t.support_bonus
    for f in b.surv[SUPPORT]:
        if not f.taken:
            total += bonus
    return t.crt_sum[min(total, t.top) if total >= 1 else 0] >= 6 * needed


def _counter_charge(g: Night, b: Board, zombies: list[Fig]) -> None:
    front = list(b.surv[FRONT])
    chargers: list[Fig] = []
    side = b.side
    while True:
        rest = [f for f in front if f not in chargers]
        if not rest:
            break
        done_offered = 1 if chargers else 0
        pick: Fig | None
        if done_offered + len(rest) == 1:
            pick = rest[0]
        else:
            healthy = [f for f in rest if not f.taken]
            if healthy and not (done_offered and _enough(g, b, chargers)):
                pick = next((f for f in healthy if f.hero), healthy[0])
                index = rest.index(pick) + done_offered
            elif done_offered:
                pick, index = None, 0
            else:
                pick, index = rest[0], 0
            _decided(g, side, "shambling.charger", index, "done" if pick is None else pick.id)
        if pick is None:
            break
        chargers.append(pick)
        _charge_one(g, b, pick, zombies)
    left = [f for f in front if f not in chargers and not f.taken]
    if left:
        bonus = 1 if any(f.hero for f in chargers) else 0
        roll = _roll2(g, "counter-charge join roll") + bonus
        joining = 0
        if roll <= g.t.join_threshold:
            joining = min(_roll1(g, "counter-charge joiners"), len(left))
        g.events.append((g.tick, "join_roll", {"board": b.seat, "roll": roll, "joining": joining}))
        for _ in range(joining):  # no heuristic for shambling.join: the first option
            pick = left.pop(0)
            if left:
                _decided(g, side, "shambling.join", 0, pick.id)
            chargers.append(pick)
            _charge_one(g, b, pick, zombies)
    for z in zombies:  # zombies the chargers left free go on the chargers (the hero first)
        if z.ops:
            continue
        options = _least_engaged(chargers)
        k = next((i for i, f in enumerate(options) if f.hero), 0)
        if len(options) > 1:
            _decided(g, "narrator", "shambling.assign", k, options[k].id)
        _link(g, z, options[k])


def _engage(g: Night) -> None:
    for b in _standing(g):
        b.counter_charge = False
        for lists in (b.surv, b.zomb):
            for zone_list in lists.values():
                for f in zone_list:
                    f.ops.clear()
                    f.charging = False
        for zone in (FRONT, SUPPORT):
            zombies = list(b.zomb[zone])
            if not zombies or not b.surv[zone]:
                continue
            charge = False
            if zone == FRONT and not any(z.stand_only for z in zombies):
                healthy = sum(1 for f in b.surv[FRONT] if not f.taken)
                charge = healthy >= len(zombies)
                _decided(g, b.side, "shambling.stance", 1 if charge else 0, "counter-charge" if charge else "stand")
            g.events.append((g.tick, "stance", {"board": b.seat, "zone": zone,
                                                "stance": "counter-charge" if charge else "stand"}))
            if charge:
                b.counter_charge = True
                _counter_charge(g, b, zombies)
            else:
                _stand_and_receive(g, b, zone, zombies)


def _strike(g: Night, b: Board, zone: str, zombies_strike: bool, began: dict[Fig, list[Fig]]) -> None:
    """One side's strike in one zone on the CRT; the defender places the wounds (a 6: the hero first)."""
    attackers = [f for f in (b.zomb if zombies_strike else b.surv)[zone] if f.ops]
    if not attackers:
        return
    t = g.t
    seen: set[Fig] = set()
    for a in attackers:
        for d in began.get(a, ()):
            if d.alive:
                seen.add(d)
    alive = sorted(seen, key=_ID)
    if not zombies_strike and zone == SUPPORT:
        total = t.support_defence * len(attackers)
    else:
        table = t.strength
        total = 0
        for f in attackers:
            total += table[f.kind][1 if f.taken else 0]
        if not zombies_strike:
            bonus = t.support_bonus
            for f in b.surv[SUPPORT]:
                if not f.taken:
                    total += bonus
    side = "zombies" if zombies_strike else "survivors"
    roll = _roll1(g, f"{side} strike in {zone} (board {b.seat})")
    wounds = t.crt[roll][min(total, t.top) if total >= 1 else 0]
    g.events.append((g.tick, "strike", {"board": b.seat, "zone": zone, "side": side, "strength": total,
                                        "roll": roll, "wounds": wounds}))
    defender = b.side if zombies_strike else "narrator"
    for n in range(wounds):
        if not alive:
            return
        options = alive
        if roll == 6 and n == 0:
            options = [f for f in alive if f.hero] or alive
        if len(options) == 1:
            f = options[0]
        else:
            i = _wound_pick(options, not zombies_strike)
            f = options[i]
            _decided(g, defender, "shambling.wound", i, f.id)
        if _wound(g, f):
            alive.remove(f)
            _remove(g, b, f, "killed")


def _re_engage(g: Night, b: Board, began: dict[Fig, list[Fig]], front_stands: bool) -> None:
    """Victors (every opponent fell) may engage another enemy of their zone; the first strikers choose first."""
    groups: tuple[list[Fig], list[Fig]] = ([], [])
    for f in began:
        if f.alive and not f.ops:
            zombies_first = f.zone == SUPPORT or front_stands
            groups[0 if f.zombie == zombies_first else 1].append(f)
    for group in groups:
        for f in group:
            if f.ops:
                continue
            enemies = (b.surv if f.zombie else b.zomb)[f.zone]
            if not enemies:
                continue
            target: Fig | None = None
            index = 0
            if f.zombie or not (f.hero and f.taken):
                best = (9, 0, 0)
                for i, e in enumerate(enemies):  # id order: the first lowest key wins the tie
                    ops = len(e.ops)
                    key = (0 if f.zombie and e.hero else 1, 1 if ops == 0 else 0, ops)
                    if key < best:
                        best, target, index = key, e, 1 + i
            _decided(g, "narrator" if f.zombie else b.side, "shambling.re_engage", index,
                     "stay" if target is None else target.id)
            if target is not None:
                _link(g, f, target)


def _advance(g: Night, b: Board, front_stands: bool) -> bool:
    """Zombies of a zone without survivors move into the other zone, which Stands and Receives;
    whether the Front Line now Stands and Receives."""
    for zone in (FRONT, SUPPORT):
        zombies = b.zomb[zone]
        other = OTHER[zone]
        if not zombies or b.surv[zone] or not b.surv[other]:
            continue
        moving = list(zombies)
        for z in moving:
            _set_zone(b, z, other)
            z.ops.clear()
            z.stand_only = True
        g.events.append((g.tick, "zombies_advance", {"board": b.seat, "into": other, "zombies": len(moving)}))
        if other == FRONT:
            front_stands = True
        _stand_and_receive(g, b, other, moving)
    return front_stands


def _fallen(b: Board) -> bool:
    return bool(b.zomb[FRONT] or b.zomb[SUPPORT]) and not (b.surv[FRONT] or b.surv[SUPPORT])


def _combat(g: Night) -> None:
    rounds = g.t.rounds
    for b in _standing(g):
        front_stands = not b.counter_charge
        front_stands = _advance(g, b, front_stands)
        for rnd in range(1, rounds + 1):
            began: dict[Fig, list[Fig]] = {}
            for f in sorted(b.surv[FRONT] + b.surv[SUPPORT] + b.zomb[FRONT] + b.zomb[SUPPORT], key=_ID):
                if f.ops:
                    began[f] = list(f.ops)
            if not began:
                break
            g.events.append((g.tick, "combat_round", {"board": b.seat, "round": rnd}))
            # first strikes of both zones, then the second: zombies first where the survivors stand
            _strike(g, b, FRONT, front_stands, began)
            _strike(g, b, SUPPORT, True, began)
            _strike(g, b, FRONT, not front_stands, began)
            _strike(g, b, SUPPORT, False, began)
            if rnd < rounds:
                _re_engage(g, b, began, front_stands)
            front_stands = _advance(g, b, front_stands)
            if _fallen(b):
                break
        if _fallen(b):
            b.fallen = True
            g.events.append((g.tick, "board_fallen", {"board": b.seat}))
    if not _standing(g):
        _end(g, "zombies")


def _pursuit(g: Night) -> None:
    for b in _standing(g):
        if not b.counter_charge:
            continue
        chargers = [f for f in _survivors(b) if f.charging]
        if not chargers:
            continue
        bonus = 1 if any(f.hero for f in chargers) else 0
        roll = _roll2(g, "pursuit roll") + bonus
        lost = 0
        if roll < g.t.pursuit_threshold:
            lost = min(_roll1(g, "pursuers"), len(chargers))
        g.events.append((g.tick, "pursuit", {"board": b.seat, "roll": roll, "pursuing": lost}))
        for _ in range(lost):
            i = 0
            if len(chargers) > 1:
                i = _finish_off(chargers)
                _decided(g, b.side, "shambling.pursue", i, chargers[i].id)
            _remove(g, b, chargers.pop(i), "pursued")


def _turn_end(g: Night, turn: Turn | None) -> None:
    for b in g.boards:  # the turn's markers, on every board and figure
        b.counter_charge = b.turned = False
        for lists in (b.surv, b.zomb):
            for zone_list in lists.values():
                for f in zone_list:
                    f.stand_only = f.charging = False
    for b in _standing(g):
        if not (b.surv[FRONT] or b.surv[SUPPORT]):
            b.fallen = True
            g.events.append((g.tick, "board_fallen", {"board": b.seat}))
    if not _standing(g):
        _end(g, "zombies")
    elif turn is None or turn.last:
        _end(g, "survivors")


# -- the game -------------------------------------------------------------------------------------


def play(seed: int, t: Tables) -> tuple[list[Event], str]:
    """One game of seed `seed`, the heuristic answering every decision: its events and outcome."""
    g = Night(seed, t)
    events = g.events
    track = t.track
    for tick in range(1, t.max_ticks + 1):
        g.tick = tick
        events.append((tick, "tick", {"tick": tick}))
        turn = track[tick - 1] if tick <= len(track) else None
        if tick == 1:
            _deploy(g)
        if turn is not None:
            events.append((tick, "narration", {"title": turn.title}))
            _run_steps(g, turn.steps)
        _engage(g)
        _combat(g)
        if g.over:
            break
        _pursuit(g)
        if turn is not None:
            _run_steps(g, turn.after_battle)
        _reorder(g, turn)
        _turn_end(g, turn)
        if g.over:
            break
    if not g.over:
        _end(g, "timeout")
    return events, g.outcome


# -- against the engine ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Departure:
    """Where the reference first departs from the engine in one game."""

    seed: int
    index: int  # into the event log; -1: the logs agree, the outcomes do not
    engine: object
    reference: object

    def __str__(self) -> str:
        if self.index < 0:
            return f"seed {self.seed}: outcome: engine {self.engine!r}, reference {self.reference!r}"
        return (f"seed {self.seed}, event {self.index}:\n  engine:    {self.engine!r}\n"
                f"  reference: {self.reference!r}")


def engine_game(seed: int, scenario: Any, policies: Any) -> tuple[list[Event], str]:
    """The engine's game of `seed`: `[e[:3] for e in game.events]` and its outcome."""
    from ecs_zombie import new_game

    game = new_game(scenario, seed)
    try:
        game.play(policies)
        return [(e[0], e[1], e[2]) for e in game.events], str(game.outcome)
    finally:
        game.close()


def compare(seed: int, t: Tables, scenario: Any, policies: Any) -> tuple[int, Departure | None]:
    """Play `seed` both ways: the number of events, and the first departure (None when identical)."""
    ours, our_outcome = play(seed, t)
    theirs, their_outcome = engine_game(seed, scenario, policies)
    for i, (a, b) in enumerate(zip(theirs, ours, strict=False)):
        if a != b:
            return len(theirs), Departure(seed, i, a, b)
    if len(theirs) != len(ours):
        i = min(len(theirs), len(ours))
        return len(theirs), Departure(seed, i, theirs[i] if i < len(theirs) else "(log ends)",
                                      ours[i] if i < len(ours) else "(log ends)")
    if our_outcome != their_outcome:
        return len(theirs), Departure(seed, -1, their_outcome, our_outcome)
    return len(theirs), None


def check(seeds: range) -> tuple[int, int, Departure | None]:
    """Every seed both ways: (games, events) checked up to the first departure, and that departure."""
    from ecs_zombie.decisions import PolicyTable
    from ecs_zombie.scenario import load_scenario

    t = load_tables()
    scenario, policies = load_scenario("shambling"), PolicyTable("heuristic")
    games = events = 0
    for seed in seeds:
        n, departure = compare(seed, t, scenario, policies)
        if departure is not None:
            return games, events, departure
        games += 1
        events += n
    return games, events, None


# -- timing ---------------------------------------------------------------------------------------


def time_reference(seeds: range, t: Tables) -> float:
    start = time.process_time()
    for seed in seeds:
        play(seed, t)
    return time.process_time() - start


def time_engine(seeds: range, scenario: Any, policies: Any) -> float:
    from ecs_zombie import new_game

    start = time.process_time()
    for seed in seeds:
        game = new_game(scenario, seed)
        game.play(policies)
        game.close()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    measured.add_flag(parser)
    parser.add_argument("--check", type=int, metavar="N", help="play seeds 0..N-1 both ways and compare them")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(measured.build())
    if args.check is not None:
        games, events, departure = check(range(args.check))
        if departure is not None:
            print(f"differs after {games} identical games ({events} events): {departure}")
            return 1
        print(f"identical: {games} games, {events} events")
        return 0
    from ecs_zombie.decisions import PolicyTable
    from ecs_zombie.scenario import load_scenario

    t = load_tables()
    scenario, policies = load_scenario("shambling"), PolicyTable("heuristic")
    warm = range(10**9, 10**9 + 50)  # imports, YAML, caches: outside the timings
    time_reference(warm, t)
    time_engine(warm, scenario, policies)
    seeds = range(args.games)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(args.repeats):
        ours.append(time_reference(seeds, t))
        theirs.append(time_engine(seeds, scenario, policies))
    ref_rate = args.games / statistics.median(ours)
    eng_rate = args.games / statistics.median(theirs)
    print(f"reference: {ref_rate:8.0f} games/s  (median CPU of {args.repeats} x {args.games} games)")
    print(f"engine:    {eng_rate:8.0f} games/s  (median CPU of {args.repeats} x {args.games} games)")
    print(f"ratio engine/reference: {eng_rate / ref_rate:.2f}  (target >= 0.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
