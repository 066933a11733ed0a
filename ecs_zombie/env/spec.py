"""What a learning agent sees and does, declared per game package and composed per ruleset.

Pure Python (no numpy): the declarations live beside each game's `decision_kind` calls, so a game
package, shipped or a plugin, brings them wherever it goes, and a hybrid gets its layout from its
parts (the packages its ruleset lists). `ecs_zombie.env` turns a `Layout` into numpy arrays.

**Observation.** `observation(package, rows=..., entities=..., columns=..., scalars=...)` declares a
padded entity table: an entity holding any of `entities` is a row (by entity id, at most `rows`
plus `rows_per_player` for each seat after the first), each row holds `columns`; plus `scalars`. The
shape is fixed for a ruleset and a number of players. A column or scalar is written

- `Comp`: 1 when the entity has the component;
- `Comp.field`: a number as it is, a truth as 0/1, a text as its 1-based place in the vocabulary named
  `Comp.field` (0 for the empty text, -1 for a text outside it), a list or mapping as its length;
- `Markers:tag`: 1 when the entity carries the marker;
- `Comp.field@me`: 1 when the field equals the observing side's seat number;
- (scalars only) `deck:NAME:draw` / `deck:NAME:discard`: how many cards the pile holds (never which).

A scalar `Comp.field` reads the first entity (by id) having `Comp`. Every table also has the columns
`present` and `focus` (the entity is named in the pending decision's context under one of the
keys `focus=` lists), and every observation
the scalars `tick`, `seat` (the side's player number, -1 for other sides), `team` (1 survivors, -1
zombies) and one flag per decision kind of the ruleset (the kind this side is asked now).

What a side cannot see is never listed: deck order, dice, random streams. What the ruleset hides
with its determinizer (`hidden:` in the ruleset YAML, the same knowledge `mcts` re-samples) is
declared beside it with `conceals(determinizer, package=..., marker=..., fields=...)`: on an entity
carrying the marker those fields read 0.

**Actions.** `action_forms(kind, *forms)` declares a decision kind's slots in a fixed `Discrete`
space: the ruleset's kinds in name order, each an offset, and within a kind its forms one after
another. A form is a text (for a text or a lone value) or a tuple (for a list option). A text form
with `:` matches a text option split at `:` part by part. A part is a literal word or a codec:

- `{a|b|c}` a word of this list; `{vocab:NAME}` a word of the named vocabulary;
- `{entity}` an entity: its row in the observation's table; `{entities:K}` a list of 1..K of them;
- `{card:NAME}` a card entity, by its face's place in the vocabulary NAME (equal faces share a slot);
- `{bool}`; `{int:N}` a whole number 0..N-1; `{nth:N}` the option's place among the options;
- `{xy:R@key}` / `{hex:R@key}` (two list elements) a square or axial hex within R of the entity (or
  `[x, y]`) the decision's context names under `key`.

Vocabularies are tuples of words; an entry `table:NAME` stands for the keys of a ruleset table
(`table:NAME/attr` for the keys of one of its attributes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ecs_zombie.errors import GameError

if TYPE_CHECKING:
    from ecs_zombie.ruleset import Ruleset


class EnvError(GameError):
    """A ruleset's observation or action declarations do not fit, or an option cannot be mapped."""


@dataclass(frozen=True, slots=True)
class ObservationDecl:
    package: str
    rows: int
    rows_per_player: int
    entities: tuple[str, ...]
    columns: tuple[str, ...]
    scalars: tuple[str, ...]
    vocab: dict[str, tuple[str, ...] | str]
    shaping: dict[str, float]
    focus: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Concealment:
    """`fields` read 0 on an entity carrying `marker`: what `determinizer` re-samples, in any ruleset
    naming that determinizer or playing the pieces of `package`."""

    determinizer: str
    package: str
    marker: str
    fields: tuple[str, ...]


OBSERVATIONS: dict[str, ObservationDecl] = {}
ACTIONS: dict[str, tuple[str | tuple[str, ...], ...]] = {}
CONCEALED: list[Concealment] = []


def observation(package: str, *, rows: int, entities: tuple[str, ...], columns: tuple[str, ...],
                rows_per_player: int = 0, scalars: tuple[str, ...] = (),
                vocab: dict[str, tuple[str, ...] | str] | None = None, shaping: dict[str, float] | None = None,
                focus: tuple[str, ...] = ()) -> None:
    """Declare what a game package's pieces show a side (see the module docstring). `shaping` maps a
    metric of the ruleset to its weight in the optional shaped reward, from the survivors' view.
    `focus`: the keys of a decision's context that name entities (the figure acting, the zombie
    attacking): those rows are flagged in the `focus` column while the side is asked. The table holds
    `rows` rows with one player and `rows_per_player` more for each further seat."""
    OBSERVATIONS[package] = ObservationDecl(package, rows, rows_per_player, tuple(entities), tuple(columns),
                                            tuple(scalars), dict(vocab or {}), dict(shaping or {}), tuple(focus))


