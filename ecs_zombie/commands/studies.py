"""Balance studies: `batch` (many games of one setup, summarised) and `sweep` (the same batch at
each value of one parameter).

Rows go to `--out` (a file, or `-` for standard output, when the summary moves to standard error);
`--plot` draws them. Ctrl-C and SIGTERM stop either cleanly: no worker left running, the finished
games in the file and the summary, exit status 128 + the signal's number (130, 143).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.console import Console

from ecs_zombie.commands.options import (
    BackendOpt,
    PlayersOpt,
    PolicyOpt,
    RowFormat,
    TargetArg,
)
from ecs_zombie.commands.output import emit_json, err, guarded, out, table, wrote
from ecs_zombie.errors import GameError

GamesOpt = Annotated[int, typer.Option("--games", help="Games to play (per value, for a sweep).")]
SeedOpt = Annotated[int, typer.Option(help="Batch seed: game i plays with a seed derived from (seed, i).")]
WorkersOpt = Annotated[int, typer.Option(help="Parallel workers (processes); the results do not depend on it.")]
AddressOpt = Annotated[str | None, typer.Option(
    help="With --backend dask: a running scheduler, e.g. tcp://host:8786 (default: a local cluster).")]
OutOpt = Annotated[str | None, typer.Option(
    "--out", "--out-file", metavar="FILE",
    help="One row per game: FILE.jsonl or FILE.csv (a bare name goes into saves/), or - for standard output "
         "(the summary then goes to standard error).")]
FormatOpt = Annotated[RowFormat | None, typer.Option(
    "--format", help="The rows' format (default: FILE's suffix; jsonl for -).")]
PlotOpt = Annotated[str | None, typer.Option(
    metavar="FILE", help="Draw the results: FILE.png, FILE.svg or FILE.pdf (needs the plot extra; a bare name "
                         "goes into saves/).")]
QuietOpt = Annotated[bool, typer.Option(help="No progress bar (there is none when standard error is not a terminal).")]


def _progress(total: int, quiet: bool) -> Any:
    """A rich progress bar (games, games/s, ETA) on a terminal; nothing when quiet or piped."""
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


@contextlib.contextmanager
def _advancing(total: int, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    with _progress(total, quiet) as bar:
        if bar is None:
            yield None
        else:
            task = bar.add_task("games", total=total)
            yield lambda n: bar.advance(task, n)


def _interval(ci: list[float] | None, digits: int = 3) -> str:
    return "-" if ci is None else f"{ci[0]:.{digits}f} – {ci[1]:.{digits}f}"


def print_summary(summary: dict[str, Any], title: str, console: Console) -> None:
    """Outcome rates with their Wilson intervals, turns, and each metric's mean with its interval."""
    table(["outcome", "games", "rate", "95% CI (Wilson)"],
          [[name, o["count"], f"{o['rate']:.3f}", _interval(o["ci95"])] for name, o in summary["outcomes"].items()],
          title=title, console=console)
    t = summary["turns"]
    if t.get("mean") is not None:
        console.print(f"turns: mean {t['mean']:.2f}, median {t['median']:g}, 5th {t['p5']:g}, 95th {t['p95']:g}",
                      markup=False)
    if summary["metrics"]:
        table(["metric", "mean", "95% CI (t, clamped)", "range"],
              [[name, f"{m['mean']:.3f}", _interval(m["ci95"]), f"{m['min']:g} – {m['max']:g}"]
               for name, m in summary["metrics"].items()], console=console)
    if summary["failed"]:
        console.print(f"{summary['failed']} games failed; seeds: {summary['failed_seeds'][:20]}", markup=False)
    coverage = summary.get("coverage")
    if coverage is not None:
        print_coverage(coverage, console)


