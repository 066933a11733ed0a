"""Commands for finding a desync: replay (and verify, in this process or a fresh one), read the
event log, and diff two runs. Exit status: 0 same or verified, 1 different, 2 bad input (so that
`git bisect run ecs-zombie diff a.replay b.replay` works)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ecs_zombie.commands.output import emit_json, err, guarded, out, table, wrote
from ecs_zombie.errors import GameError, SaveError, cause

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _print_divergence(found: dict[str, Any]) -> None:
    err.print(f"divergence at tick {found['tick']}" + (f", in system {found['system']}" if found["system"] else "")
              + f": {found['reason']}", markup=False)
    for line in found["differences"]:
        err.print(f"  {line}", markup=False)


def replay(
    replay_file: Annotated[str, typer.Argument(metavar="REPLAY", help="A replay written by --record.")],
    verify: Annotated[bool, typer.Option(help="Re-run the game and check every tick's events and state.")] = False,
    heavy: Annotated[bool, typer.Option(help="With --verify: also save and reload after every tick.")] = False,
    fresh: Annotated[bool, typer.Option(help="With --verify: verify in a new process, under another hash seed, "
                                             "after playing other games of the ruleset there first.")] = False,
    warmup: Annotated[int, typer.Option(hidden=True, help="Games of the ruleset played before verifying.")] = 0,
    until: Annotated[int | None, typer.Option(help="Stop after this tick.")] = None,
    show: Annotated[bool, typer.Option(help="Print the board tick by tick.")] = False,
    html: Annotated[str | None, typer.Option(help="Write the game as one self-contained web page.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay a recorded game: --show draws it tick by tick; --verify re-runs it and names the first
    tick, system, event and component fields that differ."""
    from ecs_zombie import replay as replays
    from ecs_zombie.boards import render

    def body() -> int:
        # Verifying reads a tick's recorded state only where the re-run departs from it (--html
        # and the walk without --verify restore, and so read, every one).
        rep = replays.load_replay(Path(replay_file), states=not verify or html is not None)
        if fresh:
            if not verify:
                raise typer.BadParameter("--fresh goes with --verify")
            checked = replays.verify_fresh(Path(replay_file), heavy=heavy, until=until)
            if as_json:
                emit_json(checked)
            elif checked["verified"]:
                out.print(f"verified in a fresh process (hash seed {checked['hash_seed']}, after "
                          f"{checked['warmup']} other games): {checked['ticks']} ticks match", markup=False)
            else:
                _print_divergence(checked["divergence"])
            return 0 if checked["verified"] else 1
        if warmup:
            replays.warm_up(rep, warmup)
        rows: list[dict[str, Any]] = []

        def on_tick(game: Any) -> None:
            try:
                rows.append({"turn": game.tick, **game.metrics()})
                board = render(game) if show and not as_json else []
            except GameError:
                raise
            except Exception as exc:  # a state that loads but that its rules cannot measure or draw
                raise SaveError(f"{replay_file}: the state of {game.ruleset.tick_name} {game.tick} fails in its "
                                f"rules ({cause(exc)}); its content does not fit the rules") from exc
            if show and not as_json:
                out.print(f"{game.ruleset.tick_name} {game.tick}: " +
                          ", ".join(f"{k}={v}" for k, v in rows[-1].items() if k != "turn"), markup=False)
                for line in board:
                    out.print(f"  {line}", markup=False)

        if verify:
            found = replays.verify(rep, heavy=heavy, until=until, on_tick=on_tick)
        else:
            found = None
            replays.walk(rep, on_tick, until)
        written = None
        if html:
            from ecs_zombie.webview import write_page

            written = write_page(rep, Path(html))
            if not as_json:
                wrote(written, "page")
        result: dict[str, Any] = {"ticks": len(rows), "outcome": rep.outcome, "verified": verify and found is None,
                                  "wrote": {"page": str(written)} if written is not None else {}}
        if found is not None:
            result["divergence"] = found.to_dict()
        if show:
            result["per_turn"] = rows
        if as_json:
            emit_json(result)
        elif found is None:
            out.print(f"replayed {len(rows)} ticks; outcome {rep.outcome}" + (
                "; every tick's events and state match" if verify else
                " (the recorded states, not re-run: --verify re-runs the game and checks them)"), markup=False)
        else:
            _print_divergence(found.to_dict())
        return 1 if found is not None else 0

    code = guarded(body)
    if code:
        raise typer.Exit(code)


def events(
    replay_file: Annotated[str, typer.Argument(metavar="REPLAY", help="A replay written by --record.")],
    tick: Annotated[int | None, typer.Option(help="Only this tick.")] = None,
    system: Annotated[str | None, typer.Option(help="Only events of systems whose path starts with this.")] = None,
    kind: Annotated[str | None, typer.Option(help="Only events of this kind.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per event (JSON lines).")] = False,
) -> None:
    """The event log of a replay: every roll, draw, decision and effect, with the system that logged it."""
    from ecs_zombie.commands.output import emit_json_line
    from ecs_zombie.replay import load_replay

    def body() -> list[Any]:
        rep = load_replay(Path(replay_file))
        return [e for e in rep.events if (tick is None or e[0] == tick) and (kind is None or e[1] == kind)
                and (system is None or (len(e) > 3 and str(e[3]).startswith(system)))]

    found = guarded(body)
    if as_json:
        for e in found:
            emit_json_line({"tick": e[0], "kind": e[1], "data": e[2], "system": e[3] if len(e) > 3 else ""})
        return
    table(["tick", "system", "kind", "data"],
          [[e[0], (e[3] if len(e) > 3 else "") or "(engine)", e[1],
            ", ".join(f"{k}={v!r}" for k, v in e[2].items())] for e in found])


def diff(
    first: Annotated[str, typer.Argument(metavar="A", help="A replay or a save.")],
    second: Annotated[str, typer.Argument(metavar="B", help="A replay or a save of the same kind.")],
    as_json: JsonOpt = False,
) -> None:
    """Where two runs part: the first tick and system, the first differing event, and the component
    fields that differ. Exit 0 when the same, 1 when different, 2 on bad input."""
    from ecs_zombie.runs import diff_files

    result = guarded(lambda: diff_files(Path(first), Path(second)))
    if as_json:
        emit_json(result)
    elif result["same"]:
        out.print(f"same: {result['compared']}", markup=False)
    else:
        where = f"tick {result['tick']}" if result.get("tick") is not None else "the state"
        out.print(f"different at {where}" + (f", in system {result['system']}" if result.get("system") else "")
                  + f": {result['reason']}", markup=False)
        for line in result["differences"]:
            out.print(f"  {line}", markup=False)
    if not result["same"]:
        raise typer.Exit(1)
