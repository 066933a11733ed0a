"""What the CLI does, without the CLI: run, resume, replay, inspect and validate, as functions.

The CLI only parses arguments and prints; everything here returns data, so tests and scripts can
call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie import snapshot
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.arguments import check_policy_sides, check_seed, check_text
from ecs_zombie.catalog import catalog
from ecs_zombie.data import YMap, display_path, load_yaml
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import DataError, GameError, SaveError, cause
from ecs_zombie.game import Game, new_game
from ecs_zombie.prefabs import load_prefabs
from ecs_zombie.registry import TABLES
from ecs_zombie.replay import Recorder, load_replay
from ecs_zombie.ruleset import load_ruleset, resolve_ref
from ecs_zombie.scenario import Scenario, load_scenario

SAVES_DIR = Path("saves")


def output_path(path: str) -> Path:
    """A bare file name goes into the default `saves/` folder; anything with a folder stays as given."""
    check_text(path, "the file name")
    if not path.strip() or path.endswith(("/", "\\")):
        raise GameError(f"{path!r} is no file name")
    p = Path(path)
    return SAVES_DIR / p if p.parent == Path(".") and not path.startswith("./") else p


def parse_params(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise GameError(f"--param takes KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


@dataclass
class RunResult:
    game: Game
    per_tick: list[dict[str, Any]] = field(default_factory=list)
    saved: Path | None = None
    recorded: Path | None = None

    def summary(self) -> dict[str, Any]:
        out = self.game.summary()
        out["players"] = self.game.players
        out["finished"] = self.game.over
        out["per_turn"] = self.per_tick
        return out


def _tick_row(game: Game) -> dict[str, Any]:
    return {"turn": game.tick, **game.metrics()}


def play(game: Game, stop_after: int | None, save: str | None, record: str | None,
         policy: str | None = None) -> RunResult:
    result = RunResult(game)
    recorder = Recorder(game) if record else None
    policies = PolicyTable(policy or game.policy_spec)
    game.play(policies, stop_after=stop_after, on_tick=lambda g: result.per_tick.append(_tick_row(g)))
    if save:
        result.saved = output_path(save)
        snapshot.save(game, result.saved)
    if recorder is not None and record:
        result.recorded = output_path(record)
        snapshot.write_atomic(result.recorded, recorder.to_bytes(game))
    return result


def run(target: str, seed: int, policy: str, players: int | None, dice: list[int], cards: list[str],
        params: dict[str, str], stop_after: int | None, save: str | None, record: str | None) -> RunResult:
    if stop_after is not None and stop_after < 0:
        raise GameError(f"--stop-after takes a tick number of 0 or more, got {stop_after}")
    check_seed(seed)
    for name in (save, record):  # before the game is played, not after
        if name is not None:
            output_path(name)
    game = new_game(check_text(target, "the ruleset or scenario"), seed, players=players, params=params, dice=dice,
                    cards=cards, policy=policy)
    try:
        check_policy_sides(policy, game.ruleset, game.players)
    except GameError:
        game.close()
        raise
    if not target.endswith((".yaml", ".yml")):
        return play(game, stop_after, save, record)
    # A file given by path passed every load-time check; what only the rules know (a prefab a rule
    # looks up by name, a stage a rule expects) shows when a rule fails on it: the file's fault,
    # said in one line, as `resume` says it of a save. A shipped ruleset's failure stays a traceback
    # (a bug of ours).
    try:
        return play(game, stop_after, save, record)
    except GameError:
        raise
    except Exception as exc:
        raise GameError(f"{target}: the game fails{_in_system(game)} ({cause(exc)}); the files' content does not "
                        f"fit the rules") from exc


def resume(path: str, save: str | None, record: str | None) -> RunResult:
    """Continue a saved game. Loading checks the save's types, references and bookkeeping; what only
    a game's own rules know (which pieces a rule expects to carry which components) shows when a rule
    fails on it, which is the save's fault, said in one line."""
    game = None
    try:
        game = snapshot.load(Path(path))
        if game.over:
            raise GameError(f"{path}: this game is already over ({game.outcome})")
        return play(game, None, save, record)
    except GameError:
        raise
    except Exception as exc:
        raise SaveError(f"{path}: the game it holds fails{_in_system(game)} ({cause(exc)}); its content does not "
                        f"fit the rules") from exc


def _in_system(game: Game | None) -> str:
    """Where a rule failed, for a message: ` in <system path> at <tick name> <tick>` (or nothing)."""
    if game is None or not game.system_path:
        return ""
    return f" in {game.system_path} at {game.ruleset.tick_name} {game.tick}"


