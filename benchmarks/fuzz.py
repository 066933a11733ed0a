"""A fuzz campaign over everything a user hands ecs-zombie: saves, replays, YAML files, arguments.

    python benchmarks/fuzz.py [--variants 20000] [--families save,replay,yaml,args] [--seed 1]
                              [--workers 1] [--seconds 5] [--memory-mb 1024] [--out fuzz.jsonl]
    python benchmarks/fuzz.py --report fuzz.jsonl

Variants are made by `tests/fuzzing.py` (structure-aware: real files of every ruleset, decoded,
mutated, encoded with checksums recomputed) and run through the command in worker processes, each
under a deadline and an address-space cap; a worker that stops answering is killed and its variant
counted as a hang. Every variant is judged: exit status 0, 1 or 2; on 2, one `error:` line per
error; no traceback; no hang; no memory blow-up. For YAML, a variant that `validate` accepts must
also `run` to exit 0. The counts are printed per family and command, with the first examples of
each problem; `--out` keeps every variant's verdict as JSON lines, written as it comes, and
`--report FILE` prints the report of such a file (of a campaign stopped part way, too). Variant i of a campaign seeded S
is the same on every run (`--only I` runs one again and prints it).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import measured  # noqa: F401  (the checkout first on the import path)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FAMILIES = ("save", "replay", "yaml", "args")


def _label(arg: str) -> str:
    """An argument as the report shows it: a path in the worker's scratch folder by its name."""
    if arg.startswith(tempfile.gettempdir()):
        return Path(arg).name
    return arg if len(arg) < 60 else arg[:57] + "..."


# -- the worker -----------------------------------------------------------------------------------


