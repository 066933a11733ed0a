"""The PettingZoo AEC environment over a `Stepper` (see `ecs_zombie.env` and docs/rl.md).

Each side that answers decisions and is trained is an agent (`player:0` is the agent `player_0`);
the other sides are answered by their policy inside `Stepper`. The agent selected is always the
side whose decision is pending. An observation is a dict: `observation`, a float32 vector of the
ruleset's fixed layout (`ecs_zombie.env.spec.Layout`: scalars, then the entity table row by row),
and `action_mask`, int8 over the ruleset's `Discrete` actions (zero unless this side is asked).

Rewards: at the end +1 to each agent whose team (survivors or zombies, `ecs_zombie.search.team_of`)
the outcome names and -1 to the others; a game stopped by the ruleset's hard stop (`timeout`) is a
truncation with no reward. With `shaped`, each answer also pays the change of the ruleset's
potential (its metrics weighted by the observation's `shaping`, or by the weights `shaped` gives),
+ to survivors, - to zombies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ecs_zombie.components import Deck, Markers, by_name
from ecs_zombie.decisions import Decision, PolicyTable, split_side
from ecs_zombie.env.spec import EnvError, Layout, Mapper, layout
from ecs_zombie.game import Game, new_game
from ecs_zombie.scenario import load_scenario
from ecs_zombie.search import team_of
from ecs_zombie.stepper import Stepper

BOUND = 1e6  # observations are clipped to +-BOUND (the Box must be finite)

PRESENT, TAG, FIELD, MINE = 0, 1, 2, 3  # how a column reads its component


def encode(v: Any, places: dict[str, int]) -> float:
    """A field's value as a number: itself, a truth 0/1, a text its place (0 empty, -1 unknown), a
    list or mapping its length."""
    t = type(v)
    if t is int or t is float or t is bool:
        return float(v)
    if t is str:
        return float(places.get(v, -1)) if v else 0.0
    if t is list or t is dict:
        return float(len(v))
    return 0.0


def agent_name(side: str) -> str:
    """`player:0` -> `player_0`; other sides keep their name."""
    return side.replace(":", "_")


def side_name(agent: str) -> str:
    head, _, seat = agent.rpartition("_")
    return f"{head}:{seat}" if head == "player" and seat.isdigit() else agent


class Encoder:
    """Builds a layout's observation from a game: the table's rows, then each column's value."""

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self.row_types = tuple(self._type(name, "entities=") for name in lay.entities)
        self.concealed: dict[str, tuple[str, ...]] = {}  # "Comp.field" -> the markers that hide it
        for c in lay.concealed:
            for f in c.fields:
                self.concealed[f] = (*self.concealed.get(f, ()), c.marker)
        self.focus_keys = lay.focus
        groups: dict[type, list[tuple[int, int, str, dict[str, int], tuple[str, ...]]]] = {}
        for i, text in enumerate(lay.columns[2:], start=2):
            cls, col = self._column(i, text)
            groups.setdefault(cls, []).append(col)
        self.groups = list(groups.items())  # columns by component: one look-up per component and row
        self.scalar_cells = [self._scalar(s) for s in lay.scalars]
        self.kind_index = {k: i for i, k in enumerate(lay.kinds)}
        self.first_kind = lay.scalars.index(f"asked:{lay.kinds[0]}") if lay.kinds else 0

    def _type(self, name: str, where: str) -> type:
        ctype = by_name(name)
        if ctype is None:
            raise EnvError(f"ruleset {self.lay.ruleset!r}: the observation's {where} names component {name!r}, which "
                           f"no loaded package registers")
        return ctype.cls

    def _places(self, text: str) -> tuple[type, str, dict[str, int]]:
        """`Comp.field`: the class, the field, and a text field's words with their 1-based places."""
        comp, _, name = text.partition(".")
        cls = self._type(comp, "column " + text)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        f = fields.get(name)
        if f is None:
            raise EnvError(f"ruleset {self.lay.ruleset!r}: observation column {text!r}: {comp} has no field {name!r} "
                           f"(it has {', '.join(fields)})")
        vocab = self.lay.vocab.get(text) or tuple(str(v) for v in f.metadata.get("one_of", ()))
        if f.type in ("str", str) and not vocab:
            raise EnvError(f"ruleset {self.lay.ruleset!r}: observation column {text!r} is text: declare its words "
                           f"under vocab={{{text!r}: (...)}}")
        return cls, name, {w: i + 1 for i, w in enumerate(vocab)}

    def _column(self, index: int, text: str) -> tuple[type, tuple[int, int, str, dict[str, int], tuple[str, ...]]]:
        """A column as (component class, (index, mode, field or tag, a text's places, hiding markers))."""
        if ":" in text:
            comp, _, tag = text.partition(":")
            return self._type(comp, "column " + text), (index, TAG, tag, {}, ())
        if "." not in text:
            return self._type(text, "column " + text), (index, PRESENT, "", {}, ())
        me = text.endswith("@me")
        base = text.removesuffix("@me")
        cls, name, places = self._places(base)
        return cls, (index, MINE if me else FIELD, name, places, self.concealed.get(base, ()))

    def _scalar(self, text: str) -> Callable[[Game, int, str], float] | None:
        """A scalar: a function of (game, seat, team); None for the generic ones filled in `build`."""
        if text in ("tick", "seat", "team") or text.startswith("asked:"):
            return None
        if text.startswith("deck:"):
            _, name, pile = text.split(":")
            if pile not in ("draw", "discard"):
                raise EnvError(f"ruleset {self.lay.ruleset!r}: scalar {text!r} must end in :draw or :discard")

            def deck(game: Game, seat: int, team: str) -> float:
                for _e, d in game.world.query1(Deck):
                    if d.name == name:
                        return float(len(d.draw if pile == "draw" else d.discard))
                return 0.0

            return deck
        cls, name, places = self._places(text)

        def first(game: Game, seat: int, team: str) -> float:
            c: Any
            for _e, c in game.world.query1(cls):
                return encode(getattr(c, name), places)
            return 0.0

        return first

    def rows(self, game: Game) -> dict[int, int]:
        """entity -> row: entities holding any row component, by id, at most `rows`."""
        out: dict[int, int] = {}
        types = self.row_types
        limit = self.lay.rows
        table = game.world.table()
        for ent in sorted(table):
            comps = table[ent]
            for t in types:
                if t in comps:
                    out[ent] = len(out)
                    break
            if len(out) >= limit:
                break
        return out

    def build(self, game: Game, rows: dict[int, int], side: str, asked: Decision | None) -> np.ndarray:
        lay = self.lay
        seat = int(side[7:]) if side.startswith("player:") else -1
        team = team_of(side)
        out = np.zeros(lay.size, dtype=np.float32)
        for i, fn in enumerate(self.scalar_cells):
            if fn is not None:
                out[i] = fn(game, seat, team)
        out[0], out[1], out[2] = game.tick, seat, 1.0 if team == "survivors" else -1.0
        if asked is not None:
            out[self.first_kind + self.kind_index[asked.kind]] = 1.0
        focus = set()
        if asked is not None:
            for key in self.focus_keys:
                v = asked.context.get(key)
                if type(v) is int:
                    focus.add(v)
        table = game.world.table()
        ncols = len(lay.columns)
        flat: list[float] = []
        groups = self.groups
        for ent in rows:  # rows are numbered in insertion order
            comps = table[ent]
            vals: list[float] = [0.0] * ncols
            vals[0] = 1.0
            if ent in focus:
                vals[1] = 1.0
            for cls, cols in groups:
                c = comps.get(cls)
                if c is None:
                    continue
                for idx, mode, name, places, hiding in cols:
                    if mode == FIELD:
                        if hiding:
                            m = comps.get(Markers)
                            if m is not None and any(t in m.tags for t in hiding):
                                continue
                        v = getattr(c, name)
                        t = type(v)
                        if t is int:  # the common case, inline
                            vals[idx] = v
                        elif t is str:
                            vals[idx] = places.get(v, -1) if v else 0
                        else:
                            vals[idx] = encode(v, places)
                    elif mode == PRESENT:
                        vals[idx] = 1.0
                    elif mode == TAG:
                        vals[idx] = 1.0 if name in c.tags else 0.0
                    elif getattr(c, name) == seat:
                        vals[idx] = 1.0
            flat += vals
        start = len(lay.scalars)
        out[start:start + len(flat)] = flat
        np.clip(out, -BOUND, BOUND, out=out)
        return out


