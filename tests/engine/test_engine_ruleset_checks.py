"""Loading a ruleset checks its schedule as a scheduler should and reports every problem, each with
its file, line and field (ecs_zombie/ruleset.py): systems' parameters against their signatures,
steps called and mapped, components read and provided, parameters declared and used, and the
Python packages that hold the systems. The rulesets here are small and live in one folder beside
their own systems module (`minisys.py`), as a user's or a plugin's would."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ecs_zombie.errors import DataError, DataErrors
from ecs_zombie.ruleset import Parameter, _ref_mismatch, _split, changed_files, load_ruleset, ref_of, resolve_ref

MINISYS = '''
from ecs_zombie.registry import metrics
from ecs_zombie.schedule import system


@metrics("mini.metrics")
def numbers(game):
    return {"ticks": game.tick}


@system("mini.caller", calls={"strike": ("zone",)})
def caller(game, rounds: int):
    yield from game.run_step("strike", {"zone": "front"})


@system("mini.strike")
def strike(game, zone: str, power: int = 1):
    game.log("strike", zone=zone, power=power)


@system("mini.pusher", calls={"strike": ("zone", "speed")})
def pusher(game):
    pass


@system("mini.bare", calls=["strike"])
def bare(game):
    pass


@system("mini.chain", step_params=("then",))
def chain(game, then: str = "strike"):
    pass


@system("mini.ghost", reads=("Nonesuch",), writes=("Wounds",))
def ghost(game):
    pass


@system("mini.reader", reads=("Facing",))
def reader(game):
    pass


@system("mini.user", uses=("speed",))
def user(game):
    pass


@system("mini.rate")
def rate(game, share: float = 0.5, label: str = "x"):
    pass
'''

HEAD = """\
id: mini
name: Mini
tick: turn
max_ticks: 3
packages: [minisys]
prefabs: [shambling/figures.yaml]
metrics: mini.metrics
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for every ruleset here: its systems module may be imported from one folder only."""
    path = tmp_path_factory.mktemp("mini")
    (path / "minisys.py").write_text(MINISYS)
    (path / "brokensys.py").write_text("raise RuntimeError('boom')\n")
    (path / "needsys.py").write_text("import zzz_not_installed\n")
    return path


def ruleset(folder: Path, body: str, name: str = "r") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(HEAD + textwrap.dedent(body))
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        load_ruleset(str(path))
    return str(info.value).splitlines()


GOOD = """\
parameters:
  rounds: {type: int, default: 2, min: 1, max: 5}
phases:
  - name: main
    systems:
      - {system: mini.caller, params: {rounds: $rounds}}
steps:
  strike: mini.strike
