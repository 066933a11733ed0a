"""The conventions a user of Python command-line tools expects (README, "Command line"): every
`--json` output is strict JSON; `--version`, shell completion and `python -m ecs_zombie`; closed sets
as choices and help on every option; `--out` (alias `--out-file`, `-` for standard output); every
file written named; tables read in full in a pipe and in a narrow terminal."""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from ecs_zombie import __version__
from ecs_zombie.cli import app
from ecs_zombie.commands import output
from ecs_zombie.ruleset import list_rulesets
from tests.helpers import ROOT, run_cli


def strict(text: str) -> Any:
    """json.loads that refuses NaN and the infinities (Python's own parser accepts them)."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A save mid-game, two replays of different seeds."""
    d = tmp_path_factory.mktemp("runs")
    made = {"part": d / "part.msgpack", "a": d / "a.replay", "b": d / "b.replay"}
    assert invoke("run", "shambling", "--seed", "7", "--stop-after", "2", "--save", str(made["part"])).exit_code == 0
    assert invoke("run", "shambling", "--seed", "7", "--record", str(made["a"])).exit_code == 0
    assert invoke("run", "shambling", "--seed", "8", "--record", str(made["b"])).exit_code == 0
    return made


JSON_COMMANDS: list[tuple[str, list[str], int]] = [
    *[("run", ["run", rid, "--seed", "3", "--json"], 0) for rid, _ in list_rulesets()],
    ("run", ["run", "shambling", "--seed", "3", "--stop-after", "1", "--json"], 0),
    ("resume", ["resume", "{part}", "--json"], 0),
    ("replay", ["replay", "{a}", "--json"], 0),
    ("replay", ["replay", "{a}", "--verify", "--show", "--json"], 0),
    ("inspect", ["inspect", "{part}", "--json"], 0),
    ("inspect", ["inspect", "{a}", "--tick", "1", "--json"], 0),
    ("events", ["events", "{a}", "--tick", "1", "--json"], 0),
    ("diff", ["diff", "{a}", "{b}", "--json"], 1),
    ("diff", ["diff", "{a}", "{a}", "--json"], 0),
    ("batch", ["batch", "shambling", "--games", "12", "--json"], 0),
    ("sweep", ["sweep", "shambling", "--param", "front_line_cap=5..6", "--games", "6", "--json"], 0),
    ("tournament", ["tournament", "shambling", "--policies", "heuristic,random", "--games", "4", "--json"], 0),
    ("tune", ["tune", "shambling", "--param", "front_line_cap", "--target", "0.1", "--games", "6",
              "--max-games", "6", "--json"], 0),
    ("validate", ["validate", "--json"], 0),
    ("validate", ["validate", "no/such.yaml", "--json"], 2),
    ("rulesets", ["rulesets", "--json"], 0),
    ("rulesets", ["rulesets", "--params", "director", "--json"], 0),
    ("systems", ["systems", "shambling", "--json"], 0),
    ("schedule", ["schedule", "stalingrad", "--json"], 0),
    ("decisions", ["decisions", "sza", "--json"], 0),
    ("character create", ["character", "create", "--class", "convict", "--seed", "2", "--json"], 0),
]


def leaf_commands(group: Any, prefix: str = "") -> dict[str, Any]:
    """Every command under `group` (typer's own click: groups are told by their sub-commands)."""
    found: dict[str, Any] = {}
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):
            found.update(leaf_commands(cmd, f"{prefix}{name} "))
        else:
            found[f"{prefix}{name}"] = cmd
    return found


COMMANDS = leaf_commands(typer.main.get_command(app))


# Commands with nothing to print for a program: `view` is an interactive terminal viewer.
INTERACTIVE = {"view", "play"}


def test_every_command_has_json_and_is_checked_below() -> None:
    """A new command without --json, or without a case in JSON_COMMANDS, fails here."""
    for name, cmd in COMMANDS.items():
        has_json = any("--json" in p.opts for p in cmd.params)
        assert has_json != (name in INTERACTIVE), f"{name}: --json {'missing' if not has_json else 'unexpected'}"
    assert set(COMMANDS) - INTERACTIVE == {name for name, _, _ in JSON_COMMANDS}


