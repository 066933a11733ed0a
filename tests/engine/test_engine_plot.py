"""What the plots show (ecs_zombie/plot.py; README, "Outputs"): for a batch, game length with the
outcomes stacked and the main metric's distribution (a log axis when one value holds most games);
for a sweep, each outcome's rate against the parameter with its Wilson band. Every title says what
the figure shows. The figure is read back from matplotlib before it is saved; the suffix chooses
the format."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ecs_zombie import plot
from ecs_zombie.errors import GameError
from ecs_zombie.stats import Summary
from tests.helpers import ROOT

pytest.importorskip("matplotlib")


@pytest.fixture
def figures(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The figures the plots draw, kept open for the test to read, and closed after it."""
    saved: list[Any] = []
    real = plot._save

    def keep(fig: Any, plt: Any, path: Path) -> None:
        saved.append(fig)
        real(fig, type("NoClose", (), {"close": staticmethod(lambda f: None)}), path)

    monkeypatch.setattr(plot, "_save", keep)
    yield saved
    import matplotlib.pyplot as plt

    for fig in saved:
        plt.close(fig)


def summary() -> Summary:
    s = Summary()
    for outcome, turns, kills in [("survivors", 10, 3), ("zombies", 4, 1), ("survivors", 10, 5), ("zombies", 6, 3)]:
        s.add({"seed": 0, "outcome": outcome, "turns": turns, "kills": kills}, ["kills"])
    return s


def bars(ax: Any) -> list[tuple[int, float, float]]:
    """Each bar as (centre, bottom, height)."""
    return sorted((round(p.get_x() + p.get_width() / 2), p.get_y(), p.get_height()) for c in ax.containers
                  for p in c.patches)


