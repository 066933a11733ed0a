"""The boards (DESIGN CHOICE: the book's maps are images the text lacks; prefabs/sza/maps.yaml builds
them from the room descriptions). Each board is pinned square by square, with the room effects the
map descriptions give: "Pipe Rooms: ... hiding", "Store Room: ... extremely dark", "Walk-In Wardrobe:
... -3 to zombies' Accuracy", "Level 2 Corridors: Dark", "Level 2 Store Room: ... -5 to character's
Smarts", the street's bushes ("The zombies will not spot characters if they hide in them")."""

from __future__ import annotations

from ecs_zombie.ruleset import load_ruleset
from ecs_zombie.systems.sza.board import Board

SYMBOLS = {"door": "D", "locked_door": "L", "window": "W", "table": "T", "counter": "C", "cabinet": "c",
           "op_cabinet": "o", "locked_cabinet": "l", "safe": "S", "fuse": "F", "ceiling": "^", "stairs": "/",
           "debris": "#", "grass": ",", "bush": "b", "vehicle": "V", "safehouse": "H", "bed": "B"}

# Rooms by letter: (id, title, hide, dark, Smarts modifier, zombies' Accuracy modifier).
BUNGALOW_ROOMS = {
    "a": ("planning", "Planning Room", False, False, 0, 0),
    "b": ("dining", "Dining cum Sleeping Area", False, False, 0, 0),
    "c": ("kitchen", "Kitchen", False, False, 0, 0),
    "d": ("store", "Store Room", False, True, 0, 0),
    "e": ("circuit", "Circuit Breaker Room", False, False, 0, 0),
    "f": ("pipe1", "Pipe Room", True, False, 0, 0),
    "g": ("toilet", "Toilet", False, False, 0, 0),
    "h": ("wardrobe", "Walk-In Wardrobe", False, False, 0, -3),
    "i": ("unoccupied", "Unoccupied Room", False, False, 0, 0),
    "j": ("bedroom", "Bedroom", False, False, 0, 0),
    "k": ("pipe2", "Pipe Room", True, False, 0, 0),
    "l": ("pipe3", "Pipe Room (level 2)", True, False, 0, 0),
    "m": ("operation", "Makeshift Operation Room", False, False, 0, 0),
    "n": ("panic", "Panic Room", False, False, 0, 0),
    "o": ("corridor", "Level 2 Corridors", False, True, 0, 0),
    "p": ("empty", "Empty Room with False Ceiling", False, False, 0, 0),
    "q": ("store2", "Level 2 Store Room", False, False, -5, 0),
    "r": ("garden", "Garden", False, False, 0, 0),
}
BUNGALOW = [  # level 1 on the left, level 2 from x 22; '.' is a wall
    "..........W.................W......",
    ".aaaaa.bbbbbbb.cCCCc...ll.ommo.nnn.",
    "WaTTaaDbbbbbbbDccccc...ll.mmmm.nSn.",
    ".aaaaa.bbTTbbb.cccccW..ll.mmmm.nnn.",
    ".aaaaa.bbbbbbb.ccccc....D..D....L..",
    "..D....bBbbbbb.D..D....ooooooooooo.",
    ".ddd.F.bbbbbbb.ff.gg...oooooToooo/.",
    "WdddDe..D...D..ff.gg....D....D.....",
    ".cdd.e.hhh.iii.........pppp.qqq....",
    ".D.....hhh.iiiDjjjjj..Wpp^p.qqq....",
    ".kk....hhh.iii.jjjjjW..pppp.qql....",
    ".kk.........W..jjBj/..........W....",
    "...................................",
    "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
    "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
]
# Each window and the garden square it opens onto once broken (DESIGN CHOICE: "All windows are
# breakable", so each leads somewhere; upstairs ones are a climb).
WINDOWS = {(0, 2): (0, 13), (10, 0): (10, 14), (20, 3): (20, 14), (20, 10): (20, 13), (12, 11): (12, 13),
           (0, 7): (0, 14), (28, 0): (28, 14), (22, 9): (22, 13), (30, 11): (30, 13)}
STREET = [
    ",,,,,,,,,,,,,,bb,,,,,,,,",
    "aaaaaaaaa,,,aaaaaaaaaaaa",
    "HaaaaaVaaaaaaaaa#aaaaaaa",
    "Haaaaaaaaaaa#aaaaaaaaaaa",
    "Haaaaaa#aaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaa#aaaa",
    ",,,,,b,,,,,,,,,,,bbb,,,,",
]


