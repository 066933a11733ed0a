"""Writing batch rows as they arrive: JSON lines or CSV, chosen by the file's extension.

Each chunk of rows is flushed as it is written, so an interrupted batch leaves a valid file
holding every game finished so far.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import IO, Any

from ecs_zombie.errors import GameError

FORMATS = (".jsonl", ".csv")


class RowWriter:
    """Streams rows to `path` (`.jsonl` or `.csv`); the CSV header is fixed from `columns`."""

    def __init__(self, path: Path, columns: list[str]) -> None:
        self.path = path
        self.columns = columns
        suffix = path.suffix.lower()
        if suffix not in FORMATS:
            raise GameError(f"{path}: output must end in {' or '.join(FORMATS)}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fh: IO[str] = path.open("w", newline="", encoding="utf-8")
        except OSError as exc:
            raise GameError(f"{path}: cannot write ({exc.strerror})") from None
        self._csv: Any = None
        if suffix == ".csv":
            self._csv = csv.DictWriter(self._fh, fieldnames=columns, extrasaction="ignore")
            self._csv.writeheader()

    def write(self, rows: list[dict[str, Any]]) -> None:
        if self._csv is not None:
            self._csv.writerows(rows)
        else:
            self._fh.writelines(json.dumps(row, sort_keys=True) + "\n" for row in rows)
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()
