"""Typed loading of saves and replays: whatever loads can be played.

A file's checksum only says the bytes are the ones written. Its content is checked here as it is
decoded (by msgspec, against types built from the registered components), so that a save edited by
hand or by a tool that recomputes the checksum is refused in one line rather than crashing a rule
later:

- the state's bookkeeping has its types and ranges: a seed in 0..2**64-1, a tick within the
  ruleset's `max_ticks`, 1..8 players, RNG streams as two unsigned 64-bit numbers with an odd
  increment (and the policies' streams named `policy/...`), dice scripts of possible die values,
  parameters the ruleset declares with values in their ranges, a policy that exists, a ruleset
  origin that names shipped, plugin or file;
- the schema lists registered components with the fields this engine gives them;
- every entity's components have the field types of their classes (`ecs_zombie.fields`): an
  entity id where one belongs (and naming an entity, with the component the field asks for), a
  number within its field's range, text where text belongs; ids rise and stay below the next id;
- a replay's decisions are option indices, its events `[tick, kind, data, system]`, each tick
  record `[tick, digest, [[system, events], ...], state]` with ticks rising one by one from the
  initial state's, each digest that of its state, and each state itself a valid state.

Decoding goes straight from msgpack to typed values in C, which is also several times faster than
decoding to Python values and checking them afterwards (`benchmarks/bench_engine.py`). The bytes
of a file are not changed by any of this: only reading is stricter.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

import msgspec

from ecs_zombie import canonical
from ecs_zombie.catalog import Origin, find_saved
from ecs_zombie.components import by_name
from ecs_zombie.errors import GameError, SaveError
from ecs_zombie.fields import EntityId, Int64, describe
from ecs_zombie.limits import MAX_DIE, MAX_PLAYERS, MAX_SCRIPT, MAX_TICKS, SEED_MAX, SEED_MIN
from ecs_zombie.ruleset import Ruleset
from ecs_zombie.saved_entities import Classes, Record, SavedEntities, check_entities, read_entities

SNAPSHOT_FORMAT = "ecs-zombie/snapshot"
REPLAY_FORMAT = "ecs-zombie/replay"

# msgspec bounds integers within int64 only: unsigned 64-bit values are checked in `_bookkeeping`.
U64 = int
Count = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Tick = Annotated[int, msgspec.Meta(ge=0, le=MAX_TICKS)]
# Names and paths a save records: no control characters (a NUL in a path is no file name).
Text = Annotated[str, msgspec.Meta(pattern=r"^[^\x00-\x1f\x7f]*\Z", max_length=4096)]


class SavedOrigin(msgspec.Struct, forbid_unknown_fields=True):
    dist: Text
    kind: Literal["shipped", "plugin", "file"]
    path: Text
    version: Text


class SavedProvenance(msgspec.Struct, forbid_unknown_fields=True):
    code: dict[str, tuple[str, str]]
    engine: str


class Head(msgspec.Struct):
    """What is read first, leniently, so that a newer format is named as such."""

    format: Any = None
    version: Any = None


class SavedState(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A snapshot's content (`ecs_zombie.state.game_state`), its entities left undecoded until the
    ruleset that registers their components is loaded."""

    card_script: Annotated[list[Text], msgspec.Meta(max_length=MAX_SCRIPT)]
    dice_script: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=MAX_DIE)]], msgspec.Meta(max_length=MAX_SCRIPT)]
    entities: msgspec.Raw
    format: Literal["ecs-zombie/snapshot"]
    log_pos: Count
    next_entity: EntityId
    outcome: Text | None
    over: bool
    params: dict[str, Any]
    players: Annotated[int, msgspec.Meta(ge=1, le=MAX_PLAYERS)]
    policy: Text
    policy_rng: dict[Text, tuple[U64, U64]]
    provenance: SavedProvenance | None = None
    # Saved at a pending decision: the answers given since the tick began (the state is its start).
    resume_answers: list[Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]] | None = None
    rng: dict[Text, tuple[U64, U64]]
    ruleset: Text
    ruleset_files: dict[Text, str] | None = None
    ruleset_hash: Text
    ruleset_origin: SavedOrigin
    scenario: Text
    schema: dict[Text, list[Text]]
    seed: int
    tables: dict[Text, Text]
    tick: Tick
    version: int


