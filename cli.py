"""The `ecs-zombie` command: play, save, resume, replay, inspect and validate games headless.

It parses arguments and prints; the work happens in `ecs_zombie.session`. Every error caused by
input prints one line to stderr and exits with status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from ecs_zombie import session
from ecs_zombie.dice import parse_script
from ecs_zombie.errors import GameError
from ecs_zombie.ruleset import list_rulesets, load_ruleset

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Deterministic, headless simulation of tabletop zombie games.")
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
T = TypeVar("T")


def guarded(fn: Callable[[], T]) -> T:
    """Run a command body; input errors become one line on stderr and exit status 2."""
    try:
        return fn()
    except GameError as exc:
        err.print(f"error: {exc}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        err.print("interrupted")
        raise typer.Exit(130) from None


def emit_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")


@app.command()
def rulesets(params: Annotated[str | None, typer.Option("--params", help="List this ruleset's parameters.")] = None,
             as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The rulesets, with a one-line description each (or one ruleset's tunable parameters)."""

    def body() -> None:
        if params:
            rs = load_ruleset(params)
            rows = [{"name": p.name, "type": p.type, "default": p.default, "min": p.minimum, "max": p.maximum,
                     "description": p.description} for p in rs.parameters.values()]
            if as_json:
                emit_json(rows)
                return
            table = Table("parameter", "type", "default", "range", "description", title=f"{rs.id} parameters")
            for r in rows:
                table.add_row(r["name"], r["type"], str(r["default"]), f"{r['min']}..{r['max']}", r["description"])
            out.print(table)
            return
        found = list_rulesets()
        if as_json:
            emit_json([{"id": i, "description": d} for i, d in found])
            return
        table = Table("ruleset", "description")
        for rid, desc in found:
            table.add_row(rid, desc)
        out.print(table)

    guarded(body)


def _print_run(result: session.RunResult, as_json: bool) -> None:
    summary = result.summary()
    if as_json:
        emit_json(summary)
        return
    game = result.game
    if result.per_tick:
        cols = [k for k in result.per_tick[0] if k != "turn"][:6]
        table = Table(game.ruleset.tick_name, *cols, title=f"{game.ruleset.name} — seed {game.seed}")
        for row in result.per_tick:
            table.add_row(str(row["turn"]), *(str(row[c]) for c in cols))
        out.print(table)
    if game.over:
        out.print(f"outcome: [bold]{game.outcome}[/bold] after {game.tick} {game.ruleset.tick_name}s")
    else:
        out.print(f"stopped after {game.ruleset.tick_name} {game.tick} (game not over)")
    for key, value in game.metrics().items():
        out.print(f"  {key}: {value}")
    if result.saved:
        out.print(f"saved {result.saved}")
    if result.recorded:
        out.print(f"recorded {result.recorded}")


