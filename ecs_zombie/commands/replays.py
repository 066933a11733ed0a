"""`inspect`: the entities and components of a save, or of a replay at a tick. (Replaying and
verifying a recording, its events and diffs of two runs are in `debug`.)"""

from __future__ import annotations

from typing import Annotated

import typer

from ecs_zombie.commands.output import JsonOpt, emit_json, guarded, out, table


def inspect(
    path: Annotated[str, typer.Argument(metavar="SAVE_OR_REPLAY", help="A snapshot or a replay.")],
    tick: Annotated[int | None, typer.Option(help="A replay's tick (0 is the start; default: its last).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Entities and their components in a save or a replay."""
    from ecs_zombie import session

    state = guarded(lambda: session.inspect_state(path, tick))
    if as_json:
        emit_json(state)
        return
    out.print(f"ruleset {state['ruleset']}, seed {state['seed']}, tick {state['tick']}, outcome {state['outcome']}"
              f" (format {state['format']}, made by ecs-zombie {state['engine'] or 'unknown'})", markup=False)
    table(["id", "components"], [[ent["id"], "; ".join(
        f"{name}({', '.join(f'{k}={v}' for k, v in fields.items())})"
        for name, fields in ent["components"].items())] for ent in state["entities"]])
