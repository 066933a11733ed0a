"""`play`: a person answers one side's decisions at the terminal; policies answer the others.

Each decision shows what happened since the last one (dice rolled, cards drawn, the other sides'
choices), the board (the ruleset's drawing, or its pieces described), what is being decided (the
decision kind's documentation and its context) and the legal options, numbered and read for a
person (`ecs_zombie.reading`: never an entity id). The person types an option's number; `?` shows
help on the decision, `s` saves the game at this decision and quits, `q` quits without saving. A bad
answer is asked again. End of input (Ctrl-D) and Ctrl-C stop the game with a message, never a
traceback.

A save made with `s` holds the game at the pending decision (the tick's start and the answers given
since: `ecs_zombie.snapshot`); `ecs-zombie resume SAVE --as SIDE` loads it there and asks the person
again (`resume` without `--as` lets the policies finish it). The game is recorded with `--record`:
the replay verifies (`replay --verify`). A resumed game's recording starts where the save's tick
began, since the save does not carry the recording made before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ecs_zombie.commands.options import PlayersOpt, PolicyOpt, TargetArg
from ecs_zombie.commands.output import err, guarded, out, wrote

if TYPE_CHECKING:
    from ecs_zombie.decisions import Decision
    from ecs_zombie.game import Game
    from ecs_zombie.replay import Recorder

AsOpt = Annotated[str, typer.Option(
    "--as", help="The side you answer for (player:0, narrator, gm, ...; `ecs-zombie decisions RULESET` lists them); "
                 "the policy answers every other side.", metavar="SIDE")]
PlaySaveOpt = Annotated[str | None, typer.Option(
    help="Where `s` saves the game (a bare file name goes into saves/; default saves/play-RULESET-SEED.msgpack).",
    metavar="FILE")]
PlayRecordOpt = Annotated[str | None, typer.Option(
    help="Write a replay of the game when it ends (a bare file name goes into saves/).", metavar="FILE")]

PROMPT_TAIL = "(? help, s save and quit, q quit)> "

# Exit statuses: the game ended, or the person saved or quit (0); input ended before the game did (1);
# interrupted by Ctrl-C (130, as every command).
EXIT_EOF = 1
EXIT_INTERRUPTED = 130


class _Stop(Exception):
    """The person saved and quit, or quit (`code` is the exit status)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _say(line: str = "") -> None:
    out.print(line, markup=False, highlight=False)


