"""Property: whatever a careless designer or an attacker feeds hordekit, it ends in exit 0, 1 or 2.

Never exit 70 ("internal error"), never a traceback, never killed for running too long or using
too much memory: each run is a real `python -m toolkit …` process under `resource` limits on
CPU time and address space. Hypothesis mutates real content, layouts and text templates, real
scenarios, and generates game logs; the shrunk failing input is printed when a run breaks.

The number of examples is kept small for CI (HORDEKIT_FUZZ_EXAMPLES raises it) and the
examples are derandomized so that CI is repeatable; HORDEKIT_FUZZ_RANDOM=1 explores afresh.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT

HERE = Path(__file__).resolve().parent
#: Caps per run: seconds of CPU and bytes of address space. A clean run of the fixture game
#: takes well under a second and a few hundred megabytes.
CPU_SECONDS = 30
ADDRESS_SPACE = 2 * 1024**3
EXAMPLES = int(os.environ.get("HORDEKIT_FUZZ_EXAMPLES", "12"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("HORDEKIT_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                database=None)

#: Values designers and attackers write where a field belongs.
NASTY = [
    "four", "", "~", "-1", "0", "9" * 5000, "0x" + "f" * 3000, "1e999", ".nan", "[" * 300 + "]" * 300,
    "{a: [}", "&a x", "*a", "*nowhere", "!!python/object/apply:os.system ['true']", "!!binary AAAA",
    "!!int abc", "<<: *a", "'unterminated", '"\\x"', ": :", "- - -", "\t", "\x1b[31mred", "a\u202eb",
    "../../../../etc/passwd", "/dev/zero", "{{ 7 ** 7 ** 7 }}", "{{ undefined_name }}",
    "{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}",
    "{{ 'a'|replace('a', 'aaaaaaaaaa')|replace('a', 'aaaaaaaaaa')|replace('a', 'aaaaaaaaaa')|replace('a', 'aaaaaaaaaa')|replace('a', 'aaaaaaaaaa') }}",
    "{{ ''.__class__.__mro__ }}", "{{ lipsum(100000) }}", "#12345", "#zzzzzz", "none", "[1, 2]", "{}", "null",
    "true", "-.inf", "2020-01-01", "? [a]\n: b", "---\nkind: x", "%YAML 1.1", "&a [*a]",
]


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_capped(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """One CLI run under the caps; the assertion every fuzz test shares."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    env.pop("HORDEKIT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, errors="replace", timeout=10 * CPU_SECONDS, stdin=subprocess.DEVNULL,
                          preexec_fn=_limits)
    assert proc.returncode in (0, 1, 2), f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr[-3000:]
    return proc


@st.composite
def mutated(draw: Any, text: str) -> bytes:
    """``text`` after a few careless or hostile edits: values swapped, lines cut, bytes injected."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["value", "value", "delete", "duplicate", "insert", "truncate", "bytes"]))
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        value = draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=12)))
        if not lines:
            lines = [value]
        elif op == "value" and ":" in lines[i]:
            key = lines[i].split(":", 1)[0]
            lines[i] = f"{key}: {value}"
        elif op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "insert":
            lines.insert(i, " " * draw(st.integers(0, 8)) + value)
        elif op == "truncate":
            lines = lines[:i]
    raw = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    if draw(st.booleans()) and draw(st.booleans()):
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=6)) + raw[at:]
    return raw


def _fresh_game(tmp: Path) -> Path:
    game = tmp / "mini"
    if game.exists():
        shutil.rmtree(game)
    shutil.copytree(FIXTURES / "mini", game)
    return game


MINI = {name: (FIXTURES / "mini" / name).read_text() for name in ("units.yaml", "factions.yaml", "game.yaml")}
LAYOUTS = (HERE / "fuzz" / "layouts.yaml").read_text()
TEXTS = (FIXTURES / "mini" / "templates" / "text.yaml").read_text()
SCENARIO = (ROOT / "scenarios" / "kingdoms" / "castle-takes-two-hits.yaml").read_text()


@FUZZ
@given(file=st.sampled_from(sorted(MINI)), data=st.data())
def test_any_content_edit_ends_in_a_located_error_or_success(tmp_path: Path, file: str, data: Any) -> None:
    game = _fresh_game(tmp_path)
    (game / file).write_bytes(data.draw(mutated(MINI[file])))
    proc = run_capped("validate", str(game), "--format", "json")
    for d in json.loads(proc.stdout or "[]"):
        assert d["file"] and d["line"] >= 1 and d["col"] >= 1, d  # every problem is located


@FUZZ
@given(which=st.sampled_from(["layouts.yaml", "text.yaml"]), data=st.data())
def test_any_layout_or_template_edit_ends_cleanly_in_validate_and_pnp(tmp_path: Path, which: str, data: Any) -> None:
    game = _fresh_game(tmp_path)
    (game / "templates" / "layouts.yaml").write_text(LAYOUTS)
    base = LAYOUTS if which == "layouts.yaml" else TEXTS
    (game / "templates" / which).write_bytes(data.draw(mutated(base)))
    run_capped("validate", str(game))
    pdf = tmp_path / "out" / "mini.pdf"
    pdf.parent.mkdir(exist_ok=True)
    pdf.write_bytes(b"previous")
    proc = run_capped("pnp", str(game), "-o", str(pdf))
    if proc.returncode != 0:
        assert pdf.read_bytes() == b"previous"  # a failed run never damages the previous output


@FUZZ
@given(data=st.data())
def test_any_scenario_edit_ends_cleanly(tmp_path: Path, data: Any) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_bytes(data.draw(mutated(SCENARIO)))
    run_capped("scenario", str(path))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
LOG = st.fixed_dictionaries(
    {"game": st.sampled_from(["kingdoms", "hordes-and-heroes", "nowhere", "../..", ""])},
    optional={"players": st.one_of(st.integers(-3, 9), JSON), "seed": st.one_of(st.integers(), JSON),
              "bots": st.one_of(st.lists(st.sampled_from(["random", "heuristic", "nobody"]), max_size=3), JSON),
              "options": JSON, "actions": st.one_of(st.lists(st.integers(-2, 40), max_size=30), JSON)})


@FUZZ
@given(log=st.one_of(LOG, JSON), wrap=st.sampled_from(["", "list", "deep"]))
def test_any_game_log_ends_cleanly_in_replay(tmp_path: Path, log: Any, wrap: str) -> None:
    text = json.dumps(log)
    if wrap == "list":
        text = f"[{text}]"
    elif wrap == "deep":
        text = "[" * 50_000 + text + "]" * 50_000
    path = tmp_path / "log.json"
    path.write_text(text)
    run_capped("replay", str(path))
