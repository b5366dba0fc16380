"""The YAML loader: exact positions, core types only, and refusal of hostile input."""

from __future__ import annotations

import math

from toolkit.yamlload import MAX_EXPANDED_NODES, Pos, load_bytes


def test_positions_point_at_values_and_keys() -> None:
    doc = load_bytes(b"kind: unit\nitems:\n  - id: wolf\n    strength: 3\n")
    assert doc.data == {"kind": "unit", "items": [{"id": "wolf", "strength": 3}]}
    assert doc.pos(("items", 0, "strength")) == Pos(4, 15)
    assert doc.pos(("items", 0, "strength"), key=True) == Pos(4, 5)
    assert doc.pos(("items", 0)) == Pos(3, 5)


def test_missing_path_falls_back_to_nearest_ancestor() -> None:
    doc = load_bytes(b"a:\n  b: 1\n")
    assert doc.pos(("a", "nope", 3)) == Pos(2, 3)


def test_core_schema_scalars() -> None:
    doc = load_bytes(b"a: 0x1F\nb: 1.5\nc: yes\nd: '3'\ne: ~\nf: true\ng: .inf\nh: 0o17\ni: !!str 12\nj: -4\n")
    d = doc.data
    assert (d["a"], d["b"], d["c"], d["d"], d["e"], d["f"], d["h"], d["i"], d["j"]) == (
        31, 1.5, "yes", "3", None, True, 15, "12", -4)
    assert math.isinf(d["g"])


def test_python_tags_never_construct_objects() -> None:
    doc = load_bytes(b'x: !!python/object/apply:os.system ["echo pwned"]\n')
    assert doc.data == {"x": ["echo pwned"]}
    assert [p.code for p in doc.problems] == ["HK005"]


def test_alias_bomb_is_refused_quickly() -> None:
    rows = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    rows += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    doc = load_bytes("\n".join(rows).encode())
    assert doc.data is None
    assert doc.problems[0].code == "HK010"
    assert str(MAX_EXPANDED_NODES // 1000) in doc.problems[0].message.replace(",", "")


def test_shared_aliases_within_limits_load() -> None:
    doc = load_bytes(b"base: &b {hits: 2}\nother: *b\n")
    assert doc.data["other"] == {"hits": 2}
    assert doc.problems == []


def test_duplicate_key_names_first_line() -> None:
    doc = load_bytes(b"a: 1\nb: 2\na: 3\n")
    assert doc.data == {"a": 1, "b": 2}
    (problem,) = doc.problems
    assert problem.code == "HK003" and problem.pos == Pos(3, 1) and "line 1" in problem.message


def test_byte_order_mark_is_accepted() -> None:
    assert load_bytes("\ufeffa: 1\n".encode("utf-8")).data == {"a": 1}


def test_not_utf8_points_at_the_byte() -> None:
    doc = load_bytes(b"a: 1\nb: caf\xe9\n")
    assert doc.problems[0].code == "HK002" and doc.problems[0].pos == Pos(2, 7)


def test_any_bytes_load_into_data_or_located_problems_never_an_exception() -> None:
    """Property: the loader never raises; every problem it reports has a 1-based place."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    pieces = st.sampled_from(["- ", ": ", "[", "]", "{", "}", "&a ", "*a", "!!int ", "!!python/name:os.system",
                              "\n", "  ", "'", '"', "#", "---\n", "? ", "<<: ", "9" * 1200, "\t", "%YAML 1.2\n"])
    text = st.lists(st.one_of(pieces, st.text(max_size=4)), max_size=40).map("".join)

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(raw=st.one_of(text.map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=64)))
    def check(raw: bytes) -> None:
        doc = load_bytes(raw)
        for problem in doc.problems:
            assert problem.pos.line >= 1 and problem.pos.col >= 1
        for path in list(doc.values)[:50]:
            assert doc.pos(path).line >= 1

    check()