@dataclass
class Table:
    """One person at the terminal answering `side`'s decisions of `game` (the loop of `play` and
    `resume --as`, with its input and output given, so that it can run without a terminal too)."""

    game: Game
    side: str
    policy: str
    save_to: Path
    recorder: Recorder | None = None
    record_to: Path | None = None
    ask: Callable[[str], str] = input
    say: Callable[[str], None] = _say

    def play(self) -> int:
        """Play to the end (or until the person stops); returns the exit status."""
        from ecs_zombie.decisions import PolicyTable
        from ecs_zombie.stepper import Stepper

        game = self.game
        stepper = Stepper(game, auto=PolicyTable(self.policy), sides={self.side}, resumable=True)
        cursor = 0
        try:
            while stepper.pending is not None:
                decision = stepper.pending
                cursor = self._news(cursor)
                index = self._ask(decision)
                stepper.answer(index)
        except _Stop as stop:
            return stop.code
        self._news(cursor)
        self._ending()
        return 0

    # -- what is shown ---------------------------------------------------------------------------------

    def _news(self, cursor: int) -> int:
        """Print what happened since `cursor` in the event log (rolls, draws, the other sides'
        choices); returns the new cursor."""
        from ecs_zombie.reading import Reading

        events = self.game.events[cursor:]
        for line in Reading(self.game).events(events, skip_side=self.side):
            self.say(f"  {line}")
        return len(self.game.events)

    def _show(self, decision: Decision) -> list[str]:
        """Print the board, what is decided and the numbered options; returns the options read."""
        from ecs_zombie.decisions import KINDS
        from ecs_zombie.reading import Reading

        game = self.game
        reading = Reading(game, decision)
        metrics = ", ".join(f"{k} {v}" for k, v in game.metrics().items())
        self.say("")
        self.say(f"== {game.ruleset.name}, {game.ruleset.tick_name} {game.tick}" + (f" ({metrics})" if metrics else "")
                 + " ==")
        for line in reading.board():
            self.say(f"  {line}")
        info = KINDS.get(decision.kind)
        self.say(f"{decision.side} decides ({decision.kind}): {info.doc if info else 'no description'}")
        for line in reading.context():
            self.say(f"  {line}")
        texts = [reading.option(o) for o in decision.options]
        width = len(str(len(texts)))
        for n, text in enumerate(texts, 1):
            self.say(f"  {str(n).rjust(width)}. {text}")
        return texts

    def _help(self, decision: Decision) -> None:
        from ecs_zombie.decisions import KINDS, heuristic_for

        info = KINDS.get(decision.kind)
        self.say(f"{decision.kind}, asked of {decision.side}.")
        if info is not None:
            self.say(f"  what it decides: {info.doc}")
            self.say(f"  its options: {info.options}")
        fn = heuristic_for(decision.kind)
        if fn is not None:
            self.say(f"  the heuristic policy would answer {fn(self.game, decision) + 1}")
        self.say(f"  type an option's number (1-{len(decision.options)}) and Enter; b shows the board and the "
                 "options again")
        self.say(f"  s saves the game here and quits ({self.save_to}; ecs-zombie resume {self.save_to} --as "
                 f"{self.side} asks you again)")
        self.say("  q quits without saving")

    # -- what is asked ---------------------------------------------------------------------------------

    def _ask(self, decision: Decision) -> int:
        """The option index the person chooses (asked again until it is one)."""
        count = len(decision.options)
        self._show(decision)
        prompt = f"{decision.side}: choose 1-{count} {PROMPT_TAIL}"
        while True:
            try:
                text = self.ask(prompt).strip().lower()
            except EOFError:
                self.say("")
                self.say("end of input: the game stops here, not saved (s saves a game to resume it)")
                raise _Stop(EXIT_EOF) from None
            except KeyboardInterrupt:
                self.say("")
                self.say("interrupted: the game stops here, not saved (s saves a game to resume it)")
                raise _Stop(EXIT_INTERRUPTED) from None
            if text in ("?", "h", "help"):
                self._help(decision)
            elif text in ("b", "board"):
                self._show(decision)
            elif text in ("s", "save"):
                if self._save():
                    raise _Stop(0)
            elif text in ("q", "quit"):
                self.say("quit: the game was not saved")
                raise _Stop(0)
            elif text.isascii() and text.isdigit() and 1 <= int(text) <= count:
                return int(text) - 1
            elif not text:
                continue
            else:
                self.say(f"{text!r} is not an answer: type a number from 1 to {count}, ? for help, s to save "
                         "and quit, q to quit")

    def _save(self) -> bool:
        """Save at the pending decision; a save that fails (a folder not writable) is said in one
        line and the question asked again, so the game is not lost."""
        from ecs_zombie import snapshot
        from ecs_zombie.errors import GameError

        try:
            snapshot.save(self.game, self.save_to)
        except GameError as exc:
            self.say(f"error: {exc} (the game goes on: answer, or q to quit)")
            return False
        self.say(f"wrote snapshot: {self.save_to}")
        if self.recorder is not None:
            self.say("no replay written: a replay holds a whole game (resume with --record to record the rest)")
        self.say(f"resume with: ecs-zombie resume {self.save_to} --as {self.side}")
        return True

    def _ending(self) -> None:
        game = self.game
        self.say("")
        if game.over:
            self.say(f"outcome: {game.outcome} after {game.tick} {game.ruleset.tick_name}s")
        for key, value in game.metrics().items():
            self.say(f"  {key}: {value}")


def _check_side(side: str, game: Game) -> None:
    """`--as` names a side the ruleset's decisions are asked of, within the game's seats."""
    from ecs_zombie.arguments import check_policy_sides, check_text
    from ecs_zombie.errors import GameError

    check_text(side, "--as")
    if not side or "=" in side or "," in side:
        raise GameError(f"--as takes one side (player:0, narrator, ...), got {side!r}")
    try:
        check_policy_sides(f"{side}=heuristic", game.ruleset, game.players)
    except GameError as exc:
        raise GameError(str(exc).replace("--policy", "--as")) from None