def test_a_batch_plot(tmp_path: Path, figures: list[Any]) -> None:
    path = tmp_path / "deep" / "b.png"
    plot.batch_plot(summary(), "kills", "shambling, 4 games", path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = figures[0]
    left, right = fig.axes
    # the sizes chosen by looking at the figures: two panels 12 x 5.4 inches, the left the wider
    assert tuple(fig.get_size_inches()) == (12, 5.4)
    assert left.get_position().width / right.get_position().width == pytest.approx(1.25)
    # 2 of 4 games each: 50%, and Wilson's 95% interval for 2 of 4 is 15.0% to 85.0%
    assert fig._suptitle.get_text() == ("shambling, 4 games\nsurvivors 50.0% (15.0–85.0%), zombies 50.0% "
                                        "(15.0–85.0%) (Wilson 95%)")
    assert (left.get_xlabel(), left.get_ylabel(), left.get_title()) == (
        "turns the game lasted", "games", "game length, by outcome (stacked)")
    assert [t.get_text() for t in left.get_legend().get_texts()] == ["survivors (2 games)", "zombies (2 games)"]
    # survivors: two games of 10 turns; zombies: one of 4 and one of 6 (nothing under them to stack on)
    assert bars(left) == [(4, 0, 1), (6, 0, 1), (10, 0, 2)]
    assert [p.get_facecolor()[:3] for c in left.containers for p in c.patches] == [
        pytest.approx((0x1f / 255, 0x77 / 255, 0xb4 / 255))] + [pytest.approx((0xd6 / 255, 0x27 / 255, 0x28 / 255))] * 2
    assert right.get_xlabel() == "kills" and right.get_yscale() == "linear" and right.axison
    assert [(x, h) for x, _, h in bars(right)] == [(1, 25.0), (3, 50.0), (5, 25.0)]
    # each bar's share written just above it (2 points up), for 12 values or fewer
    assert [(t.get_text(), t.xyann) for t in right.texts] == [("25.0%", (0, 2)), ("50.0%", (0, 2)), ("25.0%", (0, 2))]
    # mean 3; t with 3 degrees of freedom (3.1824) times 1.633 / 2 reaches past 1 and 5: clamped to them
    assert right.get_title() == ("kills: share of games at each value\n"
                                 "mean 3.000 (orange line), 95% CI 1.000–5.000 (shaded)")
    assert right.title.get_fontsize() == 11
    # the shaded band spans the interval, the line stands at the mean
    (band,) = [p for p in right.patches if p not in {q for c in right.containers for q in c.patches}]
    assert (band.get_x(), band.get_x() + band.get_width()) == (1.0, 5.0)
    assert [list(line.get_xdata()) for line in right.get_lines()] == [[3.0, 3.0]]
    # written at 100 dots an inch: 1200 x 540 pixels
    width, height = int.from_bytes(path.read_bytes()[16:20], "big"), int.from_bytes(path.read_bytes()[20:24], "big")
    assert (width, height) == (1200, 540)


def test_outcomes_of_the_same_length_are_stacked(tmp_path: Path, figures: list[Any]) -> None:
    """Game length by outcome, stacked: where both outcomes have games of one length, the second
    outcome's bar stands on the first's."""
    s = Summary()
    for outcome, turns in [("survivors", 5), ("survivors", 5), ("zombies", 5), ("zombies", 7)]:
        s.add({"seed": 0, "outcome": outcome, "turns": turns, "kills": 1}, ["kills"])
    plot.batch_plot(s, None, "t", tmp_path / "b.png")
    assert bars(figures[0].axes[0]) == [(5, 0, 2), (5, 2, 1), (7, 0, 1)]


def test_a_metric_most_games_leave_at_zero_is_drawn_on_a_log_axis(tmp_path: Path, figures: list[Any]) -> None:
    s = Summary()
    for i in range(200):
        s.add({"seed": i, "outcome": "zombies", "turns": 5, "heroes": 1 if i < 3 else 0}, ["heroes"])
    plot.batch_plot(s, "heroes", "t", tmp_path / "b.png", tick_name="round")
    left, right = figures[0].axes
    assert left.get_xlabel() == "rounds the game lasted"
    assert right.get_yscale() == "log" and right.get_ylabel() == "share of games (log scale)"
    assert [t.get_text() for t in right.get_yticklabels() if t.get_text()][:2] == ["0.1%", "1%"]
    assert [(x, h) for x, _, h in bars(right)] == [(0, 98.5), (1, 1.5)]
    assert sorted(t.get_text() for t in right.texts) == ["1.5%", "98.5%"]


def test_more_than_sixteen_lengths_get_whole_number_ticks_matplotlib_spaces(tmp_path: Path,
                                                                            figures: list[Any]) -> None:
    """Up to 16 game lengths get a tick each; more would crowd the axis, so matplotlib spaces the
    ticks, on whole numbers only (a game lasts a whole number of turns)."""
    from matplotlib.ticker import FixedLocator, MaxNLocator

    s = Summary()
    for i in range(20):
        s.add({"seed": i, "outcome": "zombies", "turns": i + 1, "kills": i}, ["kills"])
    plot.batch_plot(s, "kills", "t", tmp_path / "b.png")
    left, right = figures[0].axes
    for ax in (left, right):
        locator = ax.xaxis.get_major_locator()
        assert isinstance(locator, MaxNLocator) and locator._integer  # type: ignore[attr-defined]
        assert all(float(t).is_integer() for t in ax.get_xticks())
    s = summary()
    plot.batch_plot(s, "kills", "t", tmp_path / "c.png")
    assert isinstance(figures[1].axes[0].xaxis.get_major_locator(), FixedLocator)
    assert list(figures[1].axes[0].get_xticks()) == [4, 6, 10]


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF"),
                                               (".SVG", b"<?xml")])
def test_the_suffix_chooses_the_format(tmp_path: Path, suffix: str, magic: bytes) -> None:
    path = tmp_path / f"b{suffix}"
    plot.batch_plot(summary(), "kills", "t", path)
    assert path.read_bytes().startswith(magic)
    again = tmp_path / f"again{suffix}"
    plot.batch_plot(summary(), "kills", "t", again)
    if suffix != ".png":  # SVG and PDF carry no date: the same figure, the same bytes
        assert again.read_bytes() == path.read_bytes()
        assert b"<dc:date>" not in path.read_bytes() and b"/CreationDate" not in path.read_bytes()


def test_an_unknown_plot_format_is_refused_before_anything_runs(tmp_path: Path) -> None:
    with pytest.raises(GameError, match=r"b\.jpg: --plot writes \.png, \.svg, \.pdf files"):
        plot.check_target(tmp_path / "b.jpg")
    plot.check_target(tmp_path / "b.pdf")
    with pytest.raises(GameError, match="--plot writes"):
        plot.batch_plot(summary(), None, "t", tmp_path / "b.gif")
    assert not (tmp_path / "b.gif").exists()


def test_a_batch_plot_without_a_metric_to_draw_has_one_panel(tmp_path: Path, figures: list[Any]) -> None:
    plot.batch_plot(summary(), None, "t", tmp_path / "b.png")
    assert len(figures[0].axes) == 1 and tuple(figures[0].get_size_inches()) == (8, 5.4)
    s = summary()
    s.add({"seed": 1, "outcome": "zombies", "turns": 2, "kills": 0.5}, ["kills"])  # not whole: no histogram
    plot.batch_plot(s, "kills", "t", tmp_path / "c.png")
    assert len(figures[1].axes) == 1