@pytest.mark.parametrize(("name", "args", "status"), JSON_COMMANDS,
                         ids=[" ".join(a[:2]) + f"-{i}" for i, (_, a, _) in enumerate(JSON_COMMANDS)])
def test_every_json_output_is_strict_json(runs: dict[str, Path], name: str, args: list[str], status: int) -> None:
    result = invoke(*[a.format(**runs) for a in args])
    assert result.exit_code == status, result.output
    lines = result.stdout.splitlines()
    if name == "events":  # JSON lines: one object per event
        assert len(lines) > 3 and all(isinstance(strict(line), dict) for line in lines)
    else:
        assert len(lines) == 1, result.stdout
        strict(lines[0])


def test_non_finite_numbers_become_null() -> None:
    buffer = io.StringIO()
    real, sys.stdout = sys.stdout, buffer
    try:
        output.emit_json({"a": float("nan"), "b": [float("inf"), -float("inf"), 1.5], "c": {2: float("nan")}})
    finally:
        sys.stdout = real
    assert strict(buffer.getvalue()) == {"a": None, "b": [None, None, 1.5], "c": {"2": None}}


def test_a_sweeps_totals_are_every_values_games(tmp_path: Path) -> None:
    """The top level of `sweep --json` sums every value's games: counts, turns and each metric are
    those of all the rows (computed here with the standard library)."""
    rows_file = tmp_path / "s.jsonl"
    result = invoke("sweep", "shambling", "--param", "front_line_cap=4..6", "--games", "30", "--seed", "3",
                    "--out", str(rows_file), "--json")
    assert result.exit_code == 0, result.output
    summary = strict(result.stdout)
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
    assert summary["games"] == len(rows) == 90 and summary["failed"] == 0
    assert {k: v["count"] for k, v in summary["outcomes"].items()} == dict(Counter(r["outcome"] for r in rows))
    turns = [r["turns"] for r in rows]
    assert summary["turns"]["mean"] == pytest.approx(statistics.mean(turns))
    assert summary["turns"]["median"] == statistics.median(turns)
    assert set(summary["metrics"]) >= {"survivors_left", "heroes_left", "zombies_destroyed"}
    for name, m in summary["metrics"].items():
        values = [r[name] for r in rows]
        assert m["n"] == 90 and m["mean"] == pytest.approx(statistics.mean(values))
        assert (m["min"], m["max"]) == (min(values), max(values))
        assert min(values) <= m["ci95"][0] <= m["mean"] <= m["ci95"][1] <= max(values)
    assert [p["games"] for p in summary["sweep"]] == [30, 30, 30] and summary["swept"] == "front_line_cap"


def test_validate_json_lists_what_it_checked() -> None:
    summary = strict(invoke("validate", "--json").stdout)
    assert summary["ok"] is True
    # paths as the user would type them from here: relative to the working folder when inside it
    by_path = {c["path"].rpartition("ecs_zombie/")[2] if "site-packages" in c["path"] else c["path"]: c
               for c in summary["checked"]}
    shambling = by_path["prefabs/rulesets/shambling.yaml"]
    assert (shambling["kind"], shambling["id"]) == ("ruleset", "shambling")
    assert shambling["default_scenario"].endswith("prefabs/scenarios/shambling.yaml")
    bungalow = by_path["prefabs/scenarios/sza/bungalow.yaml"]
    assert (bungalow["kind"], bungalow["ruleset"]) == ("scenario", "sza")
    bad = invoke("validate", "no/such.yaml", "--json")
    assert strict(bad.stdout) == {"ok": False, "error": "no/such.yaml: no such file", "checked": []}


# -- the command itself -------------------------------------------------------------------------


