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
out = Console(highlight=False, soft_wrap=True)  # lines never wrapped: output is often piped
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
                for line in session.describe(game):
                    out.print(f"    {line}", markup=False)

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


def _progress(total: int, quiet: bool) -> Any:
    """A rich progress bar (games, games/s, ETA) on a terminal; nothing when quiet or piped."""
    import contextlib

    if quiet or not err.is_terminal:
        return contextlib.nullcontext(None)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    class Rate(TextColumn):
        def render(self, task: Any) -> Any:  # games per second
            from rich.text import Text

            return Text(f"{task.speed or 0:,.0f} games/s")

    return Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(), Rate(""),
                    TimeRemainingColumn(), console=err, transient=True)


def _print_summary(summary: dict[str, Any], title: str) -> None:
    table = Table("outcome", "games", "rate", "95% CI (Wilson)", title=title)
    for name, o in summary["outcomes"].items():
        table.add_row(name, str(o["count"]), f"{o['rate']:.3f}", f"{o['ci95'][0]:.3f} – {o['ci95'][1]:.3f}")
    out.print(table)
    t = summary["turns"]
    if t.get("mean") is not None:
        out.print(f"turns: mean {t['mean']:.2f}, median {t['median']:g}, 5th {t['p5']:g}, 95th {t['p95']:g}")
    if summary["metrics"]:
        mt = Table("metric", "mean", "95% CI")
        for name, m in summary["metrics"].items():
            mt.add_row(name, f"{m['mean']:.3f}", f"{m['ci95'][0]:.3f} – {m['ci95'][1]:.3f}")
        out.print(mt)
    if summary["failed"]:
        out.print(f"[red]{summary['failed']} games failed[/red]; seeds: {summary['failed_seeds'][:20]}")


def _batch_options(target: str, games: int, seed: int, policy: str, players: int | None,
                   params: dict[str, Any]) -> Any:
    from ecs_zombie.batch import BatchSpec

    return BatchSpec(target, games, seed, policy, players, params)


GamesOpt = Annotated[int, typer.Option("--games", help="Games to play (per value, for a sweep).")]
WorkersOpt = Annotated[int, typer.Option(help="Parallel workers (processes).")]
BackendOpt = Annotated[str, typer.Option(help="local (a process pool) or dask (distributed).")]
AddressOpt = Annotated[str | None, typer.Option(help="With --backend dask: a running scheduler, e.g. tcp://h:8786.")]
OutOpt = Annotated[str | None, typer.Option(help="One row per game: FILE.jsonl or FILE.csv.")]
PlotOpt = Annotated[str | None, typer.Option(help="Write a PNG plot (needs the plot extra).")]


@app.command()
def batch(
    target: Annotated[str, typer.Argument(metavar="RULESET_OR_SCENARIO")],
    games: GamesOpt = 100,
    seed: Annotated[int, typer.Option(help="Batch seed: game i plays with a seed derived from (seed, i).")] = 1,
    workers: WorkersOpt = 1,
    policy: Annotated[str, typer.Option()] = "heuristic",
    players: Annotated[int | None, typer.Option()] = None,
    param: Annotated[list[str] | None, typer.Option(help="KEY=VALUE, validated before any game runs.")] = None,
    out_file: OutOpt = None,
    plot: PlotOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The summary as one JSON object.")] = False,
) -> None:
    """Play many games and summarise them: outcome rates with Wilson intervals, turns, metrics."""
    from ecs_zombie.balance import columns, play_batch, validated_params
    from ecs_zombie.batch import check
    from ecs_zombie.plot import batch_plot
    from ecs_zombie.rows import RowWriter

    def body() -> Any:
        params = validated_params(target, session.parse_params(param or []))
        spec = _batch_options(target, games, seed, policy, players, params)
        names = check(spec)
        writer = RowWriter(session.output_path(out_file), columns(names, sorted(params))) if out_file else None
        try:
            with _progress(games, quiet) as bar:
                task = bar.add_task("games", total=games) if bar is not None else None
                result = play_batch(spec, workers, backend, address, writer,
                                    (lambda n: bar.advance(task, n)) if bar is not None else None)
        finally:
            if writer is not None:
                writer.close()
        if plot and result.summary.games:
            batch_plot(result.summary, names[0] if names else None, f"{target}: {result.summary.games} games",
                       session.output_path(plot))
        return result

    result = guarded(body)
    summary = result.to_dict()
    if as_json:
        emit_json(summary)
    else:
        _print_summary(summary, f"{target}: {summary['games']} games, seed {seed}")
        if result.interrupted:
            out.print("interrupted: the summary covers the games finished so far")
    if result.interrupted:
        raise typer.Exit(130)
    if summary["failed"]:
        err.print(f"{summary['failed']} games failed; seeds: {summary['failed_seeds']}", markup=False)
        raise typer.Exit(1)


