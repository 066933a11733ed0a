"""The Narration Track's steps (Night of the Shambling Dead, "Narrative Track", turns 1-10).

Each is a step system the track invokes with the parameters its entry gives. Boards resolve in
seat order, figures in id order.
"""

from __future__ import annotations

from collections.abc import Generator

from ecs_zombie.cards import is_black
from ecs_zombie.components import Markers, Owner, Zone
from ecs_zombie.decisions import Decision
from ecs_zombie.game import Game
from ecs_zombie.schedule import system
from ecs_zombie.systems.shambling.board import (
    SURVIVORS,
    ZOMBIES,
    allocate_wounds,
    boards,
    draw_card,
    figures,
    is_wounded,
    player_side,
    remove_figure,
)
from ecs_zombie.systems.shambling.placement import place


def spawn(game: Game, prefab: str, board: int, zone: str, tags: list[str] | None = None) -> int:
    placed = [Zone(board, zone), Markers(sorted(tags or []))]
    if prefab != "zombie":
        placed.append(Owner(board))
    return game.world.create(*game.ruleset.prefabs[prefab].make(*placed))


@system("shambling.gauntlet",
        reads=("Zone", "Faction", "Wounds", "Kind", "Engaged", "Markers", "Owner", "Tally"),
        writes=("Wounds", "Engaged", "Tally"),
        decides=("shambling.wound",))
def gauntlet(game: Game, strength: int) -> Generator[Decision, object, None]:
    """Turns 1 and 8: roll on the CRT at `strength`; the survivor player chooses who is wounded and killed."""
    crt = game.tables["shambling.crt"]
    for seat, _m, _t in boards(game):
        roll = game.roll("1d6", f"gauntlet (board {seat})")
        wounds = crt.wounds(roll, strength)
        game.log("gauntlet", board=seat, roll=roll, strength=strength, wounds=wounds)
        # DESIGN CHOICE: the text lets the player choose freely here, so a 6 does not force the hero.
        yield from allocate_wounds(game, wounds, figures(game, seat, SURVIVORS), player_side(seat))


@system("shambling.assault",
        reads=("Deck", "Card", "Kind", "Markers", "Owner", "Tally", "Zone", "Faction"),
        writes=("Deck",),
        creates=("Zone", "Faction", "Wounds", "Engaged", "Kind", "Markers"))
def assault(game: Game, cards: int, zone: str, supply: int = 10) -> None:
    """Turns 2, 4, 6, 7, 9: one card (two on turn 9) per player; their values are the zombies he faces in `zone`.

    The Narrator has no more than `supply` (10) zombie figures per player. DESIGN CHOICE: each
    player's board has its own supply, and every zombie on that board (held at bay from an earlier
    turn, or a survivor turned) is one of its figures; a card brings only as many as the supply has
    left, and the zombies beyond it are not placed (logged as `supply_exhausted`). A survivor who
    turns becomes a zombie even when the supply is empty (his own figure is turned)."""
    for seat, _m, _t in boards(game):
        total = sum(draw_card(game, f"assault (board {seat})").value for _ in range(cards))
        placed = max(0, min(total, supply - len(figures(game, seat, ZOMBIES))))
        for _ in range(placed):
            spawn(game, "zombie", seat, zone)
        game.log("assault", board=seat, zone=zone, zombies=placed)
        if placed < total:
            game.log("supply_exhausted", board=seat, drawn=total, unplaced=total - placed)


@system("shambling.dissension",
        reads=("Deck", "Card", "Zone", "Faction", "Engaged", "Kind", "Markers", "Owner", "Tally", "Wounds"),
        writes=("Deck", "Engaged", "Tally"),
        decides=("shambling.flee",))
def dissension(game: Game) -> Generator[Decision, object, None]:
    """Turn 3: a black card makes half a d6 (rounded down) survivors flee; the player chooses who."""
    for seat, _m, _t in boards(game):
        card = draw_card(game, f"dissension (board {seat})")
        if not is_black(card):
            continue
        fleeing = game.roll("1d6", f"dissension (board {seat})") // 2
        game.log("dissension", board=seat, fleeing=fleeing)
        for _ in range(fleeing):
            candidates = figures(game, seat, SURVIVORS)
            if not candidates:
                break
            ent = yield from game.decide(player_side(seat), "shambling.flee", candidates)
            remove_figure(game, ent, "fled")


@system("shambling.replacement",
        reads=("Deck", "Card", "Zone", "Markers", "Tally"),
        writes=("Deck", "Zone"),
        creates=("Zone", "Faction", "Wounds", "Kind", "Owner", "Engaged", "Markers"),
        decides=("shambling.new_hero", "shambling.place"))
def replacement(game: Game, cap: int = 6) -> Generator[Decision, object, None]:
    """Turns 4 and 7: a Heart brings fresh survivors up to its value; the 10 of Hearts may bring a new Hero.

    DESIGN CHOICE: "up to the value" is read as exactly the card's value (the Front Line cap limits
    where newcomers stand, not how many come); with the 10 of Hearts the player may make one of the
    ten a Hero."""
    for seat, _m, _t in boards(game):
        card = draw_card(game, f"replacement (board {seat})")
        if card.suit != "H":
            continue
        hero = False
        if card.value == 10:
            hero = yield from game.decide(player_side(seat), "shambling.new_hero", [True, False])
        for i in range(card.value):
            ent = spawn(game, "hero" if hero and i == 0 else "survivor", seat, "")
            yield from place(game, ent, seat, cap)
        game.log("reinforcements", board=seat, survivors=card.value, hero=hero)


@system("shambling.enemy_within",
        reads=("Deck", "Card", "Zone", "Wounds", "Engaged", "Kind", "Owner", "Tally"),
        writes=("Deck", "Markers", "Engaged", "Tally"),
        creates=("Zone", "Faction", "Wounds", "Markers", "Engaged", "Kind"))
def enemy_within(game: Game) -> None:
    """Turns 5 and 10: a card per wounded survivor; on black it turns into a zombie in its zone,
    and the survivors it attacks may only Stand and Receive."""
    for seat, markers, _t in boards(game):
        for ent in figures(game, seat, SURVIVORS):
            if not is_wounded(game, ent):
                continue
            card = draw_card(game, f"enemy within (figure {ent})")
            if not is_black(card):
                continue
            zone = game.world.get(ent, Zone).name
            remove_figure(game, ent, "turned")
            zombie = spawn(game, "zombie", seat, zone, ["stand_only"])
            markers.add("turned")
            game.log("turned", figure=ent, zombie=zombie, zone=zone)


@system("shambling.national_guard",
        reads=("Deck", "Card", "Zone", "Markers", "Engaged", "Faction", "Kind", "Owner", "Tally", "Wounds"),
        writes=("Deck", "Engaged", "Tally"))
def national_guard(game: Game) -> None:
    """Turn 10: where a survivor turned, a card for each remaining survivor; on black the Guard shoots him.

    DESIGN CHOICE: the Guard arrives after the battle with the turned (the track lists it under
    `after_battle`), and only on boards where someone turned."""
    for seat, markers, _t in boards(game):
        if not markers.has("turned"):
            continue
        for ent in figures(game, seat, SURVIVORS):
            if is_black(draw_card(game, f"national guard (figure {ent})")):
                remove_figure(game, ent, "shot")


def clear_turn_markers(game: Game) -> None:
    for _ent, m in game.world.query1(Markers):
        for tag in ("turned", "stand_only", "charging", "counter_charge"):
            m.discard(tag)