def action_forms(kind: str, *forms: str | tuple[str, ...]) -> None:
    """Declare the forms of a decision kind's options, in the order their slots take."""
    ACTIONS[kind] = tuple(forms)


def conceals(determinizer: str, *, package: str, marker: str, fields: tuple[str, ...]) -> None:
    """What the determinizer `determinizer` re-samples: `fields` of any entity carrying `marker`.
    Concealed in every ruleset that names the determinizer (`hidden:`) or lists `package`, so that a
    hybrid playing these pieces hides them even when its YAML names no determinizer."""
    CONCEALED.append(Concealment(determinizer, package, marker, tuple(fields)))


# -- codecs -----------------------------------------------------------------------------------------


@dataclass(slots=True)
class Part:
    """One part of a form: `size` slots; `width` list elements it takes (2 for a square or hex)."""

    text: str
    size: int
    width: int = 1
    words: tuple[str, ...] = ()
    key: str = ""
    radius: int = 0


@dataclass(slots=True)
class Form:
    text: str
    parts: list[Part]
    is_list: bool
    size: int


@dataclass(slots=True)
class KindSlots:
    kind: str
    offset: int
    forms: list[Form]
    size: int


def _part(text: str, rows: int, vocab: dict[str, tuple[str, ...]], kind: str) -> Part:
    if not (text.startswith("{") and text.endswith("}")):
        return Part(text, 1, words=(text,))
    body = text[1:-1]
    name, _, arg = body.partition(":")
    try:
        if "|" in body or (not arg and name not in ("entity", "bool")):
            words = tuple(body.split("|"))
            return Part(text, len(words), words=words)
        if name == "entity":
            return Part(text, rows)
        if name == "entities":
            k = int(arg)
            return Part(text, sum(_choose(rows, i) for i in range(1, k + 1)), radius=k)
        if name in ("vocab", "card"):
            if arg not in vocab:
                raise EnvError(f"decision {kind}: form part {text} names the vocabulary {arg!r}, which no "
                               f"observation of the ruleset declares (known: {', '.join(sorted(vocab)) or 'none'})")
            return Part(text, len(vocab[arg]), words=vocab[arg])
        if name == "bool":
            return Part(text, 2)
        if name in ("int", "nth"):
            return Part(text, int(arg))
        if name in ("xy", "hex"):
            radius, _, key = arg.partition("@")
            r = int(radius)
            return Part(text, (2 * r + 1) ** 2, width=2, key=key, radius=r)
    except ValueError:
        pass
    raise EnvError(f"decision {kind}: cannot read the form part {text!r} (see ecs_zombie.env.spec)")


