"""The engine's own guarantees, each shown to fail when broken: heavy replay verification really
saves and reloads, a ruleset's hard stop ends the game at exactly its last tick, and the engine's
own events (`new_game`, `tick`, `roll`, `draw`, `shuffle`, `decision`, `game_over`) carry the
fields replays and debugging read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import Game, new_game
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.components import Card, Kind
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import DecisionError, GameError
from ecs_zombie.replay import Recorder, verify
from ecs_zombie.rng import derive
from ecs_zombie.ruleset import list_rulesets
from tests.engine.planted_systems import with_planted
from tests.helpers import drive, force

RULESETS = [rid for rid, _ in list_rulesets()]


# -- heavy verification ---------------------------------------------------------------------------


def _first_system(game: Game) -> str:
    return game.ruleset.phases[0][1][0].spec.name


def _recorded(ruleset: str, seed: int) -> tuple[Game, Any]:
    game = new_game(ruleset, seed)
    recorder = Recorder(game)
    game.play(PolicyTable("heuristic"))
    return game, recorder.replay(game)


@pytest.mark.parametrize("ruleset", ["shambling", "director"])
def test_heavy_verification_catches_state_kept_outside_the_components(ruleset: str, tmp_path: Path) -> None:
    """A rule that keeps a counter outside the components (`planted.outside_counter`, run first):
    a plain re-run starts the counter afresh just as the recording did and matches it; only the
    save and reload after every tick (heavy) shows the state that a save loses, at tick 2, naming
    the system that logged differently."""
    game, replay = _recorded(with_planted(ruleset, tmp_path, "planted.outside_counter"), 3)
    assert game.tick >= 3
    first = _first_system(game)
    assert verify(replay) is None
    found = verify(replay, heavy=True)
    assert found is not None
    # the first event that differs names the system; the state's difference follows, field by field
    assert (found.tick, found.system, found.reason) == (2, first, "events differ")
    event, entity = found.differences[:2]
    assert event.startswith("event ") and "'count': 2" in event and "'count': 1" in event
    assert entity.endswith("Kind.name: 'outside-2' → 'outside-1'")
    game.close()


def test_heavy_verification_passes_a_game_whose_state_is_all_in_components() -> None:
    """The same games without the outside counter verify heavily (the check above is the counter's
    doing, not a false alarm)."""
    for ruleset in ("shambling", "director"):
        game, replay = _recorded(ruleset, 3)
        assert verify(replay, heavy=True) is None
        game.close()


def test_heavy_verification_catches_state_changed_by_a_reload(monkeypatch: pytest.MonkeyPatch) -> None:
    """A component that does not come back from its save as it went in (here: a reload that drops
    the last marker of a Kind name) is named at the first tick, with the entity that differs."""
    import ecs_zombie.snapshot as snapshot

    real_restore = snapshot.restore
    game, replay = _recorded("shambling", 2)
    game.close()

    def lossy(state: dict[str, Any]) -> Game:
        restored = real_restore(state)
        if restored.tick >= 1:  # the initial snapshot loads as it should; every tick's reload loses a letter
            ent, kind = restored.world.query1(Kind)[0]
            restored.world.add(ent, Kind(kind.name[:-1]))
        return restored

    monkeypatch.setattr("ecs_zombie.replay.restore", lossy)
    found = verify(replay, heavy=True)
    assert found is not None
    assert found.tick == 1 and found.reason == "state changed across save and reload"
    assert any(d.startswith("entity ") and "Kind" in d for d in found.differences), found.differences


# -- the hard stop ------------------------------------------------------------------------------


def _with_max_ticks(tmp_path: Path, ruleset: str, n: int) -> str:
    """The ruleset's file with `max_ticks: n` (nothing else changed), and its default scenario
    pointing at that file; returns the scenario's path."""
    text = (PREFABS_DIR / "rulesets" / f"{ruleset}.yaml").read_text(encoding="utf-8")
    text, count = re.subn(r"(?m)^max_ticks: \d+$", f"max_ticks: {n}", text)
    assert count == 1
    folder = tmp_path / f"max{n}"
    folder.mkdir(exist_ok=True)
    rs_file = folder / f"{ruleset}.yaml"
    rs_file.write_text(text, encoding="utf-8")
    scenario_rel = re.search(r"(?m)^default_scenario: (\S+)$", text)
    assert scenario_rel is not None
    scenario = (PREFABS_DIR / scenario_rel.group(1)).read_text(encoding="utf-8")
    scenario, count = re.subn(rf"(?m)^ruleset: {re.escape(ruleset)}$", f"ruleset: {rs_file}", scenario)
    assert count == 1
    scenario_file = folder / "scenario.yaml"
    scenario_file.write_text(scenario, encoding="utf-8")
    return str(scenario_file)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("n", [1, 2])