class SavedReplay(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    decisions: list[Annotated[int, msgspec.Meta(ge=0, le=2**31 - 1)]]
    events: list[tuple[Int64, str, dict[str, Any], str]] = []
    format: Literal["ecs-zombie/replay"]
    initial: bytes
    outcome: Text | None
    ticks: list[tuple[Tick, Annotated[bytes, msgspec.Meta(min_length=16, max_length=16)],
                      list[tuple[str, Count]], bytes]]


_HEAD = msgspec.msgpack.Decoder(Head)
_STATE = msgspec.msgpack.Decoder(SavedState)
_REPLAY = msgspec.msgpack.Decoder(SavedReplay)


@contextmanager
def collection_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while a state's objects are made.

    Loading makes tens of thousands of containers that all survive, and each batch of them sets off
    a collection that walks every object alive, again and again: in a 10,000-entity save that was
    three quarters of the time (`benchmarks/bench_engine.py`). None of them can be garbage yet;
    collection resumes, as it was, when the state is built."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:  # nobody else keeps objects frozen (a fork server may)
                gc.freeze()  # the state's objects are long-lived: they join the oldest generation
                gc.unfreeze()  # at once, rather than be walked by the next young collection
            gc.enable()


def _where(exc: Exception) -> str:
    return describe(exc).replace("(at .", "(at ")


def check_version(version: Any, what: str) -> None:
    """Only this format version is read: older saves are refused with the reason, not misread."""
    from ecs_zombie.state import FORMAT_VERSION

    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION:
        raise SaveError(f"{what} format {version} is newer than this ecs-zombie reads ({FORMAT_VERSION})")
    if version < FORMAT_VERSION:
        raise SaveError(f"{what} format {version} was written by an older ecs-zombie; this one reads format "
                        f"{FORMAT_VERSION} only (see CHANGELOG.md: saves do not carry over across formats)")


def inconsistent(name: str) -> str:
    """How a save's inconsistent content is reported (`name` is the file)."""
    return f"{name}: the save's content is inconsistent"


def read_state(body: bytes, name: str, bad: str = "") -> SavedState:
    """A state's content checked for everything but its entities (which need the ruleset). `bad`
    begins the message of anything inconsistent (a state inside a replay says so)."""
    inner = bool(bad)
    bad = bad or inconsistent(name)
    try:
        head = _HEAD.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise SaveError(f"{bad}: not a state" if inner else f"{name}: corrupted body") from None
    if head.format != SNAPSHOT_FORMAT:
        raise SaveError(f"{bad}: not a state" if inner else f"{name}: not an ecs-zombie snapshot")
    check_version(head.version, f"{name}: snapshot")
    try:
        state = _STATE.decode(body)
    except msgspec.ValidationError as exc:
        raise SaveError(f"{bad}: {_where(exc)}") from None
    except msgspec.DecodeError:
        raise SaveError(f"{bad}: not a state" if inner else f"{name}: corrupted body") from None
    problem = _bookkeeping(state)
    if problem:
        raise SaveError(f"{bad}: {problem}")
    return state


def _bookkeeping(state: SavedState) -> str:
    """What the types alone do not say about a state's bookkeeping ("" when all is well)."""
    if not SEED_MIN <= state.seed <= SEED_MAX:
        return f"seed {state.seed} is outside {SEED_MIN}..{SEED_MAX}"
    for streams, policy in ((state.rng, False), (state.policy_rng, True)):
        for stream, (at, inc) in streams.items():
            if not (0 <= at < 2**64 and 0 <= inc < 2**64):
                return f"RNG stream {stream!r}: its state and increment must be unsigned 64-bit numbers"
            if stream.startswith("policy/") != policy:
                return f"RNG stream {stream!r} is {'not ' if policy else ''}a policy's stream where it is kept"
            if not inc & 1:
                return f"RNG stream {stream!r}: its increment {inc} is even (a PCG32 increment is odd)"
    if state.over != (state.outcome is not None):
        return "a game over has an outcome, and a game going on has none"
    return ""


def ruleset_of(state: SavedState, name: str, same_rules: bool = True) -> Ruleset:
    """The ruleset a state names, loaded (which registers its components); with `same_rules`, it
    must be the rules the state was made with."""
    from ecs_zombie.ruleset import changed_files, load_entry

    try:
        entry = find_saved(state.ruleset, Origin(state.ruleset_origin.kind, state.ruleset_origin.dist,
                                                 state.ruleset_origin.version, state.ruleset_origin.path))
        ruleset = load_entry(entry, dict(state.tables))
    except SaveError:
        raise
    except GameError as exc:
        raise SaveError(f"{name}: {exc}") from None
    if ruleset.id != state.ruleset:
        raise SaveError(f"{name}: the save names ruleset {state.ruleset!r}, but its file holds {ruleset.id!r}")
    if same_rules and ruleset.content_hash != state.ruleset_hash:
        changed = changed_files(state.ruleset_files or {}, ruleset.files)
        raise SaveError(f"{name}: the save was made with different rules of ruleset {state.ruleset!r}" +
                        (f": changed since: {', '.join(changed)}" if changed else ""))
    return ruleset


def check_rules(state: SavedState, ruleset: Ruleset, bad: str) -> None:
    """The parts of a state that only its ruleset can judge: the tick, parameters and policy."""
    from ecs_zombie.decisions import PolicyTable

    if state.tick > ruleset.max_ticks:
        raise SaveError(f"{bad}: tick {state.tick} is past the ruleset's last ({ruleset.max_ticks})")
    if sorted(state.params) != sorted(ruleset.parameters):
        missing = sorted(set(ruleset.parameters) - set(state.params))
        extra = sorted(set(state.params) - set(ruleset.parameters))
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(extra)}"] if extra else [])
        raise SaveError(f"{bad}: params: {'; '.join(parts)}")
    for key, value in state.params.items():
        try:
            checked = ruleset.parameters[key].check(value, "params")
        except GameError as exc:
            raise SaveError(f"{bad}: {str(exc).removeprefix('params: ')}") from None
        if type(checked) is not type(value) or checked != value:
            raise SaveError(f"{bad}: parameter {key!r} = {value!r} is not a {ruleset.parameters[key].type}")
    try:
        PolicyTable(state.policy)
    except GameError as exc:
        raise SaveError(f"{bad}: policy: {exc}") from None


