"""Text templates are bounded as a whole: no combination of loops, powers or filters runs away.

Each test renders a real template through the same Templates object print-and-play uses and
expects a located TemplateProblem naming the limit, quickly and without building the huge value.
"""

from __future__ import annotations

import pytest

from toolkit.pnp.templating import MAX_OUTPUT, TemplateProblem, Templates, Where

WHERE = Where("templates/mini/layouts.yaml", 12, 20)
CONTEXT = {"name": "Wolf", "amount": 2, "effects": [{"kind": "shield", "amount": 1}], "many": list(range(10_000))}


def render(source: str) -> str:
    templates = Templates({"shield": ("Shield {{ amount }}", Where("templates/mini/text.yaml", 1, 9))}, {})
    return templates.render(source, WHERE, CONTEXT)


def refused(source: str) -> str:
    with pytest.raises(TemplateProblem) as info:
        render(source)
    assert (info.value.file, info.value.line) == (WHERE.file, WHERE.line)
    return info.value.message


def test_ordinary_card_text_still_renders() -> None:
    assert render("{{ name }}: {{ effect_text(effects) }} {% for i in range(3) %}{{ i }}{% endfor %} {{ 2 ** 10 }}") \
        == "Wolf: Shield 1 012 1024"


def test_nested_loops_over_ranges_stop_at_the_work_budget() -> None:
    assert "steps of work" in refused(
        "{% for a in range(1000) %}{% for b in range(1000) %}{% for c in range(1000) %}{% endfor %}{% endfor %}{% endfor %}")


def test_nested_loops_over_content_stop_at_the_work_budget() -> None:
    assert "steps of work" in refused("{% for a in many %}{% for b in many %}{% endfor %}{% endfor %}")


def test_chained_powers_are_refused_before_they_are_computed() -> None:
    assert "bits" in refused("{{ (((2 ** 64) ** 64) ** 64) ** 64 }}")


def test_a_replace_chain_is_refused_before_its_result_is_built() -> None:
    chain = "|replace('a', 'aaaaaaaaaa')" * 8
    assert "builds a value" in refused("{{ 'a'" + chain + " }}")


def test_concatenation_that_doubles_is_refused() -> None:
    doubling = "{% set a = 'x' * 2000 %}" + "".join(
        f"{{% set {b} = {a} ~ {a} %}}" for a, b in zip("abcdefg", "bcdefgh")) + "{{ h }}"
    assert "builds a value" in refused(doubling)


def test_huge_widths_are_refused() -> None:
    assert "too large" in refused("{{ name.center(100000000) }}")
    assert "format width" in refused("{{ '{:>100000000}'.format(1) }}")
    assert "format width" in refused("{{ '%100000000d' | format(1) }}")


def test_text_written_into_a_block_counts_towards_the_limit() -> None:
    assert "writes more than" in refused(
        "{% set x %}{% for i in range(1000) %}{% for j in range(100) %}{{ 'y' * 1000 }}{% endfor %}{% endfor %}{% endset %}")


def test_state_carried_across_iterations_is_capped_like_any_value() -> None:
    assert "unsafe" in refused("{% set l = [] %}{% for i in range(10) %}{{ l.append(i) }}{% endfor %}")
    assert "builds a value" in refused(
        "{% set ns = namespace(s='a') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}")
    assert render("{% set ns = namespace(n=0) %}{% for i in range(4) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}") \
        == "6"
    assert "undefined" in refused("{{ lipsum(5) }}")


def test_output_over_the_limit_is_refused() -> None:
    assert str(MAX_OUTPUT) in refused("{% for i in range(30) %}{{ 'z' * 1000 }}{% endfor %}")


def test_an_error_inline_points_at_the_template_column() -> None:
    with pytest.raises(TemplateProblem) as info:
        render("{{ nmae }}")
    assert (info.value.line, info.value.col) == (12, 20)