@app.command()
def sweep(
    target: Annotated[str, typer.Argument(metavar="RULESET_OR_SCENARIO")],
    param: Annotated[list[str], typer.Option(help="One KEY=START..STOP[:STEP] to sweep; others KEY=VALUE.")],
    games: GamesOpt = 100,
    seed: Annotated[int, typer.Option()] = 1,
    workers: WorkersOpt = 1,
    policy: Annotated[str, typer.Option()] = "heuristic",
    players: Annotated[int | None, typer.Option()] = None,
    out_file: OutOpt = None,
    plot: PlotOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    quiet: Annotated[bool, typer.Option()] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """The same batch at each value of one parameter (the same game seeds at every value)."""
    from ecs_zombie.balance import play_sweep, sweep_values, validated_params
    from ecs_zombie.plot import sweep_plot

    def body() -> Any:
        ranges = [p for p in param if ".." in p]
        if len(ranges) != 1:
            raise GameError("a sweep takes exactly one --param KEY=START..STOP[:STEP]")
        key, values = sweep_values(ranges[0], target)
        fixed = validated_params(target, session.parse_params([p for p in param if ".." not in p]))
        for v in values:
            validated_params(target, {**{k: str(x) for k, x in fixed.items()}, key: str(v)})
        spec = _batch_options(target, games, seed, policy, players, fixed)
        with _progress(games * len(values), quiet) as bar:
            task = bar.add_task("games", total=games * len(values)) if bar is not None else None
            result = play_sweep(spec, key, values, workers, backend, address,
                                session.output_path(out_file) if out_file else None,
                                (lambda n: bar.advance(task, n)) if bar is not None else None)
        if plot and result.sweep:
            sweep_plot(key, result.sweep, f"{target}: {games} games per value", session.output_path(plot))
        return key, result

    key, result = guarded(body)
    summary = result.to_dict()
    if as_json:
        emit_json(summary)
    else:
        for value, point in result.sweep:
            _print_summary(point, f"{key} = {value}")
    if result.interrupted:
        raise typer.Exit(130)
    if summary["failed"]:
        err.print(f"{summary['failed']} games failed; seeds: {summary['failed_seeds']}", markup=False)
        raise typer.Exit(1)


character_app = typer.Typer(no_args_is_help=True, help="Singapore Zombie Apocalypse characters.")
app.add_typer(character_app, name="character")


@character_app.command("create")
def character_create(
    cls: Annotated[str, typer.Option("--class", help="firefighter, soldier, convict, politician or paramedic.")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the creation dice.")] = 0,
    name: Annotated[str | None, typer.Option("--name", help="The character's name.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sheet as one JSON object.")] = False,
    save: Annotated[str | None, typer.Option("--save", help="Also write the sheet as a prefab YAML.")] = None,
) -> None:
    """Roll a Singapore Zombie Apocalypse character (d100 attributes, class modifiers, an ability, a weapon)."""

    def body() -> None:
        from ecs_zombie.systems.sza.character_sheet import create_character, render_sheet, save_prefab

        sheet = create_character(cls, seed, name)
        saved = save_prefab(sheet, save) if save else None
        if as_json:
            emit_json({**sheet, "saved": str(saved) if saved else None})
            return
        out.print(render_sheet(sheet), markup=False)
        if saved:
            out.print(f"saved {saved}", markup=False)

    guarded(body)


@app.command()
def validate(paths: Annotated[list[str] | None, typer.Argument(metavar="PATH...")] = None) -> None:
    """Check rulesets, prefabs and scenarios without running them (all shipped ones by default)."""
    for line in guarded(lambda: session.validate(paths or [])):
        out.print(line, markup=False)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