class ZombieEnv(AECEnv):  # type: ignore[misc]
    """One ruleset as a PettingZoo AEC environment (build it with `ecs_zombie.env.aec_env`)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "ecs_zombie_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: str, *, players: int | None = None, agents: Sequence[str] | None = None,
                 opponents: str | Mapping[str, str] = "heuristic", seed: int = 0,
                 shaped: bool | Mapping[str, float] = False, params: Mapping[str, Any] | None = None,
                 record: str | Path | None = None) -> None:
        super().__init__()
        scenario = load_scenario(ruleset)
        self.target = ruleset
        self.players = players if players is not None else scenario.players
        if not 1 <= self.players <= scenario.max_players:
            raise EnvError(f"players must be 1..{scenario.max_players} for {ruleset!r}, got {self.players}")
        self.params = dict(params or {})
        self.seed = seed
        self.shaped = bool(shaped)
        self.record = Path(record) if record is not None else None
        self.layout = layout(scenario.ruleset, self.players)
        self.encoder = Encoder(self.layout)
        self.weights = dict(shaped) if isinstance(shaped, Mapping) else dict(self.layout.shaping)
        sides = self.layout.sides
        if isinstance(opponents, Mapping):
            named = {str(k) for k in opponents}
            spec = ",".join(["heuristic", *(f"{side_name(k)}={v}" for k, v in sorted(opponents.items()))])
            unknown = sorted(side_name(k) for k in named if side_name(k) not in sides)
            default_agents = [s for s in sides if s not in {side_name(k) for k in named}]
        else:
            spec = opponents
            unknown = []
            default_agents = list(sides)
            for part in opponents.split(","):
                side, _pol = split_side(part.strip())
                if side and side not in sides:
                    unknown.append(side)
        if unknown:
            raise EnvError(f"opponents name sides {', '.join(unknown)} that ruleset {self.layout.ruleset!r} does not "
                           f"have (its sides: {', '.join(sides)})")
        self.policies = PolicyTable(spec)
        chosen = [side_name(a) for a in agents] if agents is not None else default_agents
        for side in chosen:
            if side not in sides:
                raise EnvError(f"agent {side!r} is not a side of ruleset {self.layout.ruleset!r} with {self.players} "
                               f"player(s) (its sides: {', '.join(sides)})")
        if not chosen:
            raise EnvError("no side is left to train: name at least one agent")
        self.agent_sides = [s for s in sides if s in chosen]  # in the layout's order
        self.possible_agents = [agent_name(s) for s in self.agent_sides]
        obs_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.actions) for a in self.possible_agents}
        self.game: Game | None = None
        self.stepper: Stepper | None = None
        self.recorder: Any = None
        self.agents: list[str] = []
        self._rows: dict[int, int] = {}
        self._slots: dict[int, int] = {}
        self._mask = np.zeros(self.layout.actions, dtype=np.int8)
        self._potential = 0.0

    # -- the PettingZoo API ----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)
        if self.game is not None:
            self.game.close()
        game = self.game = new_game(self.target, self.seed, players=self.players, params=self.params,
                                    policy=self.policies.spec)
        self.recorder = None
        if self.record is not None:
            from ecs_zombie.replay import Recorder

            self.recorder = Recorder(game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        # a search policy (mcts) forks the game at its decisions: the game keeps each tick's start
        self.stepper = Stepper(game, auto=self.policies, sides=set(self.agent_sides),
                               resumable=self.policies.needs_tick_start)
        self._potential = self._shaping()
        self._after_answer()
        if self.stepper.done:
            raise EnvError(f"a game of {self.layout.ruleset!r} (seed {self.seed}) ended before any agent was asked "
                           f"anything: train a side that decides")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None and self.stepper is not None
        side = side_name(agent)
        pending = self.stepper.pending
        asked = pending if pending is not None and pending.side == side else None
        obs = self.encoder.build(self.game, self._rows, side, asked)
        mask = self._mask if asked is not None else np.zeros(self.layout.actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.stepper is not None
        index = self._slots.get(int(action)) if action is not None else None
        if index is None:
            legal = sorted(self._slots)
            raise EnvError(f"action {action!r} is not legal for {agent} now (legal: {legal[:20]}"
                           f"{' ...' if len(legal) > 20 else ''}; {self.describe(action)})")
        self._cumulative_rewards[agent] = 0.0
        self.stepper.answer(index)
        self._clear_rewards()
        if self.shaped:
            now = self._shaping()
            delta, self._potential = now - self._potential, now
            if delta:
                for a, side in zip(self.possible_agents, self.agent_sides, strict=True):
                    if a in self.rewards:
                        self.rewards[a] += delta if team_of(side) == "survivors" else -delta
        self._after_answer()
        self._accumulate_rewards()

    def render(self) -> str:
        """The ruleset's text drawing of the board (the one replays show), with the turn."""
        assert self.game is not None
        from ecs_zombie.registry import BOARDS

        draw = BOARDS.get(self.game.ruleset.board)
        lines = draw(self.game) if draw is not None else []
        return "\n".join([f"{self.game.ruleset.tick_name} {self.game.tick}", *lines])

    def close(self) -> None:
        if self.game is not None:
            self.game.close()
            self.game = None

    # -- helpers ---------------------------------------------------------------------------------

    def describe(self, action: Any) -> str:
        """What an action index means in this ruleset."""
        try:
            return self.layout.describe_action(int(action))
        except (EnvError, TypeError, ValueError):
            return f"not an action of 0..{self.layout.actions - 1}"

    def legal_options(self) -> dict[int, Any]:
        """action -> the option of the pending decision it plays (for people and tests)."""
        assert self.stepper is not None and self.stepper.pending is not None
        return {a: self.stepper.pending.options[i] for a, i in self._slots.items()}

    def _shaping(self) -> float:
        weights = self.weights
        if not self.shaped or not weights:
            return 0.0
        assert self.game is not None
        metrics = self.game.metrics()
        total = 0.0
        for name, w in weights.items():
            v = metrics.get(name, 0)
            total += w * float(v) if isinstance(v, int | float) else 0.0
        return total

    def _after_answer(self) -> None:
        """The next pending decision's rows, mask and slots; or the end of the game."""
        game, stepper = self.game, self.stepper
        assert game is not None and stepper is not None
        self._rows = self.encoder.rows(game)
        mask = self._mask = np.zeros(self.layout.actions, dtype=np.int8)
        slots: dict[int, int] = {}
        self._slots = slots
        pending = stepper.pending
        if pending is None:
            self._finish()
            return
        mapper = Mapper(self.layout, self._rows, game.world)
        for i, option in enumerate(pending.options):
            s = mapper.slot(pending.kind, option, i, pending.context)
            if s not in slots:  # options that share a slot (equal cards): the first plays
                slots[s] = i
                mask[s] = 1
        self.agent_selection = agent_name(pending.side)

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        outcome = game.outcome
        timeout = outcome == "timeout"
        for a, side in zip(self.possible_agents, self.agent_sides, strict=True):
            if a not in self.agents:
                continue
            if timeout:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
                self.rewards[a] += 1.0 if team_of(side) == outcome else -1.0
            self.infos[a] = {"outcome": outcome, "turns": game.tick}
        if self.recorder is not None and self.record is not None:
            from ecs_zombie.snapshot import write_atomic

            write_atomic(self.record, self.recorder.to_bytes(game))
        self.agent_selection = self.agents[0]