def test_the_metric_drawn_is_the_first_with_a_distribution() -> None:
    """A ruleset's first metric may be text (SZA's event) or fractional: the next one is drawn."""
    s = Summary()
    for i in range(4):
        s.add({"seed": i, "outcome": "won", "turns": 3, "event": "7", "share": i / 3, "kills": i},
              ["event", "share", "kills"])
    assert plot.main_metric(s, ["event", "share", "kills"]) == "kills"
    assert plot.main_metric(s, ["event", "share"]) is None


def test_a_sweep_plot(tmp_path: Path, figures: list[Any]) -> None:
    points = [(4, {"outcomes": {"survivors": {"rate": 0.25, "ci95": [0.1, 0.5]},
                                "zombies": {"rate": 0.75, "ci95": [0.5, 0.9]}}}),
              (5, {"outcomes": {"survivors": {"rate": 0.5, "ci95": [0.3, 0.7]}}})]
    plot.sweep_plot("front_line_cap", points, "sweep", tmp_path / "s.png")
    ax = figures[0].axes[0]
    assert tuple(figures[0].get_size_inches()) == (8.5, 5.2)
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == ("front_line_cap", "rate (95% Wilson band)", "sweep")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["survivors", "zombies"]
    assert [line.get_color() for line in ax.get_lines()] == ["#1f77b4", "#d62728"]  # as in the batch plot
    assert ax.get_ylim() == (0.0, 1.0)
    lines = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in ax.get_lines()}
    assert lines == {"survivors": ([4, 5], [0.25, 0.5]), "zombies": ([4, 5], [0.75, 0.0])}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["survivors", "zombies"]
    # the legend, titled, without a frame over the lines it may sit on
    assert ax.get_legend().get_title().get_text() == "outcome" and not ax.get_legend().get_frame_on()
    bands = ax.collections
    assert len(bands) == 2
    low_high = sorted(tuple(round(v, 3) for v in band.get_paths()[0].vertices[:, 1]) for band in bands)
    assert any(0.1 in b and 0.5 in b and 0.3 in b and 0.7 in b for b in low_high)
    assert any(0.9 in b and 0.0 in b for b in low_high)  # zombies at 5: no outcome, a band of 0..0
    assert all(list(band.get_linewidth()) == [0] for band in bands)  # a fill, no outline over the lines


@pytest.mark.parametrize(("count", "each"), [(16, True), (17, False)])
def test_sixteen_values_get_a_tick_each_and_seventeen_are_spaced(tmp_path: Path, figures: list[Any], count: int,
                                                                 each: bool) -> None:
    """The limit of one tick per value, at its edge, in both plots: 16 game lengths or swept values
    each get their tick; at 17 matplotlib spaces whole-number ticks (game lengths) or its own (a
    sweep)."""
    from matplotlib.ticker import FixedLocator

    s = Summary()
    for i in range(count):
        s.add({"seed": i, "outcome": "zombies", "turns": i + 1, "kills": 0}, ["kills"])
    plot.batch_plot(s, None, "t", tmp_path / "b.png")
    left = figures[0].axes[0]
    assert isinstance(left.xaxis.get_major_locator(), FixedLocator) == each
    if each:
        assert list(left.get_xticks()) == list(range(1, count + 1))
    points = [(x, {"outcomes": {"survivors": {"rate": 0.5, "ci95": [0.4, 0.6]}}}) for x in range(count)]
    plot.sweep_plot("cap", points, "sweep", tmp_path / "s.png")
    ax = figures[1].axes[0]
    assert isinstance(ax.xaxis.get_major_locator(), FixedLocator) == each
    assert (list(ax.get_xticks()) == list(range(count))) == each


def test_the_metrics_interval_is_a_band_without_an_edge(tmp_path: Path, figures: list[Any]) -> None:
    """The shaded 95% interval is a fill only (no outline drawn over the bars it spans)."""
    plot.batch_plot(summary(), "kills", "t", tmp_path / "b.png")
    right = figures[0].axes[1]
    (band,) = [p for p in right.patches if p not in {q for c in right.containers for q in c.patches}]
    assert band.get_linewidth() == 0 and band.get_alpha() == 0.25


@pytest.mark.parametrize(("kills", "mean"), [((9, 10), "mean 9.500"), ((10, 11), "mean 10.5"),
                                             ((-11, -10), "mean -10.5")])
