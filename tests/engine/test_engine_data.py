"""Reading YAML (ecs_zombie/data.py) and the errors a user reads (errors.py): every mapping and
sequence knows its file and lines, fields are checked with a message naming what was expected and
what was found, an unknown key suggests the nearest known one, and every file problem is one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ecs_zombie import data
from ecs_zombie.data import YList, YMap, check_keys, fail, load_yaml, need, plain, where
from ecs_zombie.errors import DataError, DataErrors


@pytest.fixture
def doc(tmp_path: Path) -> YMap:
    path = tmp_path / "d.yaml"
    path.write_text("# a comment\nname: x\ncount: 3\nitems:\n  - a\n  - {k: 1}\nflag: true\nrate: 2\n")
    loaded = load_yaml(path)
    assert isinstance(loaded, YMap)
    return loaded


def test_lines_are_kept_for_every_key_and_item(doc: YMap) -> None:
    assert doc.file.endswith("d.yaml") and doc.line == 2
    assert [doc.line_of(k) for k in ("name", "count", "items", "flag", "rate")] == [2, 3, 4, 7, 8]
    assert doc.line_of("absent") == 2
    items = doc["items"]
    assert isinstance(items, YList) and items.line == 5 and items.item_lines == [5, 6]
    assert items.line_of(1) == 6 and items.line_of(5) == 5 and items.line_of(-1) == 5
    assert where(doc, "flag") == (doc.file, 7) and where(items, 1) == (doc.file, 6)
    assert where(items[1], None) == (doc.file, 6) and where({"plain": 1}, "plain") == (None, None)
    assert where(doc, 3) == (doc.file, 2)  # an int key of a mapping: the mapping's own line
    assert plain(doc) == {"name": "x", "count": 3, "items": ["a", {"k": 1}], "flag": True, "rate": 2}
    assert type(plain(doc)) is dict and type(plain(doc)["items"]) is list


def test_need_checks_presence_and_kind(doc: YMap) -> None:
    assert need(doc, "name", str, "f") == "x" and need(doc, "count", int, "f") == 3
    assert need(doc, "rate", float, "f") == 2  # a whole number is a number
    assert need(doc, "absent", int, "f", default=None) is None
    assert need(doc, "flag", bool, "f") is True
    for key, kind, message in [("absent", int, "d.yaml:2: f: missing field 'absent'"),
                               ("flag", int, "d.yaml:7: f.flag: expected a whole number, got true or false"),
                               ("count", bool, "d.yaml:3: f.count: expected true or false, got a whole number"),
                               ("name", (int, float), "d.yaml:2: f.name: expected a whole number or a number, "
                                                      "got text"),
                               ("items", dict, "d.yaml:4: f.items: expected a mapping, got a list"),
                               ("name", list, "d.yaml:2: f.name: expected a list, got text"),
                               ("count", type(None), "d.yaml:3: f.count: expected nothing, got a whole number"),
                               ("name", Path, "d.yaml:2: f.name: expected Path, got text")]:
        with pytest.raises(DataError) as info:
            need(doc, key, kind, "f")
        assert str(info.value).endswith(message), str(info.value)
    with pytest.raises(DataError, match="f: expected a mapping"):
        need(["not", "a", "map"], "k", int, "f")


def test_unknown_keys_suggest_the_nearest(doc: YMap) -> None:
    check_keys(doc, ("name", "count", "items", "flag", "rate"), "")
    check_keys(["a list"], ("x",), "f")  # not a mapping: nothing to check
    with pytest.raises(DataError) as info:
        check_keys(doc, ("name", "count", "itemz", "flag", "rate"), "top")
    assert str(info.value).endswith("d.yaml:4: top.items: unknown key 'items' (did you mean 'itemz'?)")
    with pytest.raises(DataError) as info:
        check_keys(doc, ("name", "count", "items", "flag"), "")
    assert str(info.value).endswith("d.yaml:8: rate: unknown key 'rate' (known: name, count, items, flag)")


@pytest.mark.parametrize(("text", "message"), [
    (b"a: [1,\n", "malformed YAML"),
    (b"a: 1\na: 2\n", "y.yaml:2: duplicate key 'a'"),
    (b"? [1, 2]\n: x\n", "y.yaml:1: mapping keys must be plain values"),
    (b"\xff\xfe", "y.yaml: not UTF-8 text"),
    (b"a: !!python/object/apply:os.system ['true']\n", "malformed YAML"),
    (b"ok: 1\nbad: b: c\n", "y.yaml:2: malformed YAML: mapping values are not allowed here"),  # no context mark
    (b"ok: 1\na: [1,\n", "y.yaml:3: malformed YAML"),  # the problem's line, not the context's (line 2)
])
def test_every_file_problem_is_one_data_error(tmp_path: Path, text: bytes, message: str) -> None:
    path = tmp_path / "y.yaml"
    path.write_bytes(text)
    with pytest.raises(DataError) as info:
        load_yaml(path)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_missing_unreadable_and_huge_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DataError, match="no such file"):
        load_yaml(tmp_path / "none.yaml")
    with pytest.raises(DataError, match="cannot read"):
        load_yaml(tmp_path)  # a folder
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" + "#" * 200 + "\n")
    monkeypatch.setattr(data, "MAX_YAML_BYTES", 100)
    with pytest.raises(DataError, match="file is larger than 100 bytes"):
        load_yaml(big)
    monkeypatch.setattr(data, "MAX_YAML_BYTES", big.stat().st_size)
    assert load_yaml(big) == {"a": 1}  # exactly the limit is allowed


def test_files_are_named_relative_to_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "f.yaml").write_text("- 1\n")
    monkeypatch.chdir(tmp_path)
    assert load_yaml(Path("sub/f.yaml")).file == os.path.join("sub", "f.yaml")
    assert data.display_path(tmp_path / "sub" / "f.yaml") == os.path.join("sub", "f.yaml")
    assert data.display_path(Path("/elsewhere/x.yaml")) == "/elsewhere/x.yaml"


def test_errors_render_as_one_line_with_where() -> None:
    assert str(DataError("bad")) == "bad"
    assert str(DataError("bad", "f.yaml")) == "f.yaml: bad"
    assert str(DataError("bad", "f.yaml", 3)) == "f.yaml:3: bad"
    assert str(DataError("bad", "f.yaml", 3, "a.b")) == "f.yaml:3: a.b: bad"
    assert str(DataError("bad", None, None, "a.b")) == "a.b: bad"
    err = DataError("bad", "f.yaml", 3, "a.b")
    assert (err.file, err.line, err.field) == ("f.yaml", 3, "a.b")
    both = DataErrors([DataError("one", "f.yaml", 1), DataError("two", "g.yaml", 2, "x")])
    assert str(both) == "f.yaml:1: one\ng.yaml:2: x: two"
    assert (both.file, both.line, both.field) == ("f.yaml", 1, None) and len(both.errors) == 2
    node = YMap({"k": 1})
    node.file, node.line, node.key_lines = "n.yaml", 4, {"k": 5}
    assert str(fail("wrong", node, "k", "k")) == "n.yaml:5: k: wrong"
