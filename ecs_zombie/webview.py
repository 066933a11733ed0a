"""A replay as one self-contained web page: the board drawn tick by tick, the tick's events beside
it, the numbers players care about above; steps with buttons, a slider or the arrow keys. Nothing
is fetched from the network: the data and the script are inside the page.

    ecs-zombie replay saves/game.replay --html game.html
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ecs_zombie.boards import render
from ecs_zombie.replay import ReplayFile, restore, walk
from ecs_zombie.snapshot import write_atomic


def frames(replay: ReplayFile) -> list[dict[str, Any]]:
    """Tick 0 (the start) and every recorded tick: its board, its metrics and its events."""
    by_tick: dict[int, list[Any]] = {}
    for e in replay.events:
        by_tick.setdefault(e[0], []).append(e)
    out: list[dict[str, Any]] = []

    def frame(game: Any) -> None:
        out.append({"tick": game.tick, "board": render(game), "metrics": game.metrics(),
                    "events": [{"kind": e[1], "system": (e[3] if len(e) > 3 else "") or "(engine)",
                                "data": ", ".join(f"{k}={v!r}" for k, v in e[2].items())}
                               for e in by_tick.get(game.tick, [])]})

    start = restore(replay.initial)
    try:
        frame(start)
    finally:
        start.close()
    walk(replay, frame)
    return out


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1em; background: #fafafa; color: #222; }}
#bar {{ display: flex; gap: .5em; align-items: center; margin-bottom: .6em; }}
#main {{ display: flex; gap: 1em; align-items: flex-start; }}
pre#board {{ background: #fff; border: 1px solid #ccc; padding: .6em; margin: 0; font-size: 13px;
            line-height: 1.25; }}
#side {{ flex: 1; min-width: 24em; }}
#metrics {{ margin: 0 0 .5em 0; font-size: 13px; }}
table {{ border-collapse: collapse; font-size: 12px; width: 100%; }}
td, th {{ border-bottom: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }}
th {{ background: #eee; position: sticky; top: 0; }}
#log {{ max-height: 75vh; overflow: auto; border: 1px solid #ccc; background: #fff; }}
</style></head>
<body>
<h1 style="font-size:1.2em">{title}</h1>
<div id="bar">
  <button id="prev" title="previous (left arrow)">&#9664;</button>
  <input id="slider" type="range" min="0" max="0" value="0">
  <button id="next" title="next (right arrow)">&#9654;</button>
  <span id="where"></span>
</div>
<div id="main">
  <pre id="board"></pre>
  <div id="side"><p id="metrics"></p>
    <div id="log"><table><thead><tr><th>#</th><th>system</th><th>kind</th><th>data</th></tr></thead>
    <tbody id="events"></tbody></table></div>
  </div>
</div>
<script id="data" type="application/json">{data}</script>
<script>
const game = JSON.parse(document.getElementById("data").textContent);
const slider = document.getElementById("slider");
slider.max = game.frames.length - 1;
function text(s) {{ return document.createTextNode(s); }}
function show(i) {{
  i = Math.max(0, Math.min(game.frames.length - 1, i));
  slider.value = i;
  const f = game.frames[i];
  document.getElementById("where").textContent =
    (f.tick === 0 ? "start" : game.tick_name + " " + f.tick) + " of " + (game.frames.length - 1) +
    (i === game.frames.length - 1 && game.outcome ? " — outcome: " + game.outcome : "");
  document.getElementById("board").textContent = f.board.join("\\n");
  document.getElementById("metrics").textContent =
    Object.entries(f.metrics).map(([k, v]) => k + " " + v).join(" · ");
  const body = document.getElementById("events");
  body.replaceChildren();
  f.events.forEach((e, n) => {{
    const row = document.createElement("tr");
    [String(n + 1), e.system, e.kind, e.data].forEach(v => {{
      const cell = document.createElement("td"); cell.appendChild(text(v)); row.appendChild(cell); }});
    body.appendChild(row);
  }});
}}
document.getElementById("prev").onclick = () => show(Number(slider.value) - 1);
document.getElementById("next").onclick = () => show(Number(slider.value) + 1);
slider.oninput = () => show(Number(slider.value));
document.addEventListener("keydown", ev => {{
  if (ev.key === "ArrowLeft") show(Number(slider.value) - 1);
  if (ev.key === "ArrowRight") show(Number(slider.value) + 1);
}});
// "#frame=N" opens at frame N; "#next=N" presses the next button N times (links and tests use both)
const hash = new URLSearchParams(location.hash.slice(1));
show(Number(hash.get("frame") || 0));
for (let n = Number(hash.get("next") || 0); n > 0; n--) document.getElementById("next").click();
</script>
</body></html>
"""


def page(replay: ReplayFile) -> str:
    """The page's HTML."""
    state = replay.initial
    ruleset = str(state.get("ruleset", ""))
    tick_name = "tick"
    try:
        game = restore(state)
        tick_name = game.ruleset.tick_name
        game.close()
    except Exception:  # the page is still worth having with the generic word
        pass
    data = {"ruleset": ruleset, "seed": state.get("seed"), "outcome": replay.outcome, "tick_name": tick_name,
            "frames": frames(replay)}
    # JSON inside a script element: "</" must not close it, and the page must be valid as HTML.
    text = json.dumps(data, sort_keys=True).replace("</", "<\\/").replace("<!--", "<\\!--")
    title = html.escape(f"{ruleset}, seed {state.get('seed')}")
    return _PAGE.format(title=title, data=text)


def write_page(replay: ReplayFile, path: Path) -> Path:
    write_atomic(path, page(replay).encode())
    return path