@app.command()
def run(
    target: Annotated[str, typer.Argument(metavar="RULESET_OR_SCENARIO", help="A ruleset name or a scenario file.")],
    seed: Annotated[int, typer.Option(help="Master seed.")] = 1,
    policy: Annotated[str, typer.Option(help="heuristic, random or first; per side as random,narrator=heuristic.")
                      ] = "heuristic",
    players: Annotated[int | None, typer.Option(help="Number of players (where the game has several).")] = None,
    dice: Annotated[str, typer.Option(help="Dice script: forced die values in order, e.g. 3,5,6.")] = "",
    cards: Annotated[str, typer.Option(help="Card script: the first cards drawn, e.g. 7H,JK.")] = "",
    param: Annotated[list[str] | None, typer.Option(help="Override a ruleset parameter: KEY=VALUE.")] = None,
    stop_after: Annotated[int | None, typer.Option(help="Stop at the end of this tick.")] = None,
    save: Annotated[str | None, typer.Option(help="Write a snapshot when the run stops.")] = None,
    record: Annotated[str | None, typer.Option(help="Write a replay of the run.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """Play one game headless and print the outcome and a per-turn summary."""

    def body() -> session.RunResult:
        card_list = [c.strip() for c in cards.split(",") if c.strip()]
        return session.run(target, seed, policy, players, parse_script(dice), card_list,
                           session.parse_params(param or []), stop_after, save, record)

    result = guarded(body)
    _print_run(result, as_json)
    result.game.close()


@app.command()
def resume(
    save_file: Annotated[str, typer.Argument(metavar="SAVE")],
    save: Annotated[str | None, typer.Option(help="Write a snapshot at the end.")] = None,
    record: Annotated[str | None, typer.Option(help="Write a replay from the save onward.")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Continue a saved game to its end."""
    result = guarded(lambda: session.resume(save_file, save, record))
    _print_run(result, as_json)
    result.game.close()


@app.command()
def replay(
    replay_file: Annotated[str, typer.Argument(metavar="REPLAY")],
    verify: Annotated[bool, typer.Option(help="Check every recorded state hash.")] = False,
    heavy: Annotated[bool, typer.Option(help="With --verify: also save and reload after every tick.")] = False,
    until: Annotated[int | None, typer.Option(help="Stop after this tick.")] = None,
    show: Annotated[bool, typer.Option(help="Print the state turn by turn.")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Replay a recorded game; --verify names the first tick, system and components that differ."""
    from ecs_zombie.replay import load_replay
    from ecs_zombie.replay import verify as verify_replay

    def body() -> None:
        rep = load_replay(Path(replay_file))
        rows: list[dict[str, Any]] = []

        def on_tick(game: Any) -> None:
            row = {"turn": game.tick, **game.metrics()}
            rows.append(row)
            if show and not as_json:
                out.print(f"[bold]{game.ruleset.tick_name} {game.tick}[/bold] " +
                          ", ".join(f"{k}={v}" for k, v in row.items() if k != "turn"))

        divergence = verify_replay(rep, heavy=heavy and verify, until=until, on_tick=on_tick)
        result: dict[str, Any] = {"ticks": len(rows), "outcome": rep.outcome, "verified": divergence is None}
        if divergence is not None:
            result.update({"divergent_tick": divergence.tick, "system": divergence.system,
                           "reason": divergence.reason, "differences": divergence.differences})
        if show:
            result["per_turn"] = rows
        if as_json:
            emit_json(result)
        elif divergence is None:
            out.print(f"replayed {len(rows)} ticks; outcome {rep.outcome}" + (
                "; every state hash matches" if verify else ""))
        else:
            err.print(f"divergence at tick {divergence.tick}" +
                      (f", in system {divergence.system}" if divergence.system else "") + f": {divergence.reason}",
                      markup=False)
            for line in divergence.differences:
                err.print(f"  {line}", markup=False)
        if divergence is not None and verify:
            raise typer.Exit(1)

    guarded(body)


@app.command()
def inspect(
    path: Annotated[str, typer.Argument(metavar="SAVE_OR_REPLAY")],
    tick: Annotated[int | None, typer.Option(help="A replay's tick (0 is the start).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Entities and their components in a save or a replay."""
    state = guarded(lambda: session.inspect_state(path, tick))
    if as_json:
        emit_json(state)
        return
    out.print(f"ruleset {state['ruleset']}, seed {state['seed']}, tick {state['tick']}, outcome {state['outcome']}")
    table = Table("id", "components")
    for ent in state["entities"]:
        table.add_row(str(ent["id"]), "; ".join(
            f"{name}({', '.join(f'{k}={v}' for k, v in fields.items())})"
            for name, fields in ent["components"].items()))
    out.print(table)


@app.command()
def validate(paths: Annotated[list[str] | None, typer.Argument(metavar="PATH...")] = None) -> None:
    """Check rulesets, prefabs and scenarios without running them (all shipped ones by default)."""
    for line in guarded(lambda: session.validate(paths or [])):
        out.print(line, markup=False)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
