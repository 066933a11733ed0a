"""`ecs-zombie view REPLAY`: a terminal viewer (textual) that steps through a replay by tick, by
system and by decision, with the board, the step's events and the selected entity's components
side by side; it jumps to a tick, or to where a second replay parts from this one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, ClassVar

import typer

from ecs_zombie.commands.output import guarded

KEYS = ("→/n next  ←/p back   t/T tick   s/S system   d/D decision   ↓/j ↑/k entity   "
        "g go to tick   f first divergence   q quit")


def _component_lines(frame: Any, entity: int | None) -> list[str]:
    if entity is None or entity not in frame.entities:
        return ["(no entity)"]
    lines = [f"entity {entity}"]
    for name, fields in frame.entities[entity].items():
        lines.append(f"  {name}")
        lines += [f"    {key}: {value!r}" for key, value in fields.items()]
    return lines


def make_app(frames: list[Any], title: str, divergence: int | None = None, start: int = 0) -> Any:
    """The textual application over `frames` (from `ecs_zombie.timeline.build`)."""
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal, VerticalScroll
    from textual.widgets import Footer, Header, Input, Static

    from ecs_zombie.timeline import DECISION, SYSTEM, TICK, find

    class Viewer(App[None]):
        CSS = """
        #board { width: auto; min-width: 30; border: round $accent; padding: 0 1; }
        #events { width: 1fr; border: round $accent; padding: 0 1; }
        #entity { width: 40; border: round $accent; padding: 0 1; }
        #where { height: 1; padding: 0 1; }
        #goto { dock: bottom; display: none; }
        """
        BINDINGS: ClassVar[list[Any]] = [("right,n", "move(1)", "next"), ("left,p", "move(-1)", "back"),
                                          ("t", "jump('tick', 1)", "tick"), ("T", "jump('tick', -1)", ""),
                                          ("s", "jump('system', 1)", "system"), ("S", "jump('system', -1)", ""),
                                          ("d", "jump('decision', 1)", "decision"), ("D", "jump('decision', -1)", ""),
                                          ("down,j", "entity(1)", "entity"), ("up,k", "entity(-1)", ""),
                                          ("g", "goto", "go to tick"), ("f", "divergence", "divergence"),
                                          ("q", "quit", "quit")]
        TITLE = title

        def __init__(self) -> None:
            super().__init__()
            self.at = max(0, min(start, len(frames) - 1))
            self.entity: int | None = None

        def compose(self) -> ComposeResult:
            yield Header()
            yield Static(id="where")
            with Horizontal():
                yield VerticalScroll(Static(id="board-text"), id="board")
                yield VerticalScroll(Static(id="events-text"), id="events")
                yield VerticalScroll(Static(id="entity-text"), id="entity")
            yield Input(placeholder="tick number, then Enter", id="goto")
            yield Footer()

        def on_mount(self) -> None:
            self.refresh_frame()

        def refresh_frame(self) -> None:
            f = frames[self.at]
            if self.entity is None or self.entity not in f.entities:
                self.entity = next(iter(f.entities), None)
            marker = "   << first divergence" if divergence is not None and self.at == divergence else ""
            self.query_one("#where", Static).update(
                f"frame {self.at + 1}/{len(frames)}  tick {f.tick}  {f.kind}: {f.label}{marker}")
            self.query_one("#board-text", Static).update("\n".join(f.board))
            events = [f"{(e[3] if len(e) > 3 else '') or '(engine)'}  {e[1]}  "
                      + ", ".join(f"{k}={v!r}" for k, v in e[2].items()) for e in f.events]
            self.query_one("#events-text", Static).update("\n".join(events) or "(no events in this step)")
            self.query_one("#entity-text", Static).update("\n".join(_component_lines(f, self.entity)))

        def action_move(self, by: int) -> None:
            self.at = max(0, min(len(frames) - 1, self.at + by))
            self.refresh_frame()

        def action_jump(self, kind: str, by: int) -> None:
            want = {"tick": TICK, "system": SYSTEM, "decision": DECISION}[kind]
            i = self.at + by
            while 0 <= i < len(frames) and frames[i].kind != want:
                i += by
            if 0 <= i < len(frames):
                self.at = i
                self.refresh_frame()

        def action_entity(self, by: int) -> None:
            ids = list(frames[self.at].entities)
            if ids:
                pos = ids.index(self.entity) if self.entity in ids else 0
                self.entity = ids[(pos + by) % len(ids)]
                self.refresh_frame()

        def action_goto(self) -> None:
            box = self.query_one("#goto", Input)
            box.display = True
            box.focus()

        def on_input_submitted(self, event: Input.Submitted) -> None:
            event.input.display = False
            if event.value.strip().isdigit():
                self.at = find(frames, int(event.value))
                self.refresh_frame()
            event.input.value = ""

        def action_divergence(self) -> None:
            if divergence is not None:
                self.at = divergence
                self.refresh_frame()

    return Viewer()


def view(
    replay_file: Annotated[str, typer.Argument(metavar="REPLAY", help="A replay written by --record.")],
    against: Annotated[str | None, typer.Option(help="A second replay: `f` jumps to where the two part.")] = None,
    tick: Annotated[int, typer.Option(help="Open at this tick.")] = 0,
) -> None:
    """Step through a replay in the terminal: by tick, system and decision, with the board, the
    step's events and an entity's components side by side."""
    from ecs_zombie.replay import load_replay
    from ecs_zombie.timeline import build, find

    def prepare() -> tuple[list[Any], int | None]:
        rep = load_replay(Path(replay_file))
        frames = build(rep)
        divergence = None
        if against:
            from ecs_zombie.runs import diff_files

            found = diff_files(Path(replay_file), Path(against))
            if not found["same"] and found.get("tick") is not None:
                divergence = find(frames, found["tick"], found.get("system"))
        return frames, divergence

    frames, divergence = guarded(prepare)
    start = find(frames, tick) if tick else 0
    make_app(frames, f"{Path(replay_file).name}", divergence, start).run()
