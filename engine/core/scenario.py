"""Executable scenarios: a starting situation, scripted choices and dice, expected outcomes.

A scenario is plain data (already-loaded YAML). `run_scenario` returns failure messages, an
empty list when the scenario holds. The game-specific parts come from the game's GameSpec:
`scenario_state` builds the starting state from `setup`, `probe` exposes values to check.
The format is described in docs/scenarios.md.
"""
from __future__ import annotations

import json
import random
import re
from typing import Any, Sequence

from engine.core.api import CHANCE, Decision, GameSpec, State
from engine.core.driver import derive_seed, sample_chance
from engine.core.registry import load_spec

_MAX_AUTO_CHANCE = 10_000


class SetupError(ValueError):
    """A starting situation the rules cannot lay out, with where in the scenario's `setup` the
    fault lies: the keys and list indexes from `setup` down (none: the setup as a whole). A game's
    `scenario_state` raises it so that `hordekit scenario` points at that key's line and column;
    any other exception points at `setup`."""

    def __init__(self, message: str, path: Sequence[str | int] = ()) -> None:
        super().__init__(message)
        self.path = tuple(path)


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+$")
_PATH_PART = re.compile(r'\.([A-Za-z0-9_-]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


def _mapping(value: Any, path: tuple[str, ...]) -> dict:
    """A scenario's `setup` (or `options`) as a dict; anything but a mapping (or nothing) is a set-up
    fault at that key, not a Python error about converting it."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        kind = "a list" if isinstance(value, list) else f"{type(value).__name__} {value!r}"[:60]
        raise SetupError(f"must be a mapping of keys to values, not {kind}", path)
    return dict(value)


def setup_path(path: Sequence[str | int], root: str = "setup") -> str:
    """`setup.players[0].resources`: a path into the setup (or another top-level key, `root`) as a
    failure message writes it (a key that is not plain letters, digits, - and _ is written as a
    JSON string in brackets)."""
    out = root
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            key = str(part)
            out += f".{key}" if _PLAIN_KEY.match(key) else f"[{json.dumps(key)}]"
    return out


def parse_setup_path(text: str) -> tuple[str | int, ...] | None:
    """The keys and indexes of the `setup_path` that `text` begins with, its root first (`setup`
    or `options`), or None when it begins with none (what follows the path, such as `: message`,
    is ignored)."""
    root = next((r for r in ("setup", "options") if text.startswith(r)), None)
    if root is None:
        return None
    parts: list[str | int] = [root]
    at = len(root)
    while (m := _PATH_PART.match(text, at)) is not None:
        key, index, quoted = m.groups()
        parts.append(key if key is not None else int(index) if index is not None else json.loads(quoted))
        at = m.end()
    if at < len(text) and text[at] not in ": ":
        return None
    return tuple(parts)


SETUP_FAULT = "cannot build the starting situation"
"""How a failure to lay out the setup begins (after the scenario's name); with a SetupError it
goes on with ` at <setup path>:`."""


def run_scenario(scenario: dict, content: dict[str, list[dict]], spec: GameSpec | None = None,
                 model: Any = None, warnings: list[str] | None = None) -> list[str]:
    """Run one scenario against a game's validated content (kind -> items); return failures.

    A `choose` step that meets a chance event the script left open rolls it with the seeded RNG;
    unless the scenario allows that throughout (top-level `auto: true`), each such roll is
    appended to `warnings` (when given) as a message naming the step and what was rolled, so
    that a scenario cannot pass by the luck of its seed without saying so."""
    name = str(scenario.get("name", "scenario"))
    try:
        if spec is None:
            spec = load_spec(str(scenario.get("rules") or scenario.get("game")))
        if spec.scenario_state is None:
            return [f"{name}: game {spec.id} does not support scenarios"]
        if model is None:
            model = spec.build_model(content)
        players = scenario.get("players", spec.min_players)
        if isinstance(players, bool) or not isinstance(players, int) \
                or not spec.min_players <= players <= spec.max_players:
            return [f"{name}: players is {players!r}, but {spec.id} is for "
                    f"{spec.min_players} to {spec.max_players} players"]
        if "setup" in scenario:
            state = spec.scenario_state(model, players, _mapping(scenario.get("setup"), ()))
        else:   # the game's standard setup; its chance events are the script's first steps
            state = spec.new_state(model, players, _mapping(scenario.get("options"), ("options",)))
    except SetupError as exc:
        if "setup" in scenario:
            where = setup_path(exc.path)
        else:  # the standard setup: only its options are the scenario's own keys
            where = setup_path(exc.path[1:], "options") if exc.path[:1] == ("options",) else "options"
        return [f"{name}: {SETUP_FAULT} at {where}: {exc}"]
    except Exception as exc:
        return [f"{name}: {SETUP_FAULT}: {type(exc).__name__}: {exc}"]
    seed = scenario.get("seed", 0)
    if seed.__class__ is not int:   # "7", 1.9 or true would quietly become another seed
        return [f"{name}: seed must be a whole number, not {seed!r}"]
    auto = scenario.get("auto", False)
    if auto.__class__ is not bool:
        return [f"{name}: auto must be true or false, not {auto!r}"]
    rng = random.Random(derive_seed(seed, 0))
    failures: list[str] = []
    unscripted = None if auto else warnings if warnings is not None else []
    for i, step in enumerate(scenario.get("steps") or []):
        where = f"{name}: step {i + 1}"
        try:
            problem = _run_step(spec, state, step, rng, where, failures, unscripted)
        except Exception as exc:
            return failures + [f"{where}: {type(exc).__name__}: {exc}"]
        if problem:
            return failures + [problem]
    if "expect" in scenario:
        failures += check_expect(spec, state, scenario["expect"], f"{name}: expect")
    return failures


def _run_step(spec: GameSpec, state: State, step: Any, rng: random.Random, where: str,
              failures: list[str], unscripted: list[str] | None = None) -> str | None:
    """Apply one script step; return a message that stops the scenario, or None."""
    if not isinstance(step, dict) or len(step) != 1:
        return f"{where}: a step is a mapping with one key (choose, roll, chance, expect, auto)"
    (key, value), = step.items()
    if key == "expect":
        failures += check_expect(spec, state, value, where)
        return None
    entries = list(enumerate(value, 1)) if isinstance(value, list) else [(0, value)]
    if key == "choose":
        for j, v in entries:
            if j:   # an entry of a list: the message names it, and the CLI points at its place
                where = f"{where.split(', entry ')[0]}, entry {j}"
            rolled: list[tuple[str, str]] = []
            d = _skip_chance(state, rng, rolled)
            if rolled and unscripted is not None:
                unscripted.append(unscripted_message(where, rolled))
            if d is None:
                return f"{where}: the game is over, cannot choose {v!r}"
            if d.player == CHANCE:
                return f"{where}: chance is pending ('{d.prompt}')"
            idx = match_option(d, v)
            if isinstance(idx, str):
                return f"{where}: {idx}"
            state.apply(idx)
        return None
    if key in ("roll", "chance"):
        for j, v in entries:
            if j:
                where = f"{where.split(', entry ')[0]}, entry {j}"
            d = state.decision()
            if d is None or d.player != CHANCE:
                what = "the game is over" if d is None else f"player {d.player} must '{d.prompt}'"
                return f"{where}: expected a chance event for {v!r}, but {what}"
            idx = match_option(d, str(v) if key == "roll" else v)
            if isinstance(idx, str):
                return f"{where}: {idx}"
            state.apply(idx)
        return None
    if key == "auto":  # resolve pending chance with the scenario's seeded RNG
        _skip_chance(state, rng)
        return None
    return f"{where}: unknown step '{key}'"


def _skip_chance(state: State, rng: random.Random,
                 rolled: list[tuple[str, str]] | None = None) -> Decision | None:
    """Resolve chance events nobody scripted with the scenario's seeded RNG; each event's prompt
    and the outcome drawn go into `rolled` when given."""
    for _ in range(_MAX_AUTO_CHANCE):
        d = state.decision()
        if d is None or d.player != CHANCE:
            return d
        pick = sample_chance(rng, d)
        if rolled is not None and _outcomes(d) > 1:   # a forced outcome is no luck
            rolled.append((d.prompt, d.options[pick] if 0 <= pick < len(d.options) else str(pick)))
        state.apply(pick)
    raise RuntimeError("endless chance events")


def _outcomes(d: Decision) -> int:
    """How many outcomes a chance decision can have (options with a positive weight)."""
    return d.n if d.weights is None else sum(1 for w in d.weights if w > 0)


UNSCRIPTED = "chose while a chance event was pending"
"""How the warning about a chance event a `choose` step rolled at random begins (after the step)."""


def unscripted_message(where: str, rolled: list[tuple[str, str]]) -> str:
    """The warning for the chance events a `choose` step rolled at random: which, and the outcomes."""
    shown = "; ".join(f"'{prompt}' -> '{outcome}'" for prompt, outcome in rolled[:5])
    more = f" and {len(rolled) - 5} more" if len(rolled) > 5 else ""
    return (f"{where}: {UNSCRIPTED}, so it was rolled at random with the scenario's seed: {shown}{more}; "
            f"script it with a `roll` or `chance` step, or put `auto: true` before this step "
            f"(or at the top of the scenario) if any outcome will do")


def match_option(d: Decision, want: Any) -> int | str:
    """Index of the option `want` names: an int is an index; a string is an exact label, else
    the one label it starts (case-insensitive). Returns an error message when none or several match."""
    if isinstance(want, bool):
        return f"not an option: {want!r}"
    if isinstance(want, int):
        return want if 0 <= want < d.n else f"'{d.prompt}' has no option {want}"
    text = str(want)
    if text in d.options:
        return d.options.index(text)
    low = text.lower()
    hits = [i for i, o in enumerate(d.options) if o.lower().startswith(low)]
    if len(hits) == 1:
        return hits[0]
    listing = "; ".join(d.options[:30])
    if not hits:
        return f"'{d.prompt}' has no option '{text}' (options: {listing})"
    return f"'{d.prompt}': '{text}' matches several options ({'; '.join(d.options[i] for i in hits)})"


def check_expect(spec: GameSpec, state: State, expect: Any, where: str) -> list[str]:
    """Compare expected values with the state.

    Keys: `decision` (player, prompt, options, options_include, options_exclude), `over`,
    `result` (scores, winners, end_reason), and any dotted path into the game's probe. A probe
    value that is a tuple is compared in order; a list is compared as a multiset."""
    if not isinstance(expect, dict):
        return [f"{where}: expect must be a mapping"]
    out: list[str] = []
    probe = spec.probe(state) if spec.probe is not None else {}
    for key, want in expect.items():
        if key == "decision":
            out += _check_decision(state.decision(), want, where)
        elif key == "over":
            if state.is_over() != bool(want):
                out.append(f"{where}: over is {state.is_over()}, expected {want}")
        elif key == "result":
            if not state.is_over():
                out.append(f"{where}: result expected but the game is not over")
                continue
            res = state.result()
            for k, v in want.items():
                got = getattr(res, k, None)
                if got != v:
                    out.append(f"{where}: result.{k} is {got!r}, expected {v!r}")
        else:
            found, got = _lookup(probe, str(key))
            if not found:
                out.append(f"{where}: nothing called '{key}' (known: {', '.join(sorted(probe))})")
            elif not _same(got, want):
                out.append(f"{where}: {key} is {_show(got)}, expected {_show(want)}")
    return out


def _check_decision(d: Decision | None, want: Any, where: str) -> list[str]:
    if d is None:
        return [f"{where}: no decision pending (the game is over)"]
    out: list[str] = []
    if "player" in want and d.player != want["player"]:
        out.append(f"{where}: decision is for player {d.player}, expected {want['player']}")
    if "prompt" in want and str(want["prompt"]).lower() not in d.prompt.lower():
        out.append(f"{where}: decision is '{d.prompt}', expected '{want['prompt']}'")
    if "options" in want and list(d.options) != list(want["options"]):
        out.append(f"{where}: options are {list(d.options)}, expected {want['options']}")
    for label in want.get("options_include", []):
        found = _whole_label(d, label)
        if isinstance(found, str):
            out.append(f"{where}: {found}")
        elif not found:
            out.append(f"{where}: no option '{label}' in {list(d.options)}")
    for label in want.get("options_exclude", []):
        found = _whole_label(d, label)
        if isinstance(found, str):
            out.append(f"{where}: {found}")
        elif found:
            out.append(f"{where}: option '{label}' should not be offered")
    return out


def _whole_label(d: Decision, label: Any) -> bool | str:
    """Whether `label` is one of the options, compared as a whole label. A fragment that only
    begins some options is an error in the scenario (it would say nothing about which one)."""
    text = str(label)
    if text in d.options:
        return True
    low = text.lower()
    part = [o for o in d.options if o.lower().startswith(low)]
    if part:
        hint = (" (a label with a comma: write the list one label per line, see docs/scenarios.md)"
                if any("," in o[len(text):] for o in part) else "")
        return (f"'{text}' is only the start of {len(part)} option(s) ({'; '.join(part[:10])}): "
                f"options_include and options_exclude name whole labels{hint}")
    return False


def _lookup(data: Any, path: str) -> tuple[bool, Any]:
    cur = data
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, (list, tuple)) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return False, None
    return True, cur


def _same(got: Any, want: Any) -> bool:
    if isinstance(got, tuple):
        return isinstance(want, (list, tuple)) and len(got) == len(want) and all(
            _same(g, w) for g, w in zip(got, want))
    if isinstance(got, list):
        return isinstance(want, list) and sorted(map(repr, got)) == sorted(map(repr, want))
    if isinstance(got, dict) and isinstance(want, dict):
        return all(k in got and _same(got[k], v) for k, v in want.items())
    return got == want


def _show(v: Any) -> str:
    return repr(list(v)) if isinstance(v, tuple) else repr(v)
