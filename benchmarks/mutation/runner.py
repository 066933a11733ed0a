"""A pre-forking pytest runner for benchmarks/mutation.py: started once per job in its scratch copy,
it imports pytest and the heavy third-party libraries once, then runs each mutant's tests in a
forked child (a fresh `pytest.main`), so that a mutant costs its tests, not an interpreter start.

Nothing of the checkout is imported here: each child imports the (mutated) code afresh.

Protocol, one JSON object per line: the tool writes {"args": [...], "out": FILE, "memory_mb": N};
the runner answers {"pid": P} when the child starts and {"status": S} when it ends (S: the exit
status, or minus the signal that killed it). The tool kills the child's process group on timeout.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import traceback


def _preload() -> None:
    import contextlib

    for name in ("pytest", "_pytest.python", "_pytest.assertion.rewrite", "hypothesis", "msgpack", "ormsgpack",
                 "yaml", "esper", "typer", "typer.testing", "rich", "click", "coverage"):
        with contextlib.suppress(ImportError):
            __import__(name)


def _child(request: dict[str, object]) -> None:
    try:
        os.setsid()
        # Ctrl-C as in any Python program (KeyboardInterrupt: the tests of Ctrl-C handling send it to
        # themselves); SIG_DFL here would kill the child outright, as no exec follows the fork.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as from a terminal, even under nohup
        limit = int(request.get("memory_mb", 0)) * 1024 * 1024  # type: ignore[call-overload]
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        fd = os.open(str(request["out"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.stdin.close()
        import pytest

        args = [str(a) for a in request["args"]]  # type: ignore[attr-defined]
        sys.argv = ["pytest", *args]
        code = int(pytest.main(args))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    except BaseException:  # the child must never return into the loop
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(99)


def main() -> None:
    sys.path[0] = os.getcwd()  # as `python -m pytest` has it: the scratch copy first, not this folder
    _preload()
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        out.write(json.dumps({"pid": pid}) + "\n")
        out.flush()
        _, status = os.waitpid(pid, 0)
        out.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
