"""Rewrite the generated part of docs/rl.md (observation layouts and action spaces per ruleset)
from the declarations: `python docs/gen_rl.py` (`--check` exits 1 when the page is out of date)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ecs_zombie  # noqa: E402,F401  (mounts the shipped systems)
from ecs_zombie.env.reference import generated, splice  # noqa: E402


def main() -> int:
    page = ROOT / "docs" / "rl.md"
    text = page.read_text(encoding="utf-8")
    new = splice(text, generated())
    if "--check" in sys.argv[1:]:
        if new != text:
            print("docs/rl.md is out of date: run python docs/gen_rl.py")
            return 1
        return 0
    page.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
