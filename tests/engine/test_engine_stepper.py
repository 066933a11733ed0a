"""A game answered from outside, one decision at a time, is the same game as one played by policies."""

from __future__ import annotations

import pytest

from ecs_zombie import new_game
from ecs_zombie.decisions import PolicyTable, ScriptedPolicy
from ecs_zombie.errors import DecisionError
from ecs_zombie.rng import derive
from ecs_zombie.ruleset import list_rulesets
from ecs_zombie.snapshot import state_bytes
from ecs_zombie.stepper import Stepper


@pytest.mark.parametrize("ruleset", [rid for rid, _ in list_rulesets()])
def test_outside_answers_replay_exactly(ruleset: str) -> None:
    chooser = derive(5, "outside")  # an "agent" with its own randomness, outside the game
    stepper = Stepper(new_game(ruleset, 3))
    answers = []
    while not stepper.done:
        index = chooser.below(len(stepper.legal()))
        answers.append(index)
        stepper.answer(index)
    again = new_game(ruleset, 3)
    again.play(ScriptedPolicy(answers))
    assert state_bytes(again) == state_bytes(stepper.game)
    stepper.game.close()
    again.close()


def test_only_some_sides_are_asked() -> None:
    stepper = Stepper(new_game("shambling", 4), auto=PolicyTable("heuristic"), sides={"narrator"})
    seen = set()
    while not stepper.done:
        assert stepper.pending is not None
        seen.add(stepper.pending.side)
        stepper.answer(0)
    assert seen == {"narrator"}
    with pytest.raises(DecisionError):
        stepper.answer(0)
    stepper.game.close()


@pytest.mark.parametrize("answer", ["0", 0.0, None, True, -1, 99])
def test_an_answer_that_is_no_option_index_is_a_decision_error(answer: object) -> None:
    """Whatever an outside answerer sends, a wrong answer is a DecisionError (never a TypeError)."""
    stepper = Stepper(new_game("shambling", 4), auto=PolicyTable("heuristic"), sides={"narrator"})
    assert stepper.pending is not None
    with pytest.raises(DecisionError):
        stepper.answer(answer)  # type: ignore[arg-type]
    stepper.game.close()
