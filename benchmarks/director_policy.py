"""How the Director game's `heuristic` policy plays: decision and option counts, event counts,
outcomes with Wilson intervals, stalls and timeouts, over N games per ruleset and team size (seeds
0..N-1, in-process). For issue 13's misplays: what each option is chosen for, and whether the
survivors get stuck.

    python benchmarks/director_policy.py [--games 200] [--players 2,4] [--rulesets director,director-adaptive]
                                         [--json out.json]

Counted per (ruleset, players):

- decisions by kind and option type: `director.action` by action (`swap:*` as `swap`), attack
  cards by value (`done`, `miss` for a 0, `1`..`3`) for shots (`director.card`) and suppressing
  fire (`director.suppress`), and for suppressing fire whether the card given was the highest
  in hand; `director.move` as `stay` (the hex it stands on) or `move`;
- `reload_not_empty`: reloads with cards still in hand;
- events by kind;
- stalled survivors: a survivor standing, unpinned and outside the safe room whose own moves left
  it on the same hex three rounds in a row (counted once a game per survivor); at each timeout, the
  survivors outside the safe room and how many of them were standing and unpinned;
- revives: `revive:futile` when every downed friend beside the reviver has a zombie beside them
  (the one revived is down again in the next Zombie phase, still pinned), `revive:clear`
  otherwise; `revive_again`, revives of a survivor already revived in that game.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from typing import Any

import measured  # noqa: F401  (before ecs_zombie: it chooses the build measured)

from ecs_zombie import Game, new_game
from ecs_zombie.components import Card, Markers, Position, Wounds
from ecs_zombie.decisions import Decision, HeuristicPolicy
from ecs_zombie.scenario import load_scenario
from ecs_zombie.systems.director.board import Board, hand_cards, hex_of, survivors
from ecs_zombie.systems.director.components import HeldBy
from ecs_zombie.systems.director.players import gun_for_action


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


class Recorder:
    """The heuristic policy, counting what it is offered and what it chooses."""

    def __init__(self) -> None:
        self.inner = HeuristicPolicy()
        self.taken: Counter[str] = Counter()
        self.offered: Counter[str] = Counter()
        self.still: dict[int, int] = {}
        self.stalled: set[int] = set()

    def _card(self, game: Game, option: Any) -> str:
        if not isinstance(option, int):
            return str(option)
        value = game.world.get(option, Card).value
        return "miss" if value == 0 else str(value)

    def choose(self, game: Game, d: Decision) -> int:
        i = self.inner.choose(game, d)
        opt = d.options[i]
        kind = d.kind.removeprefix("director.")
        if kind == "action":
            label = opt.split(":")[0]
            for o in {str(o).split(":")[0] for o in d.options}:
                self.offered[f"action:{o}"] += 1
            if opt == "revive":
                board = Board(game)
                me = hex_of(game.world.get(d.context["survivor"], Position))
                downed = [board.players[n] for n in board.around(me) if n in board.players
                          and game.world.get(board.players[n], Wounds).left <= 0]
                clear = any(not board.adjacent_zombies(hex_of(game.world.get(e, Position))) for e in downed)
                self.taken["revive:clear" if clear else "revive:futile"] += 1
            if opt == "reload":
                ent = d.context["survivor"]
                gun = gun_for_action(game, ent)
                if gun and hand_cards(game, ent, gun):
                    self.taken["reload_not_empty"] += 1
        elif kind in ("card", "suppress"):
            label = self._card(game, opt)
            if kind == "suppress" and isinstance(opt, int):
                values = [game.world.get(c, Card).value for c in d.options if isinstance(c, int)]
                self.taken["suppress:highest" if game.world.get(opt, Card).value == max(values)
                           else "suppress:lower"] += 1
        elif kind == "move":
            ent = d.context["survivor"]
            stay = list(opt) == list(d.context["at"])
            label = "stay" if stay else "move"
            board = Board(game)
            tile = board.tile_at(hex_of(game.world.get(ent, Position)))
            free = game.world.get(ent, Wounds).left > 0 and tile is not None and not tile.safe
            if stay and free:
                self.still[ent] = self.still.get(ent, 0) + 1
                if self.still[ent] >= 3:
                    self.stalled.add(ent)
            else:
                self.still[ent] = 0
        else:
            label = opt if isinstance(opt, str) else "option"
        self.taken[f"{kind}:{label}"] += 1
        return i


def play_many(ruleset: str, games: int, players: int) -> dict[str, Any]:
    scenario = load_scenario(ruleset)
    outcomes: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    offered: Counter[str] = Counter()
    events: Counter[str] = Counter()
    stalled = timeouts_out = timeouts_free = revive_again = rounds = 0
    for seed in range(games):
        game = new_game(scenario, seed, players=players)
        rec = Recorder()
        game.play(rec)
        outcomes[game.outcome or "none"] += 1
        rounds += game.tick
        taken.update(rec.taken)
        offered.update(rec.offered)
        stalled += len(rec.stalled)
        revived: Counter[int] = Counter()
        for _t, kind, data, _p in game.events:
            events[kind] += 1
            if kind == "revived":
                revived[data["revived"]] += 1
        revive_again += sum(n - 1 for n in revived.values() if n > 1)
        if game.outcome == "timeout":
            board = Board(game)
            world = game.world
            for ent in survivors(game):
                tile = board.tile_at(hex_of(world.get(ent, Position)))
                if tile is not None and tile.safe:
                    continue
                timeouts_out += 1
                if world.get(ent, Wounds).left > 0 and not world.get(ent, Markers).has("pinned") \
                        and world.try_get(ent, HeldBy) is None:
                    timeouts_free += 1
        game.close()
    wins = outcomes.get("survivors", 0)
    low, high = wilson(wins, games)
    actions = sum(v for k, v in taken.items() if k.startswith("action:"))
    return {"ruleset": ruleset, "players": players, "games": games, "outcomes": dict(sorted(outcomes.items())),
            "survivors_win": [round(wins / games, 3), round(low, 3), round(high, 3)],
            "rounds": round(rounds / games, 2), "stalled": stalled, "timeout_outside": timeouts_out,
            "timeout_outside_free": timeouts_free, "revive_again": revive_again,
            "reload_share": round(taken.get("action:reload", 0) / actions, 3) if actions else 0.0,
            "taken": dict(sorted(taken.items())), "offered": dict(sorted(offered.items())),
            "events": dict(sorted(events.items()))}


def report(r: dict[str, Any]) -> None:
    w = r["survivors_win"]
    print(f"{r['ruleset']} @{r['players']}: {r['games']} games {r['outcomes']}; survivors win {w[0]:.1%} "
          f"[{w[1]:.1%}, {w[2]:.1%}]; {r['rounds']} rounds; stalled survivors {r['stalled']}; at timeouts "
          f"{r['timeout_outside']} outside the safe room, {r['timeout_outside_free']} of them standing and "
          f"unpinned; reload {r['reload_share']:.1%} of actions; revives of a survivor revived before "
          f"{r['revive_again']}")
    print("  taken:  ", ", ".join(f"{k} {v}" for k, v in r["taken"].items()))
    print("  offered:", ", ".join(f"{k} {v}" for k, v in r["offered"].items()))
    print("  events: ", ", ".join(f"{k} {v}" for k, v in r["events"].items()
                                  if k not in ("decision", "roll", "draw", "shuffle", "tick")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--rulesets", default="director,director-adaptive")
    ap.add_argument("--json", help="write the results to this file")
    args = ap.parse_args()
    results = []
    for ruleset in args.rulesets.split(","):
        for players in (int(p) for p in args.players.split(",")):
            r = play_many(ruleset, args.games, players)
            report(r)
            results.append(r)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
