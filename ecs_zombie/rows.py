"""Writing batch rows as they arrive: JSON lines or CSV, chosen by the file's extension (or given,
for a stream such as standard output).

Each chunk of rows is flushed as it is written, so an interrupted batch leaves a valid file
holding every game finished so far. JSON lines are strict JSON: a non-finite number, at any depth, is null.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import IO, Any

from ecs_zombie.errors import GameError

FORMATS = (".jsonl", ".csv")


def strict_json(value: Any) -> Any:
    """`value` as strict JSON holds it: NaN and the infinities become null at any depth (JSON has
    neither), mapping keys become text. Rows, `--json` documents and JSON lines all go through it."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): strict_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strict_json(v) for v in value]
    return value


class RowWriter:
    """Streams rows to `target`, a path (`.jsonl` or `.csv`) or an open text stream (`fmt`
    "jsonl" or "csv"; never closed here); the CSV header is fixed from `columns`."""

    def __init__(self, target: Path | IO[str], columns: list[str], fmt: str | None = None) -> None:
        self.columns = columns
        self._own = isinstance(target, Path)
        if isinstance(target, Path):
            self.path: Path | None = target
            suffix = target.suffix.lower()
            if suffix not in FORMATS or (fmt is not None and suffix != f".{fmt}"):
                raise GameError(f"{target}: output must end in {' or '.join(FORMATS)}" +
                                (f" (--format {fmt}: .{fmt})" if fmt is not None else ""))
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                self._fh: IO[str] = target.open("w", newline="", encoding="utf-8")
            except OSError as exc:
                raise GameError(f"{target}: cannot write ({exc.strerror})") from None
        else:
            self.path, self._fh = None, target
            suffix = f".{fmt or 'jsonl'}"
            if suffix not in FORMATS:
                raise GameError(f"rows are written as {' or '.join(f[1:] for f in FORMATS)}, not {fmt!r}")
        self._csv: Any = None
        if suffix == ".csv":
            self._csv = csv.DictWriter(self._fh, fieldnames=columns, extrasaction="ignore")
            self._csv.writeheader()

    def write(self, rows: list[dict[str, Any]]) -> None:
        if self._csv is not None:
            self._csv.writerows(rows)
        else:
            self._fh.writelines(json.dumps(strict_json(row), sort_keys=True, allow_nan=False) + "\n" for row in rows)
        self._fh.flush()

    def close(self) -> None:
        if self._own:
            self._fh.close()
        else:
            self._fh.flush()
