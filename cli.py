"""The `ecs-zombie` command: play, save, resume, replay, inspect, validate, study and compose games
headless. Also `python -m ecs_zombie`.

This file only assembles the command: each sub-command lives in `ecs_zombie/commands/` by concern
(play, human, debug, view, replays, studies, compose, characters), prints through `ecs_zombie.commands.output`, and
leaves the work to the engine's modules. Every error caused by input prints one line to stderr and
exits with status 2, never a traceback.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from ecs_zombie.commands import characters, compose, debug, human, play, replays, strength, studies, view
from ecs_zombie.commands.output import err
from ecs_zombie.version import __version__

# typer's own click (typer._click): its usage errors are TyperExceptions; click itself is not a dependency
_USAGE: tuple[type[Exception], ...] = (TyperException,)


class OneLineErrors(TyperGroup):
    """Usage errors (an unknown option, a value of the wrong type, a missing argument) as one `error:`
    line and exit status 2, like every other input error; click would draw a panel of several lines.
    Asking for nothing still prints the help."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except _USAGE as exc:
            usage: Any = exc
            if type(usage).__name__ == "NoArgsIsHelpError":
                usage.show()
                sys.exit(usage.exit_code)
            message = " ".join(usage.format_message().split())
            ctx = getattr(usage, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            err.print(f"error: {message}{hint}", markup=False, soft_wrap=True)
            sys.exit(usage.exit_code)
        except typer.Abort:
            err.print("interrupted")
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(cls=OneLineErrors, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Deterministic, headless simulation of tabletop zombie games.")


def _version(value: bool) -> None:
    if value:
        print(f"ecs-zombie {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Deterministic, headless simulation of tabletop zombie games."""


for _command in (play.run, play.resume, debug.replay, view.view, replays.inspect, debug.events, debug.diff,
                 studies.batch, studies.sweep, strength.tournament, strength.tune, compose.validate, compose.rulesets,
                 compose.systems, compose.schedule,
                 compose.decisions):
    app.command()(_command)
app.command("play")(human.play)
app.add_typer(characters.app, name="character")


def main() -> None:
    app(prog_name="ecs-zombie")


if __name__ == "__main__":
    main()