def test_max_ticks_n_ends_the_game_at_tick_n(tmp_path: Path, ruleset: str, n: int) -> None:
    """`max_ticks: N` is "a hard stop (outcome "timeout")": tick N is played and the game ends with
    it, "timeout" logged at tick N; it is not over after tick N - 1, and never reaches tick N + 1."""
    game = new_game(_with_max_ticks(tmp_path, ruleset, n), 1)
    assert game.ruleset.max_ticks == n
    game.play(stop_after=n - 1)
    assert not game.over and game.tick == n - 1
    game.play()
    assert (game.tick, game.over, game.outcome) == (n, True, "timeout")
    assert game.events[-1][:3] == (n, "game_over", {"outcome": "timeout"})
    assert [e for e in game.events if e[1] == "tick"][-1] == (n, "tick", {"tick": n}, "")
    game.close()


def test_the_hard_stop_is_logged_by_no_system(tmp_path: Path) -> None:
    """An event's path is "the system that logged the event" (ecs_zombie/game.py, Event): the
    timeout comes from the tick loop itself, like `tick`, so its path is empty."""
    game = new_game(_with_max_ticks(tmp_path, "shambling", 1), 1)
    game.play()
    assert game.events[-1] == (1, "game_over", {"outcome": "timeout"}, "")
    game.close()


def test_a_game_won_at_the_last_tick_keeps_its_outcome(tmp_path: Path) -> None:
    """The hard stop is for a game still running after its last tick: one that a rule ends during
    that tick (`planted.end_at`, first) keeps the rule's outcome, and game_over is logged once; the
    systems after the ending one in that tick do not run (`planted.after` logs only at tick 1)."""
    game = new_game(with_planted("shambling", tmp_path, "planted.end_at", "planted.after", max_ticks=2,
                                 params={"tick": 2}), 1)
    game.play()
    assert (game.tick, game.outcome) == (2, "survivors")
    assert [e for e in game.events if e[1] == "game_over"] == [(2, "game_over", {"outcome": "survivors"},
                                                                "planted.end_at")]
    assert [e[0] for e in game.events if e[1] == "after_ran"] == [1]
    assert [e for e in game.events if e[0] == 2][-1][1] == "game_over"
    game.close()


# -- the engine's events ------------------------------------------------------------------------


def test_new_game_event(make_game: Any) -> None:
    game = make_game("shambling", 7, players=2)
    assert game.events == [(0, "new_game", {"seed": 7, "ruleset": "shambling", "players": 2}, "")]


def test_tick_event_opens_every_tick(make_game: Any) -> None:
    game = make_game("shambling", 7)
    game.play(stop_after=2)
    ticks = [(i, e) for i, e in enumerate(game.events) if e[1] == "tick"]
    assert [e for _, e in ticks] == [(1, "tick", {"tick": 1}, ""), (2, "tick", {"tick": 2}, "")]
    assert ticks[0][0] == 1  # right after new_game
    assert all(e[0] == 1 for e in game.events[ticks[0][0]:ticks[1][0]])  # tick 1's events carry tick 1


def test_roll_event_with_forced_dice(make_game: Any) -> None:
    """A forced roll logs the notation, each die (modifier not applied) and the reason; the total
    adds the modifier."""
    game = make_game("shambling", 1)
    force(game, dice=[3, 5, 2])
    assert game.roll("2d6+1", "test bite") == 9
    assert game.roll_dice("1d6", "second") == [2]
    assert game.events[1:] == [(0, "roll", {"dice": "2d6+1", "values": [3, 5], "why": "test bite"}, ""),
                               (0, "roll", {"dice": "1d6", "values": [2], "why": "second"}, "")]


