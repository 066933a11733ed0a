"""Preloaded into the worker processes of the local Dask cluster a batch starts (`batch.run_dask`).

Signals are the batch process's business, as with the local pool's workers: a Ctrl-C or a SIGTERM
sent to the whole process group must not stop a worker mid-chunk (with a traceback), since the
batch closes the cluster itself, and the nannies stop their workers (killing any that lingers).
Cancelled work and a scheduler gone first are expected then: Dask's own log is not shown (a game
that fails is a row with its error; a worker that dies fails the batch in the parent).
"""

from __future__ import annotations

import logging
import signal
from typing import Any


def dask_setup(worker: Any) -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