def _finish(table: Table) -> int:
    """Play the table's game; write its replay when it ended; the exit status."""
    from ecs_zombie.snapshot import write_atomic

    try:
        code = table.play()
    except KeyboardInterrupt:  # between two questions (a policy thinking)
        err.print("interrupted: the game stops here, not saved")
        return EXIT_INTERRUPTED
    record = table.record_to
    if code == 0 and table.game.over and table.recorder is not None and record is not None:
        write_atomic(record, table.recorder.to_bytes(table.game))
        wrote(record, "replay")
    return code


def play(
    target: TargetArg,
    as_side: AsOpt = "player:0",
    seed: Annotated[int, typer.Option(help="Master seed: every random stream of the game derives from it.")] = 1,
    players: PlayersOpt = None,
    policy: PolicyOpt = "heuristic",
    record: PlayRecordOpt = None,
    save: PlaySaveOpt = None,
) -> None:
    """Play a game at the terminal: you answer one side's decisions (type an option's number; ? for
    help, s to save and quit, q to quit), the policy answers the others. `ecs-zombie resume SAVE --as
    SIDE` continues a saved game."""
    from ecs_zombie import session
    from ecs_zombie.arguments import check_policy_sides, check_seed, check_text
    from ecs_zombie.game import new_game
    from ecs_zombie.replay import Recorder

    def body() -> Table:
        check_seed(seed)
        save_to = session.output_path(save or f"play-{Path(target).stem}-{seed}.msgpack")
        record_to = session.output_path(record) if record is not None else None
        game = new_game(check_text(target, "the ruleset or scenario"), seed, players=players, policy=policy)
        try:
            check_policy_sides(policy, game.ruleset, game.players)
            _check_side(as_side, game)
        except Exception:
            game.close()
            raise
        recorder = Recorder(game) if record_to is not None else None
        return Table(game, as_side, policy, save_to, recorder, record_to)

    table = guarded(body)
    code = guarded(lambda: _finish(table))
    table.game.close()
    if code:
        raise typer.Exit(code)


def resume_at_table(save_file: str, as_side: str, policy: str | None, save: str | None, record: str | None) -> None:
    """`resume SAVE --as SIDE`: load the save (at its pending decision, when it was saved at one) and
    ask the person again; the policy answers the other sides (the save's own unless `policy`)."""
    from ecs_zombie import session, snapshot
    from ecs_zombie.arguments import check_policy_sides
    from ecs_zombie.decisions import PolicyTable

    def body() -> Table:
        save_to = session.output_path(save) if save is not None else Path(save_file)
        record_to = session.output_path(record) if record is not None else None
        game = snapshot.load(Path(save_file))
        try:
            if game.over:
                from ecs_zombie.errors import GameError

                raise GameError(f"{save_file}: this game is already over ({game.outcome})")
            spec = policy or game.policy_spec
            PolicyTable(spec)
            check_policy_sides(spec, game.ruleset, game.players)
            _check_side(as_side, game)
            recorder = None
            if record_to is not None:
                game, recorder = _recording_from_tick_start(game)
        except Exception:
            game.close()
            raise
        return Table(game, as_side, spec, save_to, recorder, record_to)

    table = guarded(body)
    code = guarded(lambda: _finish(table))
    table.game.close()
    if code:
        raise typer.Exit(code)


def _recording_from_tick_start(game: Game) -> tuple[Game, Recorder]:
    """A game loaded at a pending decision, re-run from its tick's start with a recorder attached
    first, so that the replay holds a whole tick (a replay begins between two ticks)."""
    from ecs_zombie.replay import Recorder

    if not game.in_tick or game.tick_start is None:
        return game, Recorder(game)
    start = game.tick_start.copy()
    start.keep_tick_start = True
    recorder = Recorder(start)
    start.resume_tick(game.answers_this_tick())
    start.rng.set_state(game.rng.get_state(policy=True))
    game.close()
    return start, recorder


__all__ = ["Table", "play", "resume_at_table"]
