"""Commands that play one game: `run` from a ruleset or scenario, `resume` from a save."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from ecs_zombie.commands.options import PlayersOpt, PolicyOpt, TargetArg
from ecs_zombie.commands.output import JsonOpt, emit_json, err, guarded, out, table, wrote

SaveOpt = Annotated[str | None, typer.Option(
    help="Write a snapshot when the run stops (a bare file name goes into saves/).", metavar="FILE")]
RecordOpt = Annotated[str | None, typer.Option(
    help="Write a replay of the run (a bare file name goes into saves/).", metavar="FILE")]


def _print_run(result: Any, as_json: bool) -> None:
    """The outcome, the metrics and a per-turn table; with --json, one object holding the same."""
    summary = result.summary()
    files = {what: str(path) for what, path in (("snapshot", result.saved), ("replay", result.recorded)) if path}
    if as_json:
        emit_json({**summary, "wrote": files})
        return
    game = result.game
    if result.per_tick:
        cols = [k for k in result.per_tick[0] if k != "turn"]
        table([game.ruleset.tick_name, *cols], [[row["turn"], *(row[c] for c in cols)] for row in result.per_tick],
              title=f"{game.ruleset.name}: seed {game.seed}", transpose=True)
    if game.over:
        out.print(f"outcome: {game.outcome} after {game.tick} {game.ruleset.tick_name}s", markup=False)
    else:
        out.print(f"stopped after {game.ruleset.tick_name} {game.tick} (game not over)", markup=False)
    for key, value in game.metrics().items():
        out.print(f"  {key}: {value}", markup=False)
    if result.saved:
        wrote(result.saved, "snapshot")
    if result.recorded:
        wrote(result.recorded, "replay")


def _refuse(message: str) -> None:
    """A usage error in one line, exit status 2."""
    err.print(f"error: {message}", markup=False)
    raise typer.Exit(2)


def run(
    target: TargetArg,
    seed: Annotated[int, typer.Option(help="Master seed: every random stream of the game derives from it.")] = 1,
    policy: PolicyOpt = "heuristic",
    players: PlayersOpt = None,
    dice: Annotated[str, typer.Option(help="Dice script: forced die values in order, e.g. 3,5,6.")] = "",
    cards: Annotated[str, typer.Option(help="Card script: the first cards drawn, e.g. 7H,JK.")] = "",
    param: Annotated[list[str] | None, typer.Option(
        help="Override a ruleset parameter: KEY=VALUE (repeatable; `ecs-zombie rulesets --params NAME` lists them).",
        metavar="KEY=VALUE")] = None,
    stop_after: Annotated[int | None, typer.Option(help="Stop at the end of this tick.", metavar="TICK")] = None,
    save: SaveOpt = None,
    record: RecordOpt = None,
    as_json: JsonOpt = False,
    strict: Annotated[bool, typer.Option(help="Hold every system to its declared access (as ECS_ZOMBIE_STRICT=1).")
                      ] = False,
) -> None:
    """Play one game headless and print the outcome and a per-turn summary."""
    from ecs_zombie import session
    from ecs_zombie.dice import parse_script

    if strict:
        os.environ["ECS_ZOMBIE_STRICT"] = "1"

    def body() -> Any:
        card_list = [c.strip() for c in cards.split(",") if c.strip()]
        return session.run(target, seed, policy, players, parse_script(dice), card_list,
                           session.parse_params(param or []), stop_after, save, record)

    result = guarded(body)
    _print_run(result, as_json)
    result.game.close()


def resume(
    save_file: Annotated[str, typer.Argument(metavar="SAVE", help="A snapshot written by --save.")],
    save: SaveOpt = None,
    record: RecordOpt = None,
    as_json: JsonOpt = False,
    as_side: Annotated[str | None, typer.Option(
        "--as", help="Continue at the terminal, answering this side's decisions (a game saved by `play`).",
        metavar="SIDE")] = None,
    policy: Annotated[str | None, typer.Option(
        help="With --as: who answers the other sides (default: the save's policy).")] = None,
) -> None:
    """Continue a saved game to its end (with --as, at the terminal, as `play` does)."""
    from ecs_zombie import session

    if as_side is not None:
        from ecs_zombie.commands.human import resume_at_table

        if as_json:
            _refuse("--as plays at the terminal: it takes no --json")
        resume_at_table(save_file, as_side, policy, save, record)
        return
    if policy is not None:
        _refuse("--policy goes with --as (without it the save's own policy finishes the game)")

    result = guarded(lambda: session.resume(save_file, save, record))
    _print_run(result, as_json)
    result.game.close()