class Worker:
    """Runs variants in this process: real files made once, each variant in a fresh folder."""

    def __init__(self, seconds: float, memory_mb: float) -> None:
        from ecs_zombie.ruleset import list_rulesets
        from tests import fuzzing

        self.f = fuzzing
        self.seconds, self.memory_mb = seconds, memory_mb
        self.rulesets = [rid for rid, _ in list_rulesets()]
        self.home = Path(tempfile.mkdtemp(prefix="ecs-zombie-fuzz-"))
        self.saves: list[tuple[str, bytes]] = []
        self.replays: list[tuple[str, bytes]] = []
        self._real_files()
        self.data = self.home / "data"
        fuzzing.layout(self.data)
        self.yaml_paths = fuzzing.yaml_files(self.data)

    def _real_files(self) -> None:
        from ecs_zombie import new_game
        from ecs_zombie.replay import Recorder
        from ecs_zombie.snapshot import save, write_atomic

        for rid in self.rulesets:
            for seed, stop in ((1, 1), (2, 3)):
                game = new_game(rid, seed, policy="random")
                game.play(stop_after=stop)
                self.saves.append((rid, save(game, self.home / "real.msgpack")))
                game.close()
            game = new_game(rid, 3, policy="random")
            rec = Recorder(game)
            game.play(stop_after=6)
            data = rec.to_bytes(game)
            write_atomic(self.home / "real.replay", data)
            self.replays.append((rid, data))
            game.close()

    def run(self, family: str, seed: int, index: int) -> dict[str, Any]:
        ch = self.f.RandomChooser(random.Random(f"{seed}/{family}/{index}"))
        folder = self.home / "v"
        folder.mkdir(exist_ok=True)
        for old in folder.iterdir():
            if old.is_file():
                old.unlink()
        return getattr(self, family)(ch, folder)

    def _run(self, args: list[str], folder: Path, fresh: bool = False) -> tuple[Any, Any]:
        outcome = self.f.run_command(args, folder, self.seconds, self.memory_mb, fresh)
        return outcome, self.f.judge(outcome, self.seconds)

    def _report(self, what: dict[str, Any], args: list[str], outcome: Any, verdict: Any) -> dict[str, Any]:
        return {**what, "command": " ".join(_label(a) for a in args[:2]),
                "code": outcome.code, "problem": verdict.problem, "detail": verdict.detail,
                "error": self.f.error_line(outcome)[:200], "seconds": round(outcome.seconds, 3),
                "peak_mb": round(outcome.peak_mb), **({"trace": outcome.trace[-2500:]} if outcome.trace else {})}

    def save(self, ch: Any, folder: Path) -> dict[str, Any]:
        rid, data = self.f.pick(ch, self.saves)
        variant, done = self.f.mutate_save(ch, data)
        path = folder / "s.msgpack"
        path.write_bytes(variant)
        (folder / "real.msgpack").write_bytes(data)
        command = self.f.pick(ch, [["inspect", str(path)], ["inspect", str(path), "--json"],
                                   ["resume", str(path)], ["resume", str(path), "--json"],
                                   ["diff", str(folder / "real.msgpack"), str(path)]])
        outcome, verdict = self._run(command, folder)
        return self._report({"family": "save", "ruleset": rid, "mutations": done}, command, outcome, verdict)

    def replay(self, ch: Any, folder: Path) -> dict[str, Any]:
        rid, data = self.f.pick(ch, self.replays)
        variant, done = self.f.mutate_save(ch, data)
        path = folder / "r.replay"
        path.write_bytes(variant)
        command = self.f.pick(ch, [["inspect", str(path)], ["inspect", str(path), "--json"],
                                   ["inspect", str(path), "--tick", "2"], ["replay", str(path), "--verify"],
                                   ["replay", str(path)], ["replay", str(path), "--verify", "--heavy"],
                                   ["events", str(path)]])
        outcome, verdict = self._run(command, folder)
        return self._report({"family": "replay", "ruleset": rid, "mutations": done}, command, outcome, verdict)

    def yaml(self, ch: Any, folder: Path) -> dict[str, Any]:
        target = self.f.pick(ch, self.yaml_paths)
        original = target.read_text()
        variant, done = self.f.mutate_yaml(ch, original)
        try:
            target.write_text(variant)
            rel = target.relative_to(self.data)
            if rel.parent == Path("."):
                checked = [target]  # a ruleset: with its default scenario
            elif rel.parts[0] == "scenarios":
                checked = [target]
            else:  # a table or prefab file: the rulesets of the copy that name it
                checked = [p for p in self.data.glob("*.yaml") if rel.as_posix() in p.read_text()] or [target]
            main = self.f.pick(ch, checked)
            what = {"family": "yaml", "file": rel.as_posix(), "mutations": done}
            command = ["validate", str(main)]
            outcome, verdict = self._run(command, folder, fresh=True)
            report = self._report(what, command, outcome, verdict)
            # `run` plays what validate checked as playable: a scenario, or a ruleset with its
            # default scenario ("prefabs ok", "table ... ok" and a ruleset without one are not games).
            playable = "scenario ok" in outcome.stdout or "with its default scenario" in outcome.stdout
            if not verdict.problem and outcome.code == 0 and playable:
                command = ["run", str(main), "--seed", str(ch.below(1000))]
                played, played_verdict = self._run(command, folder, fresh=True)
                report["played"] = played.code
                if played_verdict.problem or played.code != 0:
                    report = self._report(what, command, played, played_verdict)
                    report["problem"] = report["problem"] or "validate ok, run failed"
            return report
        finally:
            target.write_text(original)

    def args(self, ch: Any, folder: Path) -> dict[str, Any]:
        f = self.f
        rid = f.pick(ch, self.rulesets)
        options: list[list[str]] = [
            ["--seed", f.pick(ch, ["0", "-1", str(2**63), str(2**64 - 1), str(2**64), str(10**30), "1e3", "٣"])],
            ["--dice", f.pick(ch, ["6,1,1", "0", "7", "²", "٣", "1,,2", "-1", "1" * 30, "1," * 5000, "x"])],
            ["--cards", f.pick(ch, ["7H,JK", "ZZ", "", ",", "jk", "10S" * 20])],
            ["--players", f.pick(ch, ["0", "1", "2", "4", "8", "9", "-1", str(2**70)])],
            ["--policy", f.pick(ch, ["random", "narrator=random", "player:0=random", "nobody=random",
                                     "random,zombies=first", "gm=first", "party=heuristic", "=", ",,", "random:x=1"])],
            ["--param", f.pick(ch, ["front_line_cap=10", "front_line_cap=99999999999999999999", "max_ticks=1",
                                    "scenario_turn_limit=1", "x=1", "=", "front_line_cap=nan"])],
            ["--stop-after", f.pick(ch, ["0", "1", "-1", str(2**63)])],
            ["--save", f.pick(ch, ["s.msgpack", "./s.msgpack", "/dev/null/x", "", "\x00"])],
        ]
        chosen = [options[i] for i in sorted({ch.below(len(options)) for _ in range(1 + ch.below(3))})]
        command = ["run", rid] + [a for o in chosen for a in o]
        if ch.below(5) == 0:
            command = ["batch", rid, "--games", f.pick(ch, ["0", "1", "-1", "3"]), "--quiet",
                       *f.pick(ch, [[], ["--plot", "p.png"], ["--out-file", "r.csv"], ["--out-file", "r.txt"],
                                    ["--workers", "0"], ["--backend", "nope"]]), *chosen[0]]
        outcome, verdict = self._run(command, folder)
        return self._report({"family": "args", "ruleset": rid}, command, outcome, verdict)


def worker_main(args: argparse.Namespace) -> None:
    worker = Worker(args.seconds, args.memory_mb)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        family, index = line.split()
        try:
            report = worker.run(family, args.seed, int(index))
        except BaseException as exc:  # the harness's own failure: reported, the worker goes on
            report = {"family": family, "problem": "harness", "detail": f"{type(exc).__name__}: {exc}"[:300]}
        report["index"] = int(index)
        print(json.dumps(report, default=str), flush=True)


