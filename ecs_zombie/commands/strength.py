"""Policy strength and tuning: `tournament` (every policy for each team on common seeds) and `tune`
(the value of one parameter that brings an outcome's rate to a target). See `ecs_zombie.tournament`
and `ecs_zombie.tune` for the methods."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from ecs_zombie.commands.options import BackendOpt, PlayersOpt, PolicyOpt, TargetArg
from ecs_zombie.commands.output import emit_json, err, guarded, out, table, wrote
from ecs_zombie.commands.studies import AddressOpt, PlotOpt, SeedOpt, WorkersOpt, _plot_target
from ecs_zombie.errors import GameError


def _interval(ci: list[float]) -> str:
    return f"{ci[0]:.3f} – {ci[1]:.3f}"


def _stopped(interrupted: bool) -> None:
    if interrupted:
        from ecs_zombie.batch import stop_helpers

        stop_helpers()
        err.print("stopped: the figures cover the games finished", markup=False)
        raise typer.Exit(128 + signal.SIGINT)


def tournament(
    target: TargetArg,
    policies: Annotated[str, typer.Option(
        help="The policies to compare, comma-separated (options after a colon: mcts:iterations=16).")
                        ] = "heuristic,mcts,random",
    games: Annotated[int, typer.Option(help="Games per policy and team (the same seeds for each).")] = 100,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    opponent: Annotated[str, typer.Option(help="The policy of the other team's sides.")] = "heuristic",
    team: Annotated[str | None, typer.Option(help="Only this team: survivors or zombies.")] = None,
    players: PlayersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the table as one JSON object.")] = False,
) -> None:
    """Every policy plays each team (every side of it) against the opponent policy, on common seeds:
    the team's win rate with its Wilson interval, decisions per game and time per decision."""
    from ecs_zombie.tournament import play_tournament

    names = [p.strip() for p in policies.split(",") if p.strip()]
    result = guarded(lambda: play_tournament(target, names, games, seed, workers, opponent, players, backend,
                                             address, team))
    if as_json:
        emit_json(result.to_dict())
    else:
        rows = []
        for e in result.entries:
            d = e.to_dict()
            ms = d["ms_per_decision"]
            rows.append([d["team"], d["policy"], _played(d["games"], d["failed"]), f"{d['rate']:.3f}",
                         _interval(d["ci95"]), f"{d['decisions_per_game']:.1f}",
                         "-" if ms is None else _milliseconds(ms)])
        table(["team", "policy", "games", "win rate", "95% CI (Wilson)", "decisions/game", "ms/decision"], rows,
              title=f"{target}: seed {seed}, other team played by {opponent}")
    _stopped(result.interrupted)
    players_opt = "" if players is None else f" --players {players}"
    _failures([(f"{e.team} by {e.policy}", e.failed,
                f"batch {target} --policy '{e.spec}' --seed {seed} --games {e.games}{players_opt}")
               for e in result.entries])


def _played(games: int, failed: int) -> str:
    return f"{games} ({failed} failed)" if failed else str(games)


def _milliseconds(ms: float) -> str:
    """Three significant digits (a heuristic's 0.0033 ms), never an exponent (an mcts's 1500 ms)."""
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def _failures(counts: list[tuple[str, int, str]]) -> None:
    """Games that raised are left out of the rates: say which entries lost games and the `batch`
    that plays the same games and lists their seeds, and exit 1 as `batch` does."""
    failed = [(what, n, again) for what, n, again in counts if n]
    if failed:
        err.print("games failed (left out of the rates): " + "; ".join(
            f"{what}: {n} (their seeds: ecs-zombie {again})" for what, n, again in failed), markup=False)
        raise typer.Exit(1)


def _range(text: str | None) -> tuple[str, str] | None:
    if text is None:
        return None
    lo, dots, hi = text.partition("..")
    if not dots or not lo.strip() or not hi.strip():
        raise GameError(f"--range takes LO..HI, got {text!r}")
    return lo.strip(), hi.strip()


def tune(
    target: TargetArg,
    param: Annotated[str, typer.Option(help="The parameter to tune (int or float).")],
    goal: Annotated[float, typer.Option("--target", help="The rate wanted, between 0 and 1 (0.3 for 30%).")],
    outcome: Annotated[str, typer.Option(help="The outcome whose rate is tuned.")] = "survivors",
    policy: PolicyOpt = "heuristic",
    games: Annotated[int, typer.Option(help="Games per value measured (more are added where the interval "
                                            "holds the target).")] = 200,
    max_games: Annotated[int | None, typer.Option(help="Most games at one value (default 8 x --games).")] = None,
    value_range: Annotated[str | None, typer.Option(
        "--range", metavar="LO..HI", help="The range searched (default: the parameter's declared min and max).")
                           ] = None,
    tolerance: Annotated[float | None, typer.Option(
        help="For a real parameter, stop when the bracket is this narrow (default: the range / 64).")] = None,
    fixed: Annotated[list[str] | None, typer.Option(
        "--set", metavar="KEY=VALUE", help="Another parameter's value, fixed (repeatable).")] = None,
    seed: SeedOpt = 1,
    workers: WorkersOpt = 1,
    players: PlayersOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    plot: PlotOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
) -> None:
    """Find the value of one parameter at which an outcome's rate is closest to a target, by a noisy
    bisection on common seeds that adds games where the intervals hold the target."""
    from ecs_zombie import session
    from ecs_zombie.tune import tune as run_tune
    from ecs_zombie.tune import tune_plot

    files: dict[str, Path] = {}

    def body() -> Any:
        plot_to = _plot_target(plot)
        result = run_tune(target, param, goal, outcome, policy, games, seed, workers, players,
                          session.parse_params(fixed or []), _range(value_range), max_games, tolerance, backend,
                          address)
        if plot_to is not None and result.points:
            tune_plot(result, f"{target}: {outcome} rate against {param} (target {goal:g}; policy {policy}, "
                              f"seed {seed})", plot_to)
            files["plot"] = plot_to
        return result

    result = guarded(body)
    if as_json:
        emit_json({**result.to_dict(), "wrote": {k: str(v) for k, v in files.items()}})
    else:
        best = result.best
        assert best is not None
        rows = [[("→ " if p is best else "") + f"{p.value:g}", _played(p.games, p.failed), f"{p.rate:.3f}",
                 _interval(list(p.ci))] for p in result.ordered()]
        table([param, "games", f"{outcome} rate", "95% CI (Wilson)"], rows,
              title=f"{target}: {outcome} rate against {param}, target {goal:g}")
        if result.reachable:
            out.print(f"closest: {param} = {best.value:g} ({outcome} {best.rate:.3f}, "
                      f"95% CI {_interval(list(best.ci))}, {best.games} games"
                      + (f", {best.failed} failed)" if best.failed else ")"), markup=False)
        else:
            out.print(f"the target {goal:g} is out of reach in {param}'s range: nearest {param} = {best.value:g} "
                      f"({outcome} {best.rate:.3f}, 95% CI {_interval(list(best.ci))})", markup=False)
        for what, path in files.items():
            wrote(path, what)
    _stopped(result.interrupted)
    more = "".join(f" --param {p}" for p in fixed or []) + ("" if players is None else f" --players {players}")
    _failures([(f"{param} = {p.value:g}", p.failed,
                f"batch {target} --policy '{policy}' --param {param}={p.value}{more} --seed {seed} --games {p.games}")
               for p in result.ordered()])