def print_coverage(coverage: dict[str, Any], console: Console) -> None:
    """`batch --coverage`: each decision kind's option types (offered, taken, share of its answers),
    the event kinds logged, and the option types offered but never taken."""
    from ecs_zombie.coverage import Coverage, KindCount

    cov = Coverage(coverage["games"], {k: KindCount.from_dict(d) for k, d in coverage["decisions"].items()},
                   dict(coverage["events"]))
    table(["decision", "option", "offered", "taken", "share"], cov.rows(),
          title=f"decisions over {cov.games} games (offered: decisions whose options included that type)",
          console=console)
    table(["event", "count", "per game"],
          [[k, n, f"{n / cov.games:.2f}" if cov.games else "-"] for k, n in sorted(cov.events.items())],
          console=console)
    never = cov.never_taken()
    if never:
        console.print("never taken:", markup=False)  # one a line: a long list reads in a narrow terminal
        for k, t, n in never:
            console.print(f"  {k} {t} (offered {n})", markup=False)
    else:
        console.print("never taken: none (every option type offered was taken at least once)", markup=False)


def _params_text(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items()))


def _rows_target(out_file: str | None, as_json: bool) -> Path | IO[str] | None:
    from ecs_zombie import session

    if out_file is None:
        return None
    if out_file == "-":
        if as_json:
            raise GameError("--json and --out - both write to standard output: give --out a file")
        return sys.stdout
    return session.output_path(out_file)


def _plot_target(plot: str | None) -> Path | None:
    from ecs_zombie import session
    from ecs_zombie.plot import check_target

    if plot is None:
        return None
    path = session.output_path(plot)
    check_target(path)
    return path


def _finish(result: Any, as_json: bool, report: Console, title: str, files: dict[str, Path]) -> None:
    """Print the summary (the finished games' only, when stopped), say what was written, and exit
    with the status the run earned."""
    from ecs_zombie.batch import stop_helpers

    summary = result.to_dict()
    if as_json:
        emit_json({**summary, "wrote": {what: str(path) for what, path in files.items()}})
    else:
        for value, point in result.sweep:
            print_summary(point, f"{result.sweep_key} = {value}", report)
        print_summary(summary, title, report)
        for what, path in files.items():
            wrote(path, what, report)
    if result.interrupted:
        stop_helpers()  # the pool's fork server and resource tracker go now, not a moment after we exit
        signum = result.signal or signal.SIGINT
        err.print(f"stopped by {signal.Signals(signum).name}: the summary covers the {summary['games']} games "
                  "finished", markup=False)
        raise typer.Exit(128 + signum)
    if summary["failed"]:
        err.print(f"{summary['failed']} games failed; seeds: {summary['failed_seeds']}", markup=False)
        raise typer.Exit(1)


def _describe(target: str, games: int, seed: int, policy: str, players: int | None, params: dict[str, Any]) -> str:
    from ecs_zombie.scenario import load_scenario

    rid = load_scenario(target).ruleset.id
    what = target if rid == target else f"{target} (ruleset {rid})"
    parts = [what, f"{games} games", f"seed {seed}", f"policy {policy}"]
    if players is not None:
        parts.append(f"{players} players")
    parts.append(_params_text(params) if params else "default parameters")
    return ", ".join(parts)


def _sweep_title(target: str, games: int, seed: int, policy: str, players: int | None, fixed: dict[str, Any],
                 key: str, values: list[Any]) -> str:
    swept = f"{key} = {values[0]}..{values[-1]}" + (f" ({len(values)} values)" if len(values) > 2 else "")
    head = _describe(target, games, seed, policy, players, {}).replace(", default parameters", "")
    return f"{head.replace(f'{games} games', f'{games} games per value', 1)}; {swept}, " + (
        f"other parameters {_params_text(fixed)}" if fixed else "other parameters default")


