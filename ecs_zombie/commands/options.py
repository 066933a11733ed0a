"""Options several commands share, with their help and their shell completions.

Policies stay free text (per side, with options, and plugins add their own names), but the shell
completes them; the closed sets (`--backend`, `--format`, `--class`) are choices click checks and
`--help` shows.
"""

from __future__ import annotations

from typing import Annotated, Literal

import typer


def complete_targets(incomplete: str) -> list[str]:
    """Ruleset ids (shipped and from plugins) for the shell; scenario files complete as paths."""
    try:
        from ecs_zombie.catalog import catalog

        return sorted(rid for rid in catalog().entries if rid.startswith(incomplete))
    except Exception:  # completion must never print a traceback into the user's shell
        return []


def complete_policies(incomplete: str) -> list[str]:
    """The engine's policies and the names plugins register (without loading them), after any
    `side=` or earlier comma-separated part of a per-side spec."""
    head, _, last = incomplete.rpartition(",")
    side, eq, name = last.rpartition("=")
    prefix = (head + "," if head else "") + (side + eq if eq else "")
    try:
        from ecs_zombie.catalog import POLICY_GROUP, _entry_points
        from ecs_zombie.decisions import POLICIES

        names = sorted({*POLICIES, *(ep.name for ep in _entry_points(POLICY_GROUP))})
    except Exception:
        names = ["first", "heuristic", "random"]
    return [prefix + n for n in names if n.startswith(name)]


TargetArg = Annotated[str, typer.Argument(
    metavar="RULESET_OR_SCENARIO", help="A ruleset id (`ecs-zombie rulesets` lists them) or a scenario file.",
    autocompletion=complete_targets)]
PolicyOpt = Annotated[str, typer.Option(
    help="Who answers decisions: heuristic, random, first, mcts (a search: mcts:iterations=32), or a "
         "plugin's policy; per side as random,narrator=heuristic; options as name:key=value:key=value.",
    autocompletion=complete_policies)]
PlayersOpt = Annotated[int | None, typer.Option(
    help="Number of players, where the game has several (default: the scenario's).")]
Backend = Literal["local", "dask"]
BackendOpt = Annotated[Backend, typer.Option(
    help="local: a process pool on this machine; dask: a Dask cluster (local, or --address).")]
RowFormat = Literal["jsonl", "csv"]