def render(board: Board, letters: dict[str, str]) -> list[str]:
    rows = []
    for y in range(board.height):
        row = ""
        for x in range(board.width):
            c = board.cell(x, y)
            kind = board.feature(c)
            row += SYMBOLS[kind] if kind else letters[board.room_at[c]] if c in board.room_at else "."
        rows.append(row)
    return rows


def rooms(board: Board, legend: dict[str, tuple[str, str, bool, bool, int, int]]) -> None:
    assert {letter: (r.id, r.title, r.hide, r.dark, r.smarts, r.zombie_accuracy)
            for letter, r in zip(legend, board.rooms.values(), strict=True)} == legend


def test_the_bungalow() -> None:
    """Both levels on one grid, 1 m squares indoors, the garden below them; the bedroom's staircase
    (19, 11) leads to level 2 (33, 6) and each window to the garden; zombies come in inside the windows
    and at the stairs; the party starts in the Planning Room. Only the garden is outdoors, so the
    windows are its doors to the building (where movement stops) and no door is."""
    board = load_ruleset("sza").tables["sza.maps"]["bungalow"]
    letters = {v[0]: k for k, v in BUNGALOW_ROOMS.items()}
    assert (board.width, board.height, board.outdoor) == (35, 15, False)
    assert render(board, letters) == BUNGALOW
    rooms(board, BUNGALOW_ROOMS)
    assert all(r.spot for r in board.rooms.values())
    assert [r.id for r in board.rooms.values() if r.outdoor] == ["garden"]
    links = {(19, 11): (33, 6), (33, 6): (19, 11), **WINDOWS, **{g: w for w, g in WINDOWS.items()}}
    assert {board.xy(a): board.xy(b) for a, b in board.links.items()} == links
    assert sorted(board.xy(c) for c in board.entrances) == sorted(WINDOWS)
    assert {k: [board.xy(c) for c in v] for k, v in board.spawns.items()} == {
        "level1": [(1, 2), (10, 1), (19, 3), (19, 10), (12, 10), (1, 7)],
        "level2": [(28, 1), (23, 9), (30, 10), (33, 6)]}
    assert [board.xy(c) for c in board.start] == [(x, y) for y in range(1, 5) for x in range(1, 6)]


def test_the_street() -> None:
    """5 m squares outdoors: grass verges along both edges and a patch at x 9..11, bushes, four pieces
    of debris, the car at (6, 2), the safe house on the far left; the party starts on the right in the
    middle of the road."""
    board = load_ruleset("sza").tables["sza.maps"]["street"]
    assert (board.width, board.height, board.outdoor, board.vehicle) == (24, 7, True, "car")
    assert render(board, {"street": "a"}) == STREET
    assert [(r.id, r.title, r.hide, r.dark, r.spot) for r in board.rooms.values()] == \
        [("street", "Street", False, False, True)]
    assert board.links == {}
    assert {k: [board.xy(c) for c in v] for k, v in board.spawns.items()} == {
        "road": [(10, 3), (13, 1), (4, 5), (9, 5), (15, 4), (2, 1)]}
    assert [board.xy(c) for c in board.start] == [(22, 2), (23, 2), (22, 3), (23, 3), (22, 4), (23, 4)]


def test_what_is_passable() -> None:
    """Walls, debris, unbroken windows, a locked door and the car stop movement until opened; doors,
    furniture, grass and bushes do not."""
    rs = load_ruleset("sza")
    b = rs.tables["sza.maps"]["bungalow"]
    s = rs.tables["sza.maps"]["street"]
    assert [b.passable(b.cell(*xy), set()) for xy in ((0, 0), (6, 2), (0, 2), (32, 4), (2, 2), (16, 1), (19, 11))] \
        == [False, True, False, False, True, True, True]
    assert b.passable(b.cell(0, 2), {b.cell(0, 2)}) and b.passable(b.cell(32, 4), {b.cell(32, 4)})
    assert [s.passable(s.cell(*xy), set()) for xy in ((12, 3), (6, 2), (0, 0), (14, 0), (0, 3))] == \
        [False, False, True, True, True]
    assert s.passable(s.cell(6, 2), {s.cell(6, 2)}) and not s.passable(s.cell(12, 3), {s.cell(12, 3)})
