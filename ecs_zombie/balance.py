"""Balance studies: a batch of games summarised, and a sweep of one parameter over a range.

The CLI calls these with a progress callback; tests call them directly.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from ecs_zombie.batch import STOP_SIGNALS, BatchSpec, check, run_batch, signal_of, stopping
from ecs_zombie.coverage import Coverage
from ecs_zombie.errors import GameError
from ecs_zombie.rows import RowWriter
from ecs_zombie.ruleset import Parameter
from ecs_zombie.scenario import load_scenario
from ecs_zombie.stats import Summary


@dataclass
class BatchResult:
    spec: BatchSpec
    metric_names: list[str]
    summary: Summary
    interrupted: bool = False
    sweep: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    signal: int | None = None  # what stopped the batch: SIGINT (Ctrl-C) or SIGTERM
    sweep_key: str | None = None  # the swept parameter
    coverage: Coverage | None = None  # with `BatchSpec.coverage`: decisions and events counted

    def to_dict(self) -> dict[str, Any]:
        out = {"target": self.spec.target, "seed": self.spec.seed, "policy": self.spec.policy,
               "players": self.spec.players, "params": self.spec.params, "interrupted": self.interrupted,
               "signal": signal.Signals(self.signal).name if self.signal else None, **self.summary.to_dict()}
        if self.coverage is not None:
            out["coverage"] = self.coverage.to_dict()
        if self.sweep_key is not None:
            out["swept"] = self.sweep_key
            out["sweep"] = [{"value": v, **s} for v, s in self.sweep]
        return out


def validated_params(target: str, params: dict[str, str]) -> dict[str, Any]:
    """Parameter overrides checked and typed against the ruleset before any game runs."""
    scenario = load_scenario(target)
    scenario.ruleset.params_with({**scenario.params, **params}, "--param")
    return {k: scenario.ruleset.parameters[k].check(v, "--param") for k, v in sorted(params.items())}


def columns(metric_names: list[str], params: list[str]) -> list[str]:
    return ["game", "seed", "outcome", "turns", *metric_names, *params, "error"]


def play_batch(spec: BatchSpec, workers: int = 1, backend: str = "local", address: str | None = None,
               out: RowWriter | None = None, progress: Callable[[int], None] | None = None,
               summary: Summary | None = None) -> BatchResult:
    """Run the batch, feeding rows in game order to the summary, the output file and `progress`.

    Ctrl-C (SIGINT) or SIGTERM stops it: the result holds the games finished so far, `interrupted`
    set and the signal named; no worker outlives the call."""
    metric_names = check(spec)
    result = BatchResult(spec, metric_names, summary or Summary(), coverage=Coverage() if spec.coverage else None)
    try:
        with stopping():
            for rows in run_batch(spec, workers, backend, address):
                with _whole():  # a chunk is counted and written entirely, or not at all
                    for row in rows:
                        counts = row.pop("coverage", None)  # summed here, not written per row
                        if counts is not None and result.coverage is not None:
                            result.coverage.add(counts)
                        result.summary.add(row, metric_names)
                    if out is not None:
                        out.write(rows)
                    if progress is not None:
                        progress(len(rows))
    except KeyboardInterrupt as exc:
        result.interrupted, result.signal = True, signal_of(exc)
    return result


@contextmanager
def _whole() -> Iterator[None]:
    """SIGINT or SIGTERM inside the block reaches the handler in force when the block ends. Only in
    the main thread (where signals arrive) and under a Python handler: an ignored signal stays
    ignored, and one left to its default action (termination) keeps it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    handled = [s for s, h in previous.items() if callable(h)]
    caught: list[int] = []
    for s in handled:
        signal.signal(s, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        for s in handled:
            signal.signal(s, previous[s])
    if caught:
        handler = previous[caught[0]]
        assert callable(handler)
        handler(caught[0], None)


def numeric_parameter(target: str, key: str, verb: str) -> Parameter:
    """The ruleset's int or float parameter `key`, which a sweep or a tune varies (`verb`: what is
    done to it, for the message when it cannot be)."""
    ruleset = load_scenario(target).ruleset
    param = ruleset.parameters.get(key)
    if param is None:
        known = ", ".join(sorted(ruleset.parameters)) or "none"
        raise GameError(f"unknown parameter {key!r} for ruleset {ruleset.id!r} (known: {known})")
    if param.type not in ("int", "float"):
        raise GameError(f"parameter {key!r} is {param.type}: only int and float parameters can be {verb}")
    return param


def sweep_values(spec_text: str, target: str) -> tuple[str, list[Any]]:
    """`KEY=START..STOP[:STEP]` -> the parameter's name and its values (inclusive of STOP)."""
    key, sep, rng = spec_text.partition("=")
    start_text, dots, rest = rng.partition("..")
    stop_text, _, step_text = rest.partition(":")
    if not sep or not dots or not key.strip():
        raise GameError(f"--param for a sweep takes KEY=START..STOP[:STEP], got {spec_text!r}")
    key = key.strip()
    param = numeric_parameter(target, key, "swept")
    start = param.check(start_text.strip(), "--param")
    stop = param.check(stop_text.strip(), "--param")
    step = param.check(step_text.strip(), "--param") if step_text.strip() else (1 if param.type == "int" else 0.1)
    if step <= 0 or stop < start:
        raise GameError(f"--param {key}: need START <= STOP and a positive STEP")
    values: list[Any] = []
    k = 0
    while True:
        value = start + k * step
        if value > stop + (1e-9 if param.type == "float" else 0):
            break
        values.append(round(value, 10) if param.type == "float" else value)
        k += 1
        if len(values) > 1000:
            raise GameError("a sweep is limited to 1000 values")
    return key, values


def play_sweep(spec: BatchSpec, key: str, values: list[Any], workers: int, backend: str, address: str | None,
               out_path: Path | IO[str] | None, progress: Callable[[int], None] | None = None,
               fmt: str | None = None) -> BatchResult:
    """The same batch (same game seeds) at each value of one parameter; rows to `out_path` (a file,
    or a stream in format `fmt`). Stopped by a signal as `play_batch` is."""
    metric_names = check(replace(spec, params={**spec.params, key: values[0]}))
    out = RowWriter(out_path, columns(metric_names, sorted({*spec.params, key})), fmt) if out_path is not None \
        else None
    result = BatchResult(spec, metric_names, Summary(), sweep_key=key)
    try:
        with stopping():
            for value in values:
                part = play_batch(replace(spec, params={**spec.params, key: value}), workers, backend, address, out,
                                  progress)
                with _whole():
                    result.sweep.append((value, part.summary.to_dict()))
                    result.summary.merge(part.summary)
                if part.interrupted:
                    result.interrupted, result.signal = True, part.signal
                    break
    except KeyboardInterrupt as exc:  # between two values
        result.interrupted, result.signal = True, signal_of(exc)
    finally:
        if out is not None:
            out.close()
    return result
