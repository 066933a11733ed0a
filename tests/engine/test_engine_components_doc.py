"""docs/components.md is generated from the code (tools/components_doc.py): it must be what the
script writes now, so that a component, a field, a range or a system's declared access cannot
change without the reference changing with it."""

from __future__ import annotations

from tools.components_doc import PAGE, render


def test_the_components_reference_is_current() -> None:
    assert PAGE.read_text() == render(), "docs/components.md is stale: run python tools/components_doc.py"


def test_the_reference_states_the_shared_conventions() -> None:
    """Issue 11, point 6: one damage convention (taken against limit), one side vocabulary
    (survivors / zombies), a position that knows its board (square or hex)."""
    text = render()
    for needle in ("`taken` counts up from 0 against what the figure can take, `limit`",
                   "  - `survivors`: director", "  - `zombies`: director",
                   "`grid` is `square`", "  - `hex`: director", "## Intensity", "## PacerState"):
        assert needle in text