def test_roll_event_from_the_seeded_stream(make_game: Any) -> None:
    """Unforced dice come from the game's `dice` stream, derived from the seed: seed 1's first d6s
    are the pinned 5, 5, 3, 1 (test_engine_rng_dice.PINNED_D6); another stream is another sequence."""
    game = make_game("shambling", 1)
    assert game.roll_dice("3d6", "stream") == [5, 5, 3]
    assert game.roll("1d6-1", "modified") == 0
    other = derive(1, "other")
    assert game.roll_dice("2d10", "elsewhere", stream="other") == [1 + other.below(10), 1 + other.below(10)]
    assert game.events[-1] == (0, "roll", {"dice": "2d10", "values": game.events[-1][2]["values"],
                                           "why": "elsewhere"}, "")


def test_a_forced_die_out_of_range_is_a_script_error(make_game: Any) -> None:
    from ecs_zombie.errors import ScriptError

    game = make_game("shambling", 1)
    force(game, dice=[7])
    with pytest.raises(ScriptError, match="impossible for a d6"):
        game.roll("1d6", "too high")


def test_draw_event_and_the_card_moves_to_the_discard_pile(make_game: Any) -> None:
    game = make_game("shambling", 1)
    _, deck = game.deck("shambling")
    before = len(deck.draw)
    force(game, cards=["7H"])
    ent, card = game.draw(deck, "test draw")
    assert card.face == "7H" and game.world.get(ent, Card).face == "7H"
    assert deck.discard == [ent] and len(deck.draw) == before - 1 and ent not in deck.draw
    assert game.events[-1] == (0, "draw", {"deck": "shambling", "card": "7H", "why": "test draw"}, "")
    top = deck.draw[-1]
    ent2, _ = game.draw(deck, "unforced")  # unforced: the top of the draw pile
    assert ent2 == top and deck.discard == [ent, top]


def test_a_scripted_card_not_in_the_draw_pile_is_a_script_error(make_game: Any) -> None:
    from ecs_zombie.errors import ScriptError

    game = make_game("shambling", 1)
    _, deck = game.deck("shambling")
    force(game, cards=["7H"])
    game.draw(deck, "first")
    force(game, cards=["7H"])
    with pytest.raises(ScriptError, match="7H is not in the draw pile"):
        game.draw(deck, "again")
    with pytest.raises(GameError, match="no deck 'nosuch'"):
        game.deck("nosuch")


def test_shuffle_event_and_order(make_game: Any) -> None:
    """Shuffling gathers the discard pile into the draw pile, sorts it, and applies Fisher-Yates from
    the last position down with the deck's own stream `deck/<name>` (ecs_zombie/rng.py)."""
    game = make_game("shambling", 4)
    _, deck = game.deck("shambling")
    for _ in range(5):
        game.draw(deck, "to discard")
    everything = sorted(deck.draw + deck.discard)
    game.shuffle(deck, "test shuffle")
    assert deck.discard == []
    expected = list(everything)
    stream = derive(4, "deck/shambling")
    for i in range(len(expected) - 1, 0, -1):
        j = stream.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert deck.draw == expected
    assert game.events[-1] == (0, "shuffle", {"deck": "shambling", "why": "test shuffle"}, "")


def test_an_empty_draw_pile_is_reshuffled_before_drawing(make_game: Any) -> None:
    game = make_game("shambling", 4)
    _, deck = game.deck("shambling")
    total = len(deck.draw)
    for _ in range(total):
        game.draw(deck, "empty it")
    assert deck.draw == [] and len(deck.discard) == total
    game.draw(deck, "one more")
    kinds = [e[1] for e in game.events[-2:]]
    assert kinds == ["shuffle", "draw"]
    assert game.events[-2][2] == {"deck": "shambling", "why": "draw pile empty"}
    assert len(deck.draw) == total - 1 and len(deck.discard) == 1


def test_decision_event(make_game: Any) -> None:
    """A decision with several options asks the side and logs side, kind, the chosen index and the
    option; a lone option is taken without asking or logging."""
    game = make_game("shambling", 1)
    got: list[Any] = []

    def steps() -> Any:
        got.append((yield from game.decide("player:0", "test.pick", ["a", "b", "c"], note=1)))
        got.append((yield from game.decide("player:0", "test.lone", ["only"])))

    asked = drive(game, steps(), answers={"test.pick": "b"})
    assert got == ["b", "only"]
    assert [(d.side, d.kind, d.options, d.context) for d in asked] == [("player:0", "test.pick", ["a", "b", "c"],
                                                                       {"note": 1})]
    assert game.events[1:] == [(0, "decision", {"side": "player:0", "kind": "test.pick", "choice": 1,
                                                 "option": "b"}, "")]