def inspect_state(path: str, tick: int | None) -> dict[str, Any]:
    """The entities and components of a save, or of a replay at a tick (default: its last), checked
    as any load is (`ecs_zombie.loading`), the rules it was made with not required to be today's."""
    from ecs_zombie import loading

    p = Path(path)
    raw = snapshot.read_file(p)
    try:
        body = snapshot.unwrap_body(raw, "snapshot", path)
    except GameError as exc:
        if "not a snapshot" not in str(exc):
            raise
        replay = load_replay(p)
        ticks = [0] + [t[0] for t in replay.ticks]  # 0: the replay's start, whatever its tick
        want = ticks[-1] if tick is None else tick
        if want not in ticks:
            raise GameError(f"{path}: no tick {want} in this replay (ticks 0..{ticks[-1]})") from None
        body = loading.body_of(replay.initial, path) if want == ticks[0] else next(
            t[3] for t in replay.ticks if t[0] == want)
        state = loading.read_state(body, path)
        # a tick's state leaves out what made the game; the replay's start holds it
        made_by = state if want == ticks[0] else loading.read_state(loading.body_of(replay.initial, path), path)
    else:
        state = made_by = loading.read_state(body, path)
        if tick is not None and tick != state.tick:
            raise GameError(f"{path}: a save holds tick {state.tick} only")
    loading.ruleset_of(state, path, same_rules=False)  # registers the components it uses
    from ecs_zombie.components import by_class

    entities = []
    for ent, comps in loading.read_entities(state, loading.inconsistent(path)).tables:
        types = sorted(((by_class(t), c) for t, c in comps.items()), key=lambda tc: tc[0].name)  # as saved
        entities.append({"id": ent, "components": {t.name: dict(zip(t.fields, t.getter(c), strict=True))
                                                   for t, c in types}})
    made = made_by.provenance
    return {"ruleset": state.ruleset, "seed": state.seed, "tick": state.tick, "outcome": state.outcome,
            "format": state.version, "engine": made.engine if made is not None else None,
            "entities": entities}


def describe(game: Game) -> list[str]:
    """The pieces on the board in a few words (see `ecs_zombie.boards.describe`)."""
    from ecs_zombie.boards import describe as pieces

    return pieces(game)


TRIAL_SECONDS = 4.0
# Trial games of seeds 0, 1, ...: a value a rule reads only on some paths (a prefab a late event
# spawns, a figure's kind a reinforcement brings) shows in one of several games more often than in one.
TRIAL_GAMES = 5
TRIAL_MORE_SECONDS = 1.0  # a next seed starts only while the trial has used less CPU than this


class _TrialTimeout(BaseException):
    """Raised by the trial's alarm (a BaseException: no rule's `except Exception` swallows it)."""


def trial(scenario: Scenario, where: str) -> None:
    """Play a scenario that loaded, with its own number of players (seeds 0 to TRIAL_GAMES - 1 while
    the trial has used under TRIAL_MORE_SECONDS of CPU, the heuristic policy): what `validate`
    accepts, `run` plays. Loading checks each value
    against its type and bounds; a value that fits them and still breaks a rule (a weapon a prefab
    carries that the weapons table no longer lists, a ruleset without the system that lays the
    board) shows here, as one line; a trial that does not end within TRIAL_SECONDS is refused too."""
    import signal
    import threading
    import time

    timed = threading.current_thread() is threading.main_thread()

    def alarm(signum: int, frame: Any) -> None:
        raise _TrialTimeout

    # CPU time of this process (ITIMER_PROF), not wall time: on a loaded machine a game that needs
    # two seconds of CPU can take ten on the clock, and a rule that loops burns CPU either way. The
    # timer rings again every quarter of the limit until the trial has caught a ring: a handler's
    # exception that lands in a collector's callback or a finalizer is lost (Python only prints it),
    # and a trial that ends after losing its ring is refused by the CPU time it used.
    for players in (scenario.players,):
        game = None
        # A profiling timer already set (by a caller's own deadline) that rings sooner is left to ring.
        outer = signal.getitimer(signal.ITIMER_PROF)[0] if timed else 0.0
        timed_here = timed and not 0 < outer <= TRIAL_SECONDS
        began = time.process_time()
        old = signal.signal(signal.SIGPROF, alarm) if timed_here else None
        if timed_here:
            signal.setitimer(signal.ITIMER_PROF, TRIAL_SECONDS, TRIAL_SECONDS / 4)
        seed = 0
        try:
            for seed in range(TRIAL_GAMES):
                if seed and time.process_time() - began > TRIAL_MORE_SECONDS:
                    break  # a long scenario (Stalingrad's horde) is tried on fewer seeds
                game = new_game(scenario, seed, players=players)
                game.play()
                game.close()
                game = None
            if timed_here and time.process_time() - began > TRIAL_SECONDS:
                raise _TrialTimeout  # its ring was lost
        except _TrialTimeout:
            at = f" (at {game.ruleset.tick_name} {game.tick}, in {game.system_path or 'no system'})" if game else ""
            raise DataError(f"a trial game ({players} player{'s' * (players > 1)}, seed {seed}) does not end within "
                            f"{TRIAL_SECONDS:g} s of CPU time{at}", where) from None
        except GameError as exc:
            raise DataError(f"a trial game ({players} player{'s' * (players > 1)}, seed {seed}) fails: "
                            f"{' '.join(str(exc).split())}", where) from None
        except Exception as exc:
            at = f" in {game.system_path} at {game.ruleset.tick_name} {game.tick}" if game is not None else ""
            raise DataError(f"a trial game ({players} player{'s' * (players > 1)}, seed {seed}) fails{at} "
                            f"({cause(exc)})", where) from None
        finally:
            if timed_here:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.signal(signal.SIGPROF, old)
                if outer:  # the caller's timer, for the CPU time it had left
                    signal.setitimer(signal.ITIMER_PROF, max(outer - (time.process_time() - began), 0.001))
            if game is not None:
                game.close()