def kind_components(ruleset: Ruleset) -> dict[str, frozenset[type]]:
    """Per kind of piece (`Kind.name`), the components every piece of that kind holds all game long:
    those of the prefabs naming that kind (the ones all of them give, when several do), less those a
    scheduled system `removes`. Rules build pieces from their prefabs and only add to them, so a
    piece lacking one of these was not made by the rules, and its first rule to look would fail."""
    found: dict[str, frozenset[type]] | None = ruleset.derived.get("kind_components")
    if found is not None:
        return found
    removable = {c for step in ruleset.scheduled() for c in step.spec.removes}
    out: dict[str, frozenset[type]] = {}
    for prefab in ruleset.prefabs.values():
        kind = prefab.components.get("Kind", {}).get("name")
        if not isinstance(kind, str):
            continue
        held = frozenset(t.cls for c in prefab.components if c not in removable and (t := by_name(c)) is not None)
        out[kind] = out[kind] & held if kind in out else held
    ruleset.derived["kind_components"] = out
    return out


def load_state(body: bytes, name: str, bad: str = "") -> tuple[SavedState, Ruleset, SavedEntities]:
    """A state's content, fully checked: bookkeeping, ruleset (the same rules), entities, and each
    piece against its kind."""
    state = read_state(body, name, bad)
    ruleset = ruleset_of(state, name)
    check_rules(state, ruleset, bad or inconsistent(name))
    entities = read_entities(state, bad or inconsistent(name), kind_components(ruleset))
    return state, ruleset, entities


def check_state(body: bytes, name: str) -> SavedState:
    """A state checked through for reading it (`inspect`, `diff`) rather than playing it: its types,
    references and bookkeeping, its ruleset loaded for the components (the same rules not required)."""
    state = read_state(body, name)
    ruleset_of(state, name, same_rules=False)
    read_entities(state, inconsistent(name))
    return state


def body_of(content: dict[str, Any], name: str) -> bytes:
    """The canonical bytes of a state given as Python values (tests, tools, older callers)."""
    try:
        return canonical.pack(content)
    except (TypeError, ValueError, OverflowError) as exc:
        raise SaveError(f"{inconsistent(name)} ({type(exc).__name__}: {exc})") from None