@pytest.mark.parametrize("answer", [-1, 3, True, "1", None])
def test_a_decision_answered_with_no_option_index_is_refused(make_game: Any, answer: Any) -> None:
    game = make_game("shambling", 1)
    steps = game.decide("player:0", "test.pick", ["a", "b", "c"])
    next(steps)
    with pytest.raises(DecisionError, match=r"not an option index 0\.\.2"):
        steps.send(answer)
    assert [e[1] for e in game.events] == ["new_game"]


def test_a_decision_without_options_is_an_error(make_game: Any) -> None:
    game = make_game("shambling", 1)
    with pytest.raises(GameError, match="offered no options"):
        next(game.decide("player:0", "test.none", []))


def test_game_over_event_is_logged_once(make_game: Any) -> None:
    """`end` declares the outcome once; a later `end` changes nothing."""
    game = make_game("shambling", 1)
    game.end("zombies")
    game.end("survivors")
    assert (game.over, game.outcome) == (True, "zombies")
    assert game.events[1:] == [(0, "game_over", {"outcome": "zombies"}, "")]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_events_logged_by_systems_carry_their_path(ruleset: str) -> None:
    """Inside a tick every event but `tick` names the step that logged it (a step run by another
    as `<caller>/<step>`); outside the tick loop the path is empty."""
    game = new_game(ruleset, 2, policy="random")
    assert game.events[0][3] == ""
    labels = {step.label for _, steps in game.ruleset.phases for step in steps}
    game.play(stop_after=3)
    inside = [e for e in game.events if e[0] >= 1]
    assert all(e[3] == "" for e in inside if e[1] == "tick")
    logged = [e for e in inside if e[1] not in ("tick", "game_over")]
    assert logged and all(e[3].split("/")[0] in labels for e in logged), {e[3] for e in logged} - labels
    assert {"roll", "decision"} & {e[1] for e in logged}
    game.close()


# -- new games --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "ok"), [(0, False), (1, True), (8, True), (9, False)])
def test_one_to_eight_players(players: int, ok: bool) -> None:
    if ok:
        game = new_game("shambling", 1, players=players)
        assert game.players == players and game.events[0][2]["players"] == players
        game.close()
    else:
        with pytest.raises(GameError, match=f"players must be 1..8, got {players}"):
            new_game("shambling", 1, players=players)


def test_a_new_game_takes_its_scripts_parameters_and_policy(make_game: Any) -> None:
    game = make_game("shambling", 3, dice=[6, 6], cards=["7h"], params={"combat_rounds": 2}, policy="random")
    assert game.dice_script.values == [6, 6] and game.card_script == ["7H"]
    assert game.params["combat_rounds"] == 2 and game.params["front_line_cap"] == 6
    assert game.policy_spec == "random" and game.tick == 0 and not game.over
    assert game.summary() == {"ruleset": "shambling", "scenario": game.scenario, "seed": 3, "outcome": None,
                              "turns": 0, **game.metrics()}
    with pytest.raises(GameError, match="unknown policy 'genius'"):
        new_game("shambling", 3, policy="genius")
    from ecs_zombie.errors import ScriptError

    with pytest.raises(ScriptError, match="card script entry 1: 'ZZ'"):
        new_game("shambling", 3, cards=["ZZ"])


def test_play_stops_after_the_asked_tick_and_calls_back(make_game: Any) -> None:
    game = make_game("shambling", 3)
    seen: list[int] = []
    game.play(stop_after=2, on_tick=lambda g: seen.append(g.tick))
    assert game.tick == 2 and seen == [1, 2]
    game.play(stop_after=2)
    assert game.tick == 2
    game.play(stop_after=3, on_tick=lambda g: seen.append(g.tick))
    assert seen == [1, 2, 3]


def test_an_unknown_step_is_a_game_error(make_game: Any) -> None:
    game = make_game("shambling", 3)
    with pytest.raises(GameError, match="ruleset 'shambling' has no step 'nosuch'"):
        next(game.run_step("nosuch", {}))
