"""`ecs-zombie character create`: a Singapore Zombie Apocalypse character, rolled and printed (the
work is in the sza rules' character_sheet module)."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from ecs_zombie.commands.output import JsonOpt, emit_json, guarded, out, wrote

# The five classes of the rules' Class Modifiers table (a test holds this list to prefabs/sza/rules.yaml).
SzaClass = Literal["firefighter", "soldier", "convict", "politician", "paramedic"]

app = typer.Typer(no_args_is_help=True, help="Singapore Zombie Apocalypse characters.")


@app.command("create")
def create(
    cls: Annotated[SzaClass, typer.Option("--class", help="The character's class.")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the creation dice.")] = 0,
    name: Annotated[str | None, typer.Option("--name", help="The character's name.")] = None,
    as_json: JsonOpt = False,
    save: Annotated[str | None, typer.Option(
        "--save", metavar="FILE", help="Also write the sheet as a prefab YAML (a bare name goes into saves/).")
                    ] = None,
) -> None:
    """Roll a Singapore Zombie Apocalypse character (d100 attributes, class modifiers, an ability, a weapon)."""

    def body() -> None:
        from ecs_zombie.systems.sza.character_sheet import create_character, render_sheet, save_prefab

        sheet = create_character(cls, seed, name)
        saved = save_prefab(sheet, save) if save else None
        if as_json:
            emit_json({**sheet, "saved": str(saved) if saved else None,
                       "wrote": {"prefab": str(saved)} if saved else {}})
            return
        out.print(render_sheet(sheet), markup=False)
        if saved:
            wrote(saved, "prefab")

    guarded(body)