# -- replays --------------------------------------------------------------------------------------


def read_replay(content: bytes, name: str, states: bool = True) -> tuple[SavedReplay, SavedState]:
    """A replay's content checked through: its own shape, its initial state (all of it, the ruleset
    loaded), and each tick record, whose state is checked as the initial one is.

    With `states=False` a tick's state is held to its recorded hash only, and its content is left to
    whoever reads it: verification, which re-runs each tick and needs to look into a recorded state
    only where the re-run's hash differs from it (a state whose hash the re-run matches is one this
    engine made: `check_tick_state` there). Reading every state costs more than playing the game."""
    try:
        head = _HEAD.decode(content)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise SaveError(f"{name}: corrupted body") from None
    if head.format != REPLAY_FORMAT:
        raise SaveError(f"{name}: not an ecs-zombie replay")
    bad = replay_problem(name)
    try:
        replay = _REPLAY.decode(content)
    except msgspec.ValidationError as exc:
        raise SaveError(f"{bad}: {_where(exc)}") from None
    except msgspec.DecodeError:
        raise SaveError(f"{name}: corrupted body") from None
    initial = read_state(replay.initial, name, f"{bad}: initial state")
    ruleset = ruleset_of(initial, name)
    check_rules(initial, ruleset, f"{bad}: initial state")
    required = kind_components(ruleset)  # the same rules for every state of the replay
    seen = checked_records(ruleset)
    check_entities(initial, f"{bad}: initial state", required, seen)
    tick = initial.tick
    for i, (at, digest, systems, body) in enumerate(replay.ticks):
        if at != tick + 1:
            raise SaveError(f"{bad}: tick record {i + 1} is of tick {at}, where tick {tick + 1} comes next")
        tick = at
        if digest != canonical.digest(body):
            raise SaveError(f"{bad}: the state of tick {at} does not match its recorded hash")
        if states:
            check_tick_state(body, at, initial, ruleset, name, required, seen)
        if any(not s for s, _n in systems):
            raise SaveError(f"{bad}: tick {at} names a system with no name")
    counted = sum(n for _t, _d, systems, _b in replay.ticks for _s, n in systems)
    if replay.events and counted > len(replay.events):  # a replay may leave its events out
        raise SaveError(f"{bad}: the tick records count {counted} events, the replay holds {len(replay.events)}")
    return replay, initial


def replay_problem(name: str) -> str:
    """How a replay's inconsistent content is reported (`name` is the file)."""
    return f"{name}: the replay's content is inconsistent"


def check_tick_state(body: bytes, at: int, initial: SavedState, ruleset: Ruleset, name: str,
                     required: dict[str, frozenset[type]] | None = None,
                     seen: dict[Classes, dict[bytes, Record]] | None = None) -> None:
    """The recorded state of tick `at` of a replay checked as its initial state is, and of the same
    rules (`required` and `seen` as `read_replay` keeps them: computed afresh when not given)."""
    bad = f"{replay_problem(name)}: state of tick {at}"
    state = read_state(body, name, bad)
    if (state.ruleset, state.ruleset_hash, state.tables) != (initial.ruleset, initial.ruleset_hash, initial.tables):
        raise SaveError(f"{replay_problem(name)}: the state of tick {at} names other rules than the initial state")
    check_rules(state, ruleset, bad)
    check_entities(state, bad, kind_components(ruleset) if required is None else required,
                   checked_records(ruleset) if seen is None else seen)


_CHECKED_MAX = 50_000


def checked_records(ruleset: Ruleset) -> dict[Classes, dict[bytes, Record]]:
    """Entity records that passed `check_entities` under `ruleset`, by their bytes: what a record
    passes depends only on its bytes, the state's component classes and the ruleset's pieces, so
    every replay of the same rules shares them (a batch's games deal the same cards under the same
    ids: a replay read after the first checks few records of its own). Only passes are kept, and at
    most `_CHECKED_MAX` of them."""
    seen: dict[Classes, dict[bytes, Record]] = ruleset.derived.setdefault("checked_records", {})
    if sum(map(len, seen.values())) > _CHECKED_MAX:
        seen.clear()
    return seen