def test_the_mean_is_given_to_three_places_below_ten_and_one_from_ten(tmp_path: Path, figures: list[Any],
                                                                    kills: tuple[int, int], mean: str) -> None:
    """A small mean needs its decimals (0.125 kills a game); a large one does not (42.3 turns)."""
    s = Summary()
    for i, k in enumerate(kills * 2):
        s.add({"seed": i, "outcome": "won", "turns": 3, "kills": k}, ["kills"])
    plot.batch_plot(s, "kills", "t", tmp_path / "b.png")
    assert f"\n{mean} (orange line)" in figures[0].axes[1].get_title()


def test_a_plot_makes_its_folders_and_writes_into_one_that_exists(tmp_path: Path) -> None:
    for name in ("a.png", "b.png"):
        plot.batch_plot(summary(), None, "t", tmp_path / "new" / "deeper" / name)
        assert (tmp_path / "new" / "deeper" / name).read_bytes()[:4] == b"\x89PNG"


def test_an_unwritable_plot_is_a_game_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(GameError, match="cannot write"):
        plot.batch_plot(summary(), None, "t", tmp_path / "file" / "b.png")


def test_the_commands_title_their_figures_with_what_they_show(tmp_path: Path, figures: list[Any]) -> None:
    """README, "Outputs": ruleset, games, seed, policy, parameters, and each outcome's rate with
    its Wilson interval (the rates here are the summary's own, printed beside the figure)."""
    import json

    from typer.testing import CliRunner

    from ecs_zombie.cli import app

    ran = CliRunner().invoke(app, ["batch", "shambling", "--games", "20", "--seed", "9", "--policy", "random",
                                   "--param", "front_line_cap=8", "--plot", str(tmp_path / "b.png"), "--json"])
    assert ran.exit_code == 0, ran.output
    outcomes = json.loads(ran.stdout)["outcomes"]
    rates = ", ".join(f"{name} {100 * o['rate']:.1f}% ({100 * o['ci95'][0]:.1f}–{100 * o['ci95'][1]:.1f}%)"
                      for name, o in outcomes.items())
    assert figures[0]._suptitle.get_text() == (
        f"shambling, 20 games, seed 9, policy random, front_line_cap=8\n{rates} (Wilson 95%)")
    ran = CliRunner().invoke(app, ["sweep", "stalingrad", "--games", "3", "--param", "zombie_initiative=-4..-2",
                                   "--plot", str(tmp_path / "s.png"), "--quiet"])
    assert ran.exit_code == 0, ran.output
    assert figures[1].axes[0].get_title() == ("stalingrad, 3 games per value, seed 1, policy heuristic;\n"
                                              "zombie_initiative = -4..-2 (3 values), other parameters default")


def test_a_plot_drawn_is_closed_once_written(tmp_path: Path) -> None:
    """Each figure is closed after it is written: a sweep or a batch that draws many leaves none open."""
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    plot.batch_plot(summary(), "kills", "t", tmp_path / "b.png")
    plot.sweep_plot("cap", [(1, {"outcomes": {"survivors": {"rate": 0.5, "ci95": [0.2, 0.8]}}})], "s",
                    tmp_path / "s.png")
    assert set(plt.get_fignums()) == before
    with pytest.raises(GameError):
        plot.batch_plot(summary(), "kills", "t", tmp_path / "b.bmp")  # a format refused: closed too
    assert set(plt.get_fignums()) == before


@pytest.mark.parametrize(("count", "labelled"), [(12, True), (13, False)])
def test_up_to_twelve_metric_values_are_labelled_with_their_share(tmp_path: Path, figures: list[Any], count: int,
                                                                  labelled: bool) -> None:
    """Each bar of the metric's distribution carries its share while there are at most 12 of them;
    more would overlap, so 13 carry none."""
    s = Summary()
    for i in range(count):
        s.add({"seed": i, "outcome": "zombies", "turns": 3, "kills": i}, ["kills"])
    plot.batch_plot(s, "kills", "t", tmp_path / "b.png")
    right = figures[0].axes[1]
    assert [t.get_text() for t in right.texts] == ([f"{100 / count:.1f}%"] * count if labelled else [])


def test_plots_draw_off_screen_whatever_backend_the_environment_names() -> None:
    """A batch on a desktop (or with MPLBACKEND set for an interactive session) still writes its file
    without opening a window: the plots choose matplotlib's off-screen Agg backend."""
    import subprocess
    import sys

    code = ("from ecs_zombie import plot; import matplotlib; plot._pyplot(); "
            "print(matplotlib.get_backend().lower())")
    env = {**os.environ, "MPLBACKEND": "svg"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd=ROOT)
    assert out.stdout.strip() == "agg"