# -- the parent -----------------------------------------------------------------------------------


class Child:
    def __init__(self, args: argparse.Namespace) -> None:
        command = [sys.executable, __file__, "--worker", "--seed", str(args.seed), "--seconds", str(args.seconds),
                   "--memory-mb", str(args.memory_mb)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                                     preexec_fn=lambda: os.nice(10))
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        first = self.lines.get(timeout=600)
        assert json.loads(first).get("ready"), first

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def ask(self, family: str, index: int, timeout: float) -> dict[str, Any] | None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{family} {index}\n")
        self.proc.stdin.flush()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return json.loads(line) if line else None

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", type=int, default=20_000)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5.0, help="deadline of one command")
    parser.add_argument("--memory-mb", type=float, default=1024, help="address space one command may add")
    parser.add_argument("--out", help="every verdict as JSON lines")
    parser.add_argument("--only", type=int, help="run variant I of each family again and print it")
    parser.add_argument("--report", metavar="FILE", help="print the report of an earlier --out file (a campaign "
                        "stopped part way reports the variants it finished)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args)
        return
    if args.report:
        lines = Path(args.report).read_text().splitlines()
        done = [json.loads(line) for line in lines if line.strip()]
        report(sorted(done, key=lambda r: (r.get("family", ""), r.get("index", 0))), None)
        return
    families = [f for f in args.families.split(",") if f]
    jobs: queue.Queue[tuple[str, int]] = queue.Queue()
    indexes = [args.only] if args.only is not None else range(args.variants)
    for i in indexes:
        jobs.put((families[i % len(families)] if args.only is None else families[0], i))
    results: list[dict[str, Any]] = []
    lock = threading.Lock()
    start = time.perf_counter()
    # Every verdict is written as it comes, so that a campaign stopped part way keeps what it did.
    out = open(args.out, "w", buffering=1) if args.out else None  # closed after the workers

    def drive() -> None:
        child = Child(args)
        while True:
            try:
                family, index = jobs.get_nowait()
            except queue.Empty:
                break
            report = child.ask(family, index, timeout=max(60.0, 4 * args.seconds))
            if report is None:  # stuck past its own deadline, or died: a hang, and a new worker
                child.kill()
                report = {"family": family, "index": index, "problem": "hang", "detail": "worker killed"}
                child = Child(args)
            with lock:
                results.append(report)
                if out is not None:
                    out.write(json.dumps(report, default=str) + "\n")
                if len(results) % 500 == 0:
                    rate = len(results) / (time.perf_counter() - start)
                    print(f"  {len(results)} variants, {rate:.1f}/s", file=sys.stderr, flush=True)
        child.kill()

    threads = [threading.Thread(target=drive) for _ in range(max(1, args.workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.sort(key=lambda r: (r.get("family", ""), r.get("index", 0)))
    if out is not None:
        out.close()
    if args.only is not None:
        for r in results:
            trace = r.pop("trace", "")
            print(json.dumps(r, indent=2, default=str))
            print(trace)
        return
    report(results, time.perf_counter() - start)


def report(results: list[dict[str, Any]], seconds: float | None) -> None:
    print(f"{len(results)} variants" + (f" in {seconds:.0f} s" if seconds is not None else ""))
    by: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    for r in results:
        key = (r.get("family", "?"), r.get("command", "?"))
        by[key]["variants"] += 1
        by[key][f"exit {r.get('code')}"] += 1
        if r.get("problem"):
            by[key][r["problem"]] += 1
            if len(examples[r["problem"]]) < 8:
                examples[r["problem"]].append(f"{r.get('family')} #{r.get('index')} {r.get('command', '')}: "
                                              f"{r.get('detail') or r.get('error')} ({r.get('mutations', '')})")
    for (family, command), counts in sorted(by.items()):
        cells = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "variants")
        print(f"{family:7} {command[:20]:20} {counts['variants']:6} variants: {cells}")
    problems = Counter(r["problem"] for r in results if r.get("problem"))
    print("problems:", dict(problems) or "none")
    caught = sum(1 for r in results if "the game it holds fails in" in (r.get("error") or ""))
    print(f"loaded, then failed in a rule (one line, exit 2 or a divergence): {caught}")
    yaml_ok = sum(1 for r in results if r.get("family") == "yaml" and r.get("played") == 0)
    print(f"yaml variants that validate accepted and run played: {yaml_ok}")
    peak = max((r.get("peak_mb", 0) for r in results), default=0)
    slowest = max((r.get("seconds", 0) for r in results), default=0)
    print(f"slowest command {slowest:.2f} s; highest peak resident memory {peak} MB")
    for problem, lines in sorted(examples.items()):
        print(f"-- {problem}")
        for line in lines:
            print("   " + line)


if __name__ == "__main__":
    main()