def _choose(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def split_form(text: str) -> list[str]:
    """A text form's parts: split at each `:` outside braces (`give:{vocab:items}:{entity}`)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if ch == ":" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _form(form: str | tuple[str, ...], rows: int, vocab: dict[str, tuple[str, ...]], kind: str) -> Form:
    is_list = isinstance(form, tuple)
    texts = list(form) if isinstance(form, tuple) else split_form(form)
    parts = [_part(t, rows, vocab, kind) for t in texts]
    size = 1
    for p in parts:
        size *= p.size
    return Form(form if isinstance(form, str) else "[" + ", ".join(form) + "]", parts, is_list, size)


# -- a ruleset's layout -----------------------------------------------------------------------------


@dataclass(slots=True)
class Layout:
    """A ruleset's observation and action layout, composed from its packages' declarations."""

    ruleset: str
    rows: int
    entities: tuple[str, ...]
    columns: list[str]
    scalars: list[str]
    kinds: list[str]
    vocab: dict[str, tuple[str, ...]]
    slots: dict[str, KindSlots]
    actions: int
    concealed: list[Concealment]
    shaping: dict[str, float]
    focus: tuple[str, ...]
    sides: list[str] = field(default_factory=list)

    @property
    def table_size(self) -> int:
        return self.rows * len(self.columns)

    @property
    def size(self) -> int:
        return len(self.scalars) + self.table_size

    def describe_action(self, index: int) -> str:
        """What action `index` means (`kind form slot`), for people and docs."""
        for ks in self.slots.values():
            if ks.offset <= index < ks.offset + ks.size:
                local = index - ks.offset
                for form in ks.forms:
                    if local < form.size:
                        return f"{ks.kind} {form.text} #{local}"
                    local -= form.size
        raise EnvError(f"action {index} is outside 0..{self.actions - 1}")


GENERIC_COLUMNS = ("present", "focus")
GENERIC_SCALARS = ("tick", "seat", "team")


def ruleset_kinds(rs: Ruleset) -> list[str]:
    """Every decision kind a ruleset's systems (phases and steps) declare they may ask, sorted."""
    kinds: set[str] = set()
    for step in rs.scheduled():
        kinds.update(step.spec.decides)
    for step in rs.steps.values():
        kinds.update(step.spec.decides)
    return sorted(kinds)


def ruleset_sides(rs: Ruleset, kinds: list[str], players: int) -> list[str]:
    """The sides that answer the ruleset's decisions (`player:N` expanded to the seats), in a fixed
    order: players by seat, then the others by name."""
    from ecs_zombie.decisions import KINDS

    seats = False
    others: set[str] = set()
    for kind in kinds:
        known = KINDS.get(kind)
        if known is None:
            raise EnvError(f"decision {kind} of ruleset {rs.id!r} is not documented with decision_kind(), so "
                           f"the side that answers it is unknown")
        for side in (s.strip() for s in known.side.split("|")):
            if side.startswith("player:"):
                seats = True
            elif side:
                others.add(side)
    return [f"player:{i}" for i in range(players)] * seats + sorted(others)


def _vocab(value: tuple[str, ...] | str, rs: Ruleset, name: str) -> tuple[str, ...]:
    """A vocabulary's words: its own, with each `table:NAME` entry replaced by that table's keys."""
    out: list[str] = []
    for word in ((value,) if isinstance(value, str) else value):
        if word.startswith("table:"):
            table, _, attr = word.removeprefix("table:").partition("/")
            found = rs.tables.get(table)
            if attr:
                found = getattr(found, attr, None)
            if found is None or not hasattr(found, "keys"):
                raise EnvError(f"vocabulary {name!r}: {word!r} names no mapping table of ruleset {rs.id!r}")
            out += [str(k) for k in found.keys() if str(k) not in out]
        elif word not in out:
            out.append(word)
    return tuple(out)


def layout(rs: Ruleset, players: int = 1) -> Layout:
    """Compose the layout of ruleset `rs` from the declarations of its packages."""
    parts = [OBSERVATIONS[p] for p in rs.packages if p in OBSERVATIONS]
    if not parts:
        raise EnvError(f"ruleset {rs.id!r} declares no observation: one of its packages "
                       f"({', '.join(rs.packages)}) must call ecs_zombie.env.spec.observation(...)")
    entities: list[str] = []
    columns: list[str] = list(GENERIC_COLUMNS)
    scalars: list[str] = list(GENERIC_SCALARS)
    vocab: dict[str, list[str]] = {}
    shaping: dict[str, float] = {}
    focus: list[str] = []
    for part in parts:
        focus += [k for k in part.focus if k not in focus]
        entities += [e for e in part.entities if e not in entities]
        columns += [c for c in part.columns if c not in columns]
        scalars += [s for s in part.scalars if s not in scalars]
        for name, words in part.vocab.items():
            known = vocab.setdefault(name, [])
            known += [w for w in _vocab(words, rs, name) if w not in known]
        shaping.update(part.shaping)
    rows = max(p.rows + p.rows_per_player * (players - 1) for p in parts)
    frozen = {k: tuple(v) for k, v in vocab.items()}
    kinds = ruleset_kinds(rs)
    scalars += [f"asked:{k}" for k in kinds]
    slots: dict[str, KindSlots] = {}
    offset = 0
    for kind in kinds:
        forms = ACTIONS.get(kind)
        if not forms:
            raise EnvError(f"decision {kind} of ruleset {rs.id!r} has no action forms: declare them with "
                           f"ecs_zombie.env.spec.action_forms({kind!r}, ...) beside its decision_kind()")
        built = [_form(f, rows, frozen, kind) for f in forms]
        size = sum(f.size for f in built)
        slots[kind] = KindSlots(kind, offset, built, size)
        offset += size
    concealed = [c for c in CONCEALED if (rs.hidden and c.determinizer == rs.hidden) or c.package in rs.packages]
    if rs.hidden and not any(c.determinizer == rs.hidden for c in concealed):
        raise EnvError(f"ruleset {rs.id!r} hides information with {rs.hidden!r} but declares no conceals() for "
                       f"it: an observation would show what a side cannot see")
    out = Layout(rs.id, rows, tuple(entities), columns, scalars, kinds, frozen, slots, offset, concealed, shaping,
                 tuple(focus))
    out.sides = ruleset_sides(rs, kinds, players)
    return out


# -- options to slots -------------------------------------------------------------------------------


class Mapper:
    """Maps a pending decision's options to action indices, given the observation's rows."""

    def __init__(self, lay: Layout, rows: dict[int, int], world: Any) -> None:
        self.lay = lay
        self.rows = rows  # entity -> row
        self.world = world
        self.missing: object = None

    def slot(self, kind: str, option: Any, index: int, context: dict[str, Any]) -> int:
        ks = self.lay.slots.get(kind)
        if ks is None:
            raise EnvError(f"decision {kind} is not among ruleset {self.lay.ruleset!r}'s decision kinds "
                           f"(a system asks it without naming it in decides=)")
        local = 0
        self.missing = None
        for form in ks.forms:
            got = self._match(form, option, index, context)
            if got is not None:
                return ks.offset + local + got
            local += form.size
        if self.missing is not None:
            raise EnvError(f"option {option!r} of decision {kind}: entity {self.missing} is not among the "
                           f"observation's {self.lay.rows} rows (an entity a decision offers must be one the table "
                           f"shows: declare its component under entities=, or raise rows=)")
        forms = " | ".join(f.text for f in ks.forms)
        raise EnvError(f"option {option!r} of decision {kind} matches none of its action forms ({forms})")

    def _match(self, form: Form, option: Any, index: int, context: dict[str, Any]) -> int | None:
        if form.is_list:
            if not isinstance(option, list):
                return None
            values: list[Any] = option
        elif len(form.parts) > 1:
            if not isinstance(option, str):
                return None
            values = option.split(":")
        else:
            values = [option]
        pos = 0
        slot = 0
        for part in form.parts:
            if pos + part.width > len(values):
                return None
            got = self._part(part, values[pos] if part.width == 1 else values[pos:pos + part.width], index, context)
            if got is None:
                return None
            slot = slot * part.size + got
            pos += part.width
        return slot if pos == len(values) else None

    def _entity(self, value: Any) -> int | None:
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if type(value) is not int:
            return None
        row = self.rows.get(value)
        if row is None:
            self.missing = value  # reported if no other form takes the option
        return row

    def _part(self, part: Part, value: Any, index: int, context: dict[str, Any]) -> int | None:
        text = part.text
        if part.words and not text.startswith("{card:"):
            return part.words.index(value) if isinstance(value, str) and value in part.words else None
        if text == "{entity}":
            return self._entity(value)
        if text.startswith("{card:"):
            from ecs_zombie.components import Card

            if type(value) is not int:
                return None
            card = self.world.try_get(value, Card)
            if card is None or card.face not in part.words:
                return None
            return part.words.index(card.face)
        if text == "{bool}":
            return int(value) if type(value) is bool else None
        if text.startswith("{int:"):
            if isinstance(value, str) and value.isdigit():
                value = int(value)
            return value if type(value) is int and 0 <= value < part.size else None
        if text.startswith("{nth:"):
            return index if index < part.size else None
        if text.startswith("{entities:"):
            if not isinstance(value, list) or not 1 <= len(value) <= part.radius:
                return None
            rows = sorted(r for r in (self._entity(v) for v in value) if r is not None)
            if len(rows) != len(value) or len(set(rows)) != len(rows):
                return None
            return _combination_index(rows, self.lay.rows)
        if part.width == 2:
            return self._near(part, value, context)
        return None

    def _near(self, part: Part, value: Any, context: dict[str, Any]) -> int | None:
        if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
            return None
        centre = context.get(part.key)
        if type(centre) is int:
            from ecs_zombie.components import Position

            pos = self.world.try_get(centre, Position)
            if pos is None:
                return None
            cx, cy = pos.x, pos.y
        elif isinstance(centre, list | tuple) and len(centre) == 2:
            cx, cy = centre
        else:
            return None
        dx, dy, r = value[0] - cx, value[1] - cy, part.radius
        if not (-r <= dx <= r and -r <= dy <= r):
            raise EnvError(f"{value} is {max(abs(dx), abs(dy))} from the decision's {part.key} {[cx, cy]}, beyond "
                           f"the {r} its form {part.text} covers")
        return (dy + r) * (2 * r + 1) + dx + r


def _combination_index(rows: list[int], n: int) -> int:
    """The index of a sorted set of rows among all sets of its size and smaller (size 1 first)."""
    k = len(rows)
    base = sum(_choose(n, i) for i in range(1, k))
    # the rank of the combination among all k-subsets of range(n), in lexicographic order
    rank = 0
    prev = -1
    for i, r in enumerate(rows):
        for skipped in range(prev + 1, r):
            rank += _choose(n - skipped - 1, k - i - 1)
        prev = r
    return base + rank