"""


def test_a_good_small_ruleset_loads_and_plays(folder: Path) -> None:
    from ecs_zombie.components import Kind, Zone
    from ecs_zombie.game import Game

    rs = load_ruleset(str(ruleset(folder, GOOD, "good")))
    assert rs.id == "mini" and [s.label for _p, ss in rs.phases for s in ss] == ["mini.caller"]
    assert rs.steps["strike"].spec.name == "mini.strike" and rs.packages == ("minisys",)
    game = Game(rs, 1, rs.params_with({}, "x"), 1, "none")
    game.world.create(Kind("x"), Zone(0, "front"))
    game.play(stop_after=1)
    assert [e for e in game.events if e[1] == "strike"] == [(1, "strike", {"zone": "front", "power": 1},
                                                             "mini.caller/strike")]
    game.close()


@pytest.mark.parametrize(("body", "message"), [
    (GOOD.replace("{system: mini.caller, params: {rounds: $rounds}}",
                  "{system: mini.caller, lable: x, params: {rounds: $rounds}}"),
     "unknown key 'lable' (did you mean 'label'?)"),
    (GOOD.replace("strike: mini.strike", "strike: {system: mini.strike, label: hit}"),
     "steps.strike.label: a step is labelled by its name under steps:"),
    (GOOD.replace("{system: mini.caller, params: {rounds: $rounds}}", "[mini.caller]"),
     "phases[0].systems[0]: expected a system name or {system: NAME, params: {...}}"),
    (GOOD.replace("rounds: {type: int, default: 2, min: 1, max: 5}", "rounds: {type: str, default: a}"),
     "$rounds is a str parameter; mini.caller takes rounds: int"),
    (GOOD.replace("params: {rounds: $rounds}", "params: {rounds: many}"),
     "mini.caller parameter rounds: expected int, got str 'many'"),
    (GOOD.replace("params: {rounds: $rounds}", "params: {rounds: 2, speed: 3}"),
     "system 'mini.caller' takes no parameter 'speed' (it takes: rounds)"),
    (GOOD.replace("{system: mini.caller, params: {rounds: $rounds}}", "mini.caller"),
     "system 'mini.caller' needs a value for rounds"),
    (GOOD.replace("steps:\n  strike: mini.strike\n", ""),
     "step 'strike' (called by mini.caller) is not mapped under steps: (mapped: none)"),
    (GOOD.replace("strike: mini.strike", "strike: {system: mini.strike, params: {zone: back}}"),
     "step 'strike' (called by mini.caller) is passed zone, which steps.strike also sets"),
])
def test_schedule_errors(folder: Path, body: str, message: str) -> None:
    lines = errors_of(ruleset(folder, body))
    assert any(message in line for line in lines), lines
    assert all(line.startswith(str(folder)) or "r.yaml" in line or line.startswith("system") or
               line.startswith("step") for line in lines), lines


def test_an_unknown_metrics_function(folder: Path) -> None:
    path = ruleset(folder, GOOD)
    path.write_text(path.read_text().replace("metrics: mini.metrics", "metrics: nosuch.metrics"))
    assert any("metrics: unknown metrics function 'nosuch.metrics'" in line for line in errors_of(path))


@pytest.mark.parametrize(("line", "message"), [
    ("hidden: nosuch", "hidden: unknown determinizer 'nosuch' (known: "),
    ("board: nosuch", "board: unknown board drawing 'nosuch' (known: "),
    ("attached: [Wounds, Nonesuch, 3]", "attached[1]: attached: 'Nonesuch' is not a registered component"),
])
def test_an_unknown_determinizer_drawing_or_attached_component(folder: Path, line: str, message: str) -> None:
    """A ruleset's `hidden:`, `board:` and `attached:` name registered things; each unknown one is an
    error naming the file, the line and the field, and every such error is reported at once."""
    path = ruleset(folder, GOOD)
    path.write_text(path.read_text().replace("metrics: mini.metrics", f"metrics: mini.metrics\n{line}"))
    errors = errors_of(path)
    assert any(message in e and "r.yaml:" in e for e in errors), errors
    if line.startswith("attached"):
        assert any("attached[2]: attached: 3 is not a registered component" in e for e in errors), errors


@pytest.mark.parametrize(("system", "message"), [
    ("mini.pusher", "step 'strike' (called by mini.pusher) is passed speed, which mini.strike does not take"),
    ("mini.bare", "step 'strike' (called by mini.bare) runs mini.strike without a value for zone "
                  "(set it under steps.strike.params)"),
    ("mini.ghost", "system 'mini.ghost' declares unknown components Nonesuch"),
    ("mini.reader", "system 'mini.reader' reads Facing, which no prefab or system of this ruleset provides"),
    ("mini.user", "system 'mini.user' uses the ruleset parameter 'speed', which this ruleset does not declare"),
])
def test_what_a_system_declares_is_checked(folder: Path, system: str, message: str) -> None:
    body = GOOD.replace("      - {system: mini.caller, params: {rounds: $rounds}}",
                        f"      - {{system: mini.caller, params: {{rounds: $rounds}}}}\n      - {system}")
    lines = errors_of(ruleset(folder, body))
    assert any(message in line for line in lines), lines
    assert any(":" in line.split(" ")[0] for line in lines if message in line)  # it names where


def test_a_step_named_by_a_parameter_must_be_mapped(folder: Path) -> None:
    body = GOOD.replace("      - {system: mini.caller, params: {rounds: $rounds}}",
                        "      - {system: mini.caller, params: {rounds: $rounds}}\n"
                        "      - {system: mini.chain, params: {then: [strike, dodge]}}")
    lines = errors_of(ruleset(folder, body))
    assert any("step 'dodge' (named by mini.chain.then) is not mapped under steps: (mapped: strike)" in line
               for line in lines), lines
    # a step named this way gets no parameters from its caller: strike's zone must be set under steps:
    assert any("step 'strike' (named by mini.chain.then) runs mini.strike without a value for zone" in line
               for line in lines), lines


def test_every_problem_is_reported_at_once(folder: Path) -> None:
    path = ruleset(folder, GOOD.replace("params: {rounds: $rounds}", "params: {rounds: many}"))
    path.write_text(path.read_text().replace("metrics: mini.metrics", "metrics: nosuch"))
    with pytest.raises(DataErrors) as info:
        load_ruleset(str(path))
    messages = [str(e) for e in info.value.errors]
    assert len(messages) == 3, messages  # the bad value, the now unused parameter, the metrics
    assert any("parameter 'rounds' is used by no system" in m for m in messages)
    assert str(info.value) == "\n".join(messages)


def test_parameters_are_declared_completely(folder: Path) -> None:
    for spec, message in [("{type: text, default: a}", "type must be one of ['bool', 'float', 'int', 'str']"),
                          ("{type: int, default: 2, maximum: 5}", "unknown key 'maximum' (did you mean 'max'?)"),
                          ("{type: int, default: 9, max: 5}", "parameters.rounds.default: parameter 'rounds' = 9 "
                                                              "is above its maximum 5"),
                          ("{type: int}", "missing field 'default'")]:
        body = GOOD.replace("{type: int, default: 2, min: 1, max: 5}", spec)
        assert any(message in line for line in errors_of(ruleset(folder, body))), spec


@pytest.mark.parametrize(("package", "message"), [
    ("brokensys", "package 'brokensys' failed to import: RuntimeError: boom"),
    ("needsys", "package 'needsys' failed to import: No module named 'zzz_not_installed'"),
    ("nosuchsys", "no systems package 'nosuchsys' (looked in the shipped rules, in "),
    ("nosuchsys.rules", "no systems package 'nosuchsys.rules' (looked in the shipped rules, in "),  # its parent
    ("3", "expected a module name"),
])
def test_packages_that_do_not_import(folder: Path, package: str, message: str) -> None:
    path = ruleset(folder, GOOD)
    path.write_text(path.read_text().replace("packages: [minisys]", f"packages: [minisys, {package}]"))
    lines = errors_of(path)
    assert any(message in line and "packages[1]" in line for line in lines), lines


def test_a_package_imported_from_another_folder_is_refused(folder: Path, tmp_path: Path) -> None:
    load_ruleset(str(ruleset(folder, GOOD, "first")))
    (tmp_path / "minisys.py").write_text("")
    other = tmp_path / "r.yaml"
    other.write_text(HEAD + GOOD)
    lines = errors_of(other)
    assert any("package 'minisys' is already imported from" in line and "the ruleset's folder has another" in line
               for line in lines), lines


def test_shipped_packages_by_short_name_and_local_files_found_first(folder: Path) -> None:
    (folder / "figures.yaml").write_text("hero:\n  Kind: {name: local-hero}\n")
    try:
        path = ruleset(folder, GOOD.replace("rounds: {type", "rounds: {type"), "local")
        path.write_text(path.read_text().replace("prefabs: [shambling/figures.yaml]", "prefabs: [figures.yaml]")
                        .replace("packages: [minisys]", "packages: [core, minisys]"))
        rs = load_ruleset(str(path))
        assert rs.prefabs["hero"].make()[0].name == "local-hero"
        assert rs.packages == ("core", "minisys")
    finally:
        (folder / "figures.yaml").unlink()


def test_references_to_files() -> None:
    from ecs_zombie._layout import PREFABS_DIR

    here = Path(__file__).parent
    assert resolve_ref("/abs/x.yaml", here) == Path("/abs/x.yaml")
    assert resolve_ref("shambling/crt.yaml", here) == PREFABS_DIR / "shambling" / "crt.yaml"
    assert resolve_ref("test_engine_ruleset_checks.py", here) == here / "test_engine_ruleset_checks.py"
    assert resolve_ref("nowhere.yaml", here) == here / "nowhere.yaml"
    assert ref_of(PREFABS_DIR / "shambling" / "crt.yaml", here) == "shambling/crt.yaml"
    assert ref_of(here / "x" / "y.yaml", here) == "x/y.yaml"
    assert ref_of(Path("/elsewhere/z.yaml"), here) == "/elsewhere/z.yaml"
    assert changed_files({"a": "1", "b": "2"}, {"b": "3", "c": "4"}) == ["a", "b", "c"]
    assert changed_files({"a": "1"}, {"a": "1"}) == []


def test_where_strings_split_back_and_parameter_kinds_fit_annotations() -> None:
    assert _split("r.yaml:12: phases[0]") == ("r.yaml", 12, "phases[0]")
    assert _split("C:/x/r.yaml:3: f") == ("C:/x/r.yaml", 3, "f")
    assert _split("phases[0]") == (None, None, "phases[0]")
    assert _split("r.yaml:x: f") == (None, None, "r.yaml:x: f")
    count, share, flag, word = (Parameter("n", "int", 1), Parameter("f", "float", 0.5), Parameter("b", "bool", True),
                                Parameter("s", "str", "a"))
    assert not _ref_mismatch("", word)
    assert not _ref_mismatch("int", count) and not _ref_mismatch("float", count)  # an int parameter fits float
    assert _ref_mismatch("int", share) and _ref_mismatch("int", word) and _ref_mismatch("str", count)
    assert not _ref_mismatch("float", share) and not _ref_mismatch("bool", flag) and _ref_mismatch("int", flag)


def test_loading_a_ruleset_leaves_the_import_path_as_it_was(folder: Path) -> None:
    import sys

    before = list(sys.path)
    load_ruleset(str(ruleset(folder, GOOD, "pathcheck")))
    assert sys.path == before and str(folder) not in sys.path