def batch(
    target: TargetArg,
    games: GamesOpt = 100,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    policy: PolicyOpt = "heuristic",
    players: PlayersOpt = None,
    param: Annotated[list[str] | None, typer.Option(
        metavar="KEY=VALUE", help="Override a ruleset parameter (repeatable), validated before any game runs.")
                     ] = None,
    out_file: OutOpt = None,
    fmt: FormatOpt = None,
    plot: PlotOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    quiet: QuietOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    coverage: Annotated[bool, typer.Option(
        "--coverage", help="Count, per decision kind, each option type offered and taken, and each event kind "
                           "(a rule the policy never uses shows at once).")] = False,
) -> None:
    """Play many games and summarise them: outcome rates with Wilson intervals, turns, metrics with
    t intervals clamped to the values seen; with --coverage, which options and events the games used."""
    from ecs_zombie import session
    from ecs_zombie.balance import columns, play_batch, validated_params
    from ecs_zombie.batch import BatchSpec, check
    from ecs_zombie.rows import RowWriter

    files: dict[str, Path] = {}
    report = err if out_file == "-" else out

    def body() -> tuple[Any, str]:
        params = validated_params(target, session.parse_params(param or []))
        spec = BatchSpec(target, games, seed, policy, players, params, coverage=coverage)
        names = check(spec)
        rows_to = _rows_target(out_file, as_json)
        plot_to = _plot_target(plot)
        writer = RowWriter(rows_to, columns(names, sorted(params)), fmt) if rows_to is not None else None
        try:
            with _advancing(games, quiet) as progress:
                result = play_batch(spec, workers, backend, address, writer, progress)
        finally:
            if writer is not None:
                writer.close()
        if isinstance(rows_to, Path):
            files["rows"] = rows_to
        played = result.summary.games
        title = _describe(target, played, seed, policy, players, params)
        if plot_to is not None and played:
            from ecs_zombie.plot import batch_plot, main_metric
            from ecs_zombie.scenario import load_scenario

            batch_plot(result.summary, main_metric(result.summary, names), title, plot_to,
                       load_scenario(target).ruleset.tick_name)
            files["plot"] = plot_to
        return result, title

    result, title = guarded(body)
    _finish(result, as_json, report, title, files)


def sweep(
    target: TargetArg,
    param: Annotated[list[str], typer.Option(
        metavar="KEY=START..STOP[:STEP]",
        help="The parameter to sweep, KEY=START..STOP[:STEP] (STOP included); others KEY=VALUE (repeatable).")],
    games: GamesOpt = 100,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    policy: PolicyOpt = "heuristic",
    players: PlayersOpt = None,
    out_file: OutOpt = None,
    fmt: FormatOpt = None,
    plot: PlotOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    quiet: QuietOpt = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: the totals over every value, and each value's summary.")] = False,
) -> None:
    """The same batch at each value of one parameter (the same game seeds at every value)."""
    from ecs_zombie import session
    from ecs_zombie.balance import play_sweep, sweep_values, validated_params
    from ecs_zombie.batch import BatchSpec

    files: dict[str, Path] = {}
    report = err if out_file == "-" else out

    def body() -> tuple[Any, str]:
        ranges = [p for p in param if ".." in p]
        if len(ranges) != 1:
            raise GameError("a sweep takes exactly one --param KEY=START..STOP[:STEP]")
        key, values = sweep_values(ranges[0], target)
        fixed = validated_params(target, session.parse_params([p for p in param if ".." not in p]))
        for v in values:
            validated_params(target, {**{k: str(x) for k, x in fixed.items()}, key: str(v)})
        spec = BatchSpec(target, games, seed, policy, players, fixed)
        rows_to = _rows_target(out_file, as_json)
        plot_to = _plot_target(plot)
        with _advancing(games * len(values), quiet) as progress:
            result = play_sweep(spec, key, values, workers, backend, address, rows_to, progress, fmt)
        if isinstance(rows_to, Path):
            files["rows"] = rows_to
        title = _sweep_title(target, games, seed, policy, players, fixed, key, values)
        if plot_to is not None and result.sweep:
            from ecs_zombie.plot import sweep_plot

            sweep_plot(key, result.sweep, title, plot_to)
            files["plot"] = plot_to
        return result, title

    result, title = guarded(body)
    _finish(result, as_json, report, f"{title}: all values together", files)