def validate(paths: list[str]) -> list[str]:
    """What `check_files` checked, one line each."""
    return [_checked_line(r) for r in check_files(paths)]


def _checked_line(r: dict[str, Any]) -> str:
    if r["kind"] == "ruleset":
        return f"{r['path']}: ruleset {r['id']} ok" + (
            f" (with its default scenario {r['default_scenario']})" if r["default_scenario"] else "")
    if r["kind"] == "scenario":
        return f"{r['path']}: scenario ok (ruleset {r['ruleset']})"
    if r["kind"] == "table":
        return f"{r['path']}: table {r['id']} ok"
    return f"{r['path']}: prefabs ok"


def check_files(paths: list[str]) -> list[dict[str, Any]]:
    """Check rulesets (with their default scenarios), scenarios (with their rulesets), prefab files
    and tables, and play a trial game of each scenario (`trial`); returns what was checked, one record
    each (path, kind, and the ruleset, scenario or table it is). With no paths: every ruleset the
    catalog knows (shipped and installed plugins) and every shipped scenario."""
    entries = sorted(catalog().entries.values(), key=lambda e: e.id)
    if not paths:
        paths = [str(e.path) for e in entries] + [str(p) for p in sorted((PREFABS_DIR / "scenarios").glob("**/*.yaml"))]
    tables: dict[Path, str] = {}
    prefab_files: dict[Path, str] = {}
    for entry in entries:
        doc = load_yaml(entry.path)
        if isinstance(doc, dict):
            for name, rel in (doc.get("tables") or {}).items():
                if isinstance(rel, str):
                    tables[resolve_ref(rel, entry.path.parent).resolve()] = name
            for rel in doc.get("prefabs") or []:
                if isinstance(rel, str):
                    prefab_files[resolve_ref(rel, entry.path.parent).resolve()] = entry.id
    done: list[dict[str, Any]] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise DataError("no such file", raw)
        doc = load_yaml(p)
        name = display_path(p)
        if isinstance(doc, YMap) and "phases" in doc:
            rs = load_ruleset(str(p))
            if rs.default_scenario is not None:
                trial(load_scenario(str(rs.default_scenario), rs), display_path(rs.default_scenario))
            done.append({"path": name, "kind": "ruleset", "id": rs.id, "default_scenario":
                         display_path(rs.default_scenario) if rs.default_scenario is not None else None})
        elif isinstance(doc, YMap) and "ruleset" in doc:
            sc = load_scenario(str(p))
            trial(sc, name)
            done.append({"path": name, "kind": "scenario", "ruleset": sc.ruleset.id})
        elif p.resolve() in tables:
            tname = tables[p.resolve()]
            if tname not in TABLES:
                load_ruleset(next(e.id for e in entries if tname in str(load_yaml(e.path).get("tables", {}))))
            TABLES[tname](doc)
            done.append({"path": name, "kind": "table", "id": tname})
        elif p.resolve() in prefab_files or isinstance(doc, YMap):
            # prefab files may name components that the rulesets' packages register
            rid = prefab_files.get(p.resolve())
            for entry in entries if rid is None else [e for e in entries if e.id == rid]:
                load_ruleset(entry.id)
            load_prefabs(p, {})
            done.append({"path": name, "kind": "prefabs"})
        else:
            raise DataError("not a ruleset, scenario, prefab file or known table", name)
    return done