def test_version_and_python_dash_m() -> None:
    result = run_cli("--version")  # run_cli runs `python -m ecs_zombie`
    assert result.returncode == 0 and result.stdout == f"ecs-zombie {__version__}\n"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'path = "ecs_zombie/version.py"' in pyproject and 'dynamic = ["version"]' in pyproject


def test_every_option_and_argument_has_help() -> None:
    for name, cmd in COMMANDS.items():
        assert cmd.help, name
        for param in cmd.params:
            if param.name == "help":
                continue
            assert getattr(param, "help", None), f"{name}: {param.opts} has no help"


def test_closed_sets_are_choices_shown_in_help() -> None:
    batch_help = invoke("batch", "--help").stdout
    assert "--backend <local|dask>" in batch_help and "--format <jsonl|csv>" in batch_help
    assert "--out, --out-file FILE" in batch_help
    assert invoke("batch", "shambling", "--backend", "ray").exit_code == 2
    create_help = invoke("character", "create", "--help").stdout
    assert "<firefighter|soldier|convict|politician|paramedic>" in create_help


def test_the_character_classes_offered_are_the_rules_classes() -> None:
    from typing import get_args

    from ecs_zombie.commands.characters import SzaClass
    from ecs_zombie.ruleset import load_ruleset

    assert sorted(get_args(SzaClass)) == sorted(load_ruleset("sza").tables["sza.rules"].classes)


