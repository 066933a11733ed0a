"""Errors a user can cause. Each renders as one line: the CLI prints it and exits with status 2."""

from __future__ import annotations


class GameError(Exception):
    """Base of every error caused by input (data, saves, scripts, arguments), never by a bug."""


class DataError(GameError):
    """A YAML file, a field in it, or a name it uses is wrong."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None, field: str | None = None):
        where = ""
        if file:
            where = f"{file}:{line}: " if line else f"{file}: "
        if field:
            where += f"{field}: "
        super().__init__(where + message)
        self.file, self.line, self.field = file, line, field


class DataErrors(DataError):
    """Several problems found in one go (loading reports them all): one line each."""

    def __init__(self, errors: list[DataError]) -> None:
        GameError.__init__(self, "\n".join(str(e) for e in errors))
        first = errors[0]
        self.file, self.line, self.field = first.file, first.line, first.field
        self.errors = list(errors)


class SaveError(GameError):
    """A save or replay file is truncated, corrupted, foreign or of a newer format."""


class ScriptError(GameError):
    """A dice or card script names something impossible."""


class DecisionError(GameError):
    """A decision answer is out of range or a scripted list of decisions ran out."""


def cause(exc: BaseException) -> str:
    """A failure inside a game's rules as one line, for a message that blames the input that led
    there: `KeyError: 'survivorx'` (the exception's text, whitespace folded, at most 200 characters)."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