def complete(words: str) -> list[str]:
    env = dict(os.environ, _ECS_ZOMBIE_COMPLETE="complete_bash", COMP_WORDS=words,
               COMP_CWORD=str(len(words.split()) - (0 if words.endswith(" ") else 1)))
    command = [sys.executable, "-m", "ecs_zombie"]
    if os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):  # the installed command, as run_cli runs it
        env.pop("PYTHONPATH", None)
        command.insert(1, "-P")
    else:
        env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_shell_completion(tmp_path: Path) -> None:
    assert complete("ecs-zombie ru") == ["run", "rulesets"]
    assert complete("ecs-zombie run stal") == ["stalingrad", "stalingrad-paced", "stalingrad-shambling"]
    assert complete("ecs-zombie batch shambling --policy random,narrator=h") == ["random,narrator=heuristic"]
    assert complete("ecs-zombie batch shambling --backend ") == ["local", "dask"]
    home = tmp_path / "home"
    home.mkdir()
    # typer's own switch for tests: the shell is the one named, not the one shellingham finds above
    # this process (none when the suite runs detached from a shell).
    installed = run_cli("--install-completion", "bash", env={"HOME": str(home), "SHELL": "/bin/bash",
                                                             "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert installed.returncode == 0, installed.stdout + installed.stderr
    script = home / ".bash_completions" / "ecs-zombie.sh"
    assert "_ECS_ZOMBIE_COMPLETE=complete_bash" in script.read_text()
    assert str(script) in (home / ".bashrc").read_text()


# -- files written and standard output ---------------------------------------------------------


def test_rows_to_standard_output_and_the_summary_to_standard_error(tmp_path: Path) -> None:
    result = run_cli("batch", "shambling", "--games", "9", "--seed", "4", "--out", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = [strict(line) for line in result.stdout.splitlines()]
    assert [r["game"] for r in rows] == list(range(9))
    assert "shambling, 9 games, seed 4" in result.stderr and "95% CI (Wilson)" in result.stderr
    assert "wrote" not in result.stderr and not (tmp_path / "saves").exists()
    as_csv = run_cli("batch", "shambling", "--games", "3", "--out", "-", "--format", "csv", cwd=tmp_path)
    assert as_csv.stdout.splitlines()[0].startswith("game,seed,outcome,turns") and len(as_csv.stdout.splitlines()) == 4
    both = run_cli("batch", "shambling", "--games", "3", "--out", "-", "--json", cwd=tmp_path)
    assert both.returncode == 2 and both.stdout == ""
    assert both.stderr == "error: --json and --out - both write to standard output: give --out a file\n"
    clash = run_cli("batch", "shambling", "--games", "3", "--out", "r.csv", "--format", "jsonl", cwd=tmp_path)
    assert clash.returncode == 2 and "output must end in .jsonl or .csv (--format jsonl: .jsonl)" in clash.stderr


def test_every_file_written_is_named(tmp_path: Path) -> None:
    """A bare name goes into saves/ of the working folder: the command says so, file by file."""
    pytest.importorskip("matplotlib")
    ran = run_cli("run", "shambling", "--seed", "2", "--stop-after", "1", "--save", "p.msgpack",
                  "--record", "p.replay", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[-2:] == ["wrote snapshot: saves/p.msgpack", "wrote replay: saves/p.replay"]
    resumed = run_cli("resume", "saves/p.msgpack", "--save", "end.msgpack", "--json", cwd=tmp_path)
    assert strict(resumed.stdout)["wrote"] == {"snapshot": "saves/end.msgpack"}
    batch = run_cli("batch", "shambling", "--games", "4", "--out-file", "b.csv", "--plot", "b.svg", cwd=tmp_path)
    assert batch.stdout.splitlines()[-2:] == ["wrote rows: saves/b.csv", "wrote plot: saves/b.svg"]
    sweep = run_cli("sweep", "shambling", "--param", "combat_rounds=1..2", "--games", "3", "--out", "s.jsonl",
                    "--plot", "s.pdf", "--json", cwd=tmp_path)
    assert strict(sweep.stdout)["wrote"] == {"rows": "saves/s.jsonl", "plot": "saves/s.pdf"}
    sheet = run_cli("character", "create", "--class", "soldier", "--save", "lee.yaml", cwd=tmp_path)
    assert sheet.stdout.splitlines()[-1] == "wrote prefab: saves/lee.yaml"
    for name in ("p.msgpack", "p.replay", "end.msgpack", "b.csv", "b.svg", "s.jsonl", "s.pdf", "lee.yaml"):
        assert (tmp_path / "saves" / name).stat().st_size > 0, name
    assert (tmp_path / "saves" / "b.svg").read_bytes().startswith(b"<?xml")
    assert (tmp_path / "saves" / "s.pdf").read_bytes().startswith(b"%PDF")
    refused = run_cli("batch", "shambling", "--games", "4", "--plot", "b.jpg", cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr == (
        "error: saves/b.jpg: --plot writes .png, .svg, .pdf files (chosen by the suffix)\n")


# -- tables ---------------------------------------------------------------------------------------


def test_tables_in_a_pipe_are_never_cut() -> None:
    """run's per-turn table names every metric in full (it was cut to six columns, and to 80
    characters, so two columns both read "survivor…")."""
    result = run_cli("run", "shambling", "--seed", "3")
    header = result.stdout.splitlines()[1].split()
    assert header == ["turn", "survivors_left", "heroes_left", "zombies_destroyed", "zombies_on_boards",
                      "boards_standing", "survivors_killed", "survivors_fled", "survivors_pursued",
                      "survivors_turned", "survivors_shot"]
    assert "…" not in result.stdout


def narrow(width: int = 60) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=True, width=width, color_system=None, highlight=False), buffer


COLUMNS = ["turn", "survivors_left", "heroes_left", "zombies_destroyed", "zombies_on_boards", "boards_standing"]


def test_a_wide_table_in_a_narrow_terminal_turns_on_its_side_or_becomes_blocks() -> None:
    rows = [[t, 10 - t, 1, 2 * t, 3 * t, 1] for t in range(1, 5)]
    console, buffer = narrow()
    output.table(COLUMNS, rows, title="per turn", console=console, transpose=True)
    text = buffer.getvalue()
    assert all(len(line) <= 60 for line in text.splitlines()) and "…" not in text
    lines = text.splitlines()
    assert lines[0].strip() == "per turn"
    assert [c.strip() for c in lines[2].strip("┃").split("┃")] == ["turn", "1", "2", "3", "4"]
    assert [c.strip() for c in lines[4].strip("│").split("│")] == ["survivors_left", "9", "8", "7", "6"]
    console, buffer = narrow()
    output.table(COLUMNS, [[t, 10 - t, 1, 2 * t, 3 * t, 1] for t in range(1, 15)], console=console, transpose=True)
    blocks = buffer.getvalue().split("\n\n")
    assert len(blocks) == 14
    assert blocks[1].splitlines() == ["-[ turn 2 ]-", "survivors_left     8", "heroes_left        1",
                                      "zombies_destroyed  4", "zombies_on_boards  6", "boards_standing    1"]


def test_a_table_that_fits_is_a_table_with_words_wrapped_not_cut() -> None:
    console, buffer = narrow()
    description = "Survivors on a Front Line and a Support zone face a ten-turn narration track of zombie assaults"
    output.table(["ruleset", "from", "description"], [["stalingrad-shambling", "shipped", description]],
                 console=console)
    text = buffer.getvalue()
    assert "stalingrad-shambling" in text and "…" not in text
    words = " ".join(line.strip("│ ").split("│")[-1].strip() for line in text.splitlines()[3:-1])
    assert " ".join(words.split()) == description


def test_saves_and_replays_say_which_engine_and_format_made_them(runs: dict[str, Path]) -> None:
    """README, "What a save promises across versions"."""
    from ecs_zombie.state import FORMAT_VERSION

    assert FORMAT_VERSION == 2
    for path, tick in ((runs["part"], None), (runs["a"], "1"), (runs["a"], "0")):
        args = ["inspect", str(path), "--json"] + (["--tick", tick] if tick else [])
        shown = strict(invoke(*args).stdout)
        assert (shown["format"], shown["engine"]) == (2, __version__)
    text = invoke("inspect", str(runs["part"])).stdout.splitlines()[0]
    assert text == f"ruleset shambling, seed 7, tick 2, outcome None (format 2, made by ecs-zombie {__version__})"


def test_the_changelog_starts_with_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    versions = [line.split()[1] for line in changelog.splitlines() if line.startswith("## ")]
    assert versions[0] == __version__ and "0.1.0" in versions
    assert "save format 2" in changelog.lower()


def test_long_words_are_never_broken_when_they_fit() -> None:
    """An event's system path is one long word: rich alone folded it ("core.narration/gaun" then
    "tlet") to make room; the columns are sized so that every word stays whole."""
    console, buffer = narrow()
    output.table(["tick", "system", "kind", "data"],
                 [[1, "core.narration/gauntlet", "roll", "dice='1d6', values=[5], why='gauntlet (board 0)'"]],
                 console=console)
    lines = buffer.getvalue().splitlines()
    assert all(len(line) <= 60 for line in lines)
    cells = [[c.strip() for c in line.strip("│").split("│")] for line in lines[3:-1]]
    assert cells[0][:3] == ["1", "core.narration/gauntlet", "roll"]
    assert " ".join(row[3] for row in cells) == "dice='1d6', values=[5], why='gauntlet (board 0)'"


@pytest.mark.parametrize(("args", "status", "needle"), [
    (["run", "shambling", "--seed", "7"], 0, ""),
    (["run", "shambling", "--bogus"], 2, "error: No such option: --bogus"),
])
def test_the_command_needs_no_package_beyond_its_dependencies(args: list[str], status: int, needle: str) -> None:
    """`pip install .` brings typer, which carries its own click: click itself is not installed (the
    test extra's Dask brings it, which once hid an `import click` from the suite)."""
    code = ("import runpy, sys\nsys.modules['click'] = None  # as in a plain install\n"
            f"sys.argv = ['ecs-zombie', *{args!r}]\nrunpy.run_module('ecs_zombie', run_name='__main__')\n")
    env = dict(os.environ)
    if not os.environ.get("ECS_ZOMBIE_TEST_INSTALLED"):
        env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == status, result.stderr
    assert needle in result.stderr and "Traceback" not in result.stderr
