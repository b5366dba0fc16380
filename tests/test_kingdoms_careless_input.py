"""Kingdoms with careless input: a scenario whose situation the rules could never reach, and broken
copies of content/kingdoms. Each is refused with a message that says what is wrong and where, exit
code 1, no traceback; nothing is played from a broken board."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

SCENARIO = """name: a careless situation
game: kingdoms
players: 2
setup:
  start: turn
  phase: move-phase
  current: 0
{extra}steps: []
"""

# (what is wrong, the lines added under setup, words the message must hold, where the failure points:
#  the text around its line and column, '|' marking the column; a fault of the whole situation points at
#  the setup's first key)
SITUATIONS = [
    ("unknown-space", "  hordes: {z99: troll-king}\n",
     "unknown space 'z99' (the board runs from a1 to j10)", "hordes: {|z99: troll-k"),
    ("unknown-horde", "  hordes: {c3: nobody}\n",
     "unknown horde 'nobody'", "hordes: {|c3: nobody}"),
    ("unknown-ability", "  players: [{abilities: [flying]}]\n",
     "unknown ability 'flying'", "[{abilities: [|flying]}]"),
    ("unknown-resource", "  players: [{resources: {unobtainium: 1}}]\n",
     "unknown resource 'unobtainium'", "[{resources: {|unobtainium:"),
    ("unknown-tile", "  tiles: {c3: lava}\n",
     "unknown tile 'lava'", "tiles: {|c3: lava}"),
    ("unknown-unit", "  players: [{units: {c3: {dragon: 1}}}]\n",
     "c3: unknown unit 'dragon'", "{units: {c3: {|dragon: 1}}}"),
    ("count-not-a-number", "  players: [{units: {c3: {army: many}}}]\n",
     "c3: army must be a whole number", "{units: {c3: {|army: many}}"),
    ("negative-hits", "  hordes: {c3: {horde: troll-king, hits: -5}}\n",
     "c3: hits must be a whole number", "hordes: {|c3: {horde: "),
    ("horde-without-hits", "  hordes: {c3: {horde: troll-king, hits: 0}}\n",
     "at least one hit counter", "hordes: {|c3: {horde: "),
    ("over-the-stacking-limit", "  players: [{units: {c3: {army: 9}}}]\n",
     "9 armies over the stacking limit 4", "|start: turn"),
    ("two-settlements-in-a-space", "  players: [{units: {c3: {settlement: 2}}}]\n",
     "2 settlements in one space", "|start: turn"),
    ("two-players-in-a-space", "  players: [{units: {c3: {army: 1}}}, {units: {c3: {army: 1}}}]\n",
     "player 2's units would share the space with player 1's", "}}}, {units: {|c3: {army: 1"),
    ("units-on-a-chasm", "  tiles: {c3: chasm}\n  players: [{units: {c3: {army: 1}}}]\n",
     "units in a space nothing may enter", "|start: turn"),
    ("horde-on-a-chasm", "  tiles: {c3: chasm}\n  hordes: {c3: troll-king}\n",
     "c3: no horde may be in this space (its tile lets nothing in)", "hordes: {|c3: troll-ki"),
    ("more-players-than-the-game", "  players: [{}, {}, {}]\n",
     "the setup describes 3 players, the game has 2", "|players: [{}"),
    ("round-past-the-end", "  round: 21\n",
     "round 21 is outside the game's 1 to 20", "|round: 21"),
    ("units-not-a-mapping", "  players: [{units: {c3: 2}}]\n",
     "c3's units must be a mapping, not 2", "rs: [{units: {|c3: 2}}]"),
    ("horde-not-a-mapping", "  hordes: {c3: [troll-king]}\n",
     "c3's horde must be a mapping", "hordes: {|c3: [troll-k"),
    ("players-not-a-list", "  players: {units: 1}\n",
     "players must be a list", "|players: {un"),
    ("tiles-not-a-mapping", "  tiles: [c3, swamp]\n",
     "tiles must be a mapping", "|tiles: [c3, "),
    ("an-ability-held-twice", "  players: [{abilities: [roads, roads]}]\n",
     "player 1 holds roads twice", "abilities: [roads, |roads]}]"),
    ("a-kingdoms-ability-given-again", "  players: [{kingdom: dwarves, abilities: [furnaces]}]\n",
     "player 1 holds furnaces twice", ", abilities: [|furnaces]}]"),
    ("more-chits-than-the-box", "  players: [{resources: {gold: 100000000000000000000}}]\n",
     "player 1's gold is 100000000000000000000, more than the 40 gold chits in the box", "[{resources: {|gold: 100000"),
    ("more-victory-tokens-than-the-box", "  players: [{victory: 281}]\n",
     "player 1's victory tokens is 281, more than the 280 victory tokens in the box", "players: [{|victory: 281}"),
    ("more-hits-than-the-box", "  hordes: {c3: {horde: troll-king, hits: 376}}\n",
     "c3: hits is 376, more than the 375 hit counters in the box", "hordes: {|c3: {horde: "),
    ("a-misspelt-setup-key", "  hordez: {c3: troll-king}\n",
     "setup has no key 'hordez'", "|hordez: {c3:"),
    ("a-misspelt-player-key", "  players: [{resorces: {wood: 1}}]\n",
     "player 1 has no key 'resorces'", "players: [{|resorces: {w"),
    ("a-misspelt-horde-key", "  hordes: {c3: {horde: troll-king, hit: 2}}\n",
     "c3's horde has no key 'hit'", "horde: troll-king, |hit: 2}}"),
    ("out-not-a-flag", "  players: [{out: maybe}]\n",
     "player 1's out is true or false, not 'maybe'", "players: [{|out: maybe}]"),
    ("abilities-not-a-list", "  players: [{abilities: roads}]\n",
     "player 1's abilities must be a list", "players: [{|abilities: r"),
    ("an-unknown-variant", "  options: {no-such-variant: true}\n",
     "kingdoms has no option 'no-such-variant'", "options: {|no-such-vari"),
    ("a-variant-flag-not-a-flag", "  options: {player-versus-player: 'yes'}\n",
     "option player-versus-player is true or false, not 'yes'", "options: {|player-versu"),
    ("an-unknown-variant-in-the-list", "  options: {variants: [advanced-tilez]}\n",
     "kingdoms has no variant 'advanced-tilez'", ": {variants: [|advanced-til"),
    ("rounds-not-a-count", "  options: {rounds: 0}\n",
     "option rounds must be a whole number of 1 or more", "options: {|rounds: 0}"),
    ("out-of-pool-not-a-list", "  out_of_pool: troll-king\n",
     "out_of_pool must be a list of horde ids", "|out_of_pool:"),
]


@pytest.mark.parametrize("extra,message,where", [s[1:] for s in SITUATIONS], ids=[s[0] for s in SITUATIONS])
def test_a_situation_the_rules_never_reach_is_refused_at_its_key(tmp_path: Path, extra: str, message: str,
                                                                 where: str) -> None:
    path = tmp_path / "careless.yaml"
    path.write_text(SCENARIO.format(extra=extra))
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "cannot build the starting situation" in proc.stdout and message in proc.stdout, proc.stdout
    found = re.match(rf"FAIL {re.escape(str(path))}:(\d+):(\d+): ", proc.stdout)
    assert found, proc.stdout
    line, col = int(found.group(1)), int(found.group(2))
    text = path.read_text().splitlines()[line - 1]
    before, after = where.split("|")
    assert text[:col - 1].endswith(before) and text[col - 1:].startswith(after), (line, col, text)


@pytest.mark.parametrize("setup,message", [
    ("  start: sideways\n", "unknown start 'sideways' (one of: turn, horde, raid, end)"),
    ("  start: turn\n  phase: nap-phase\n", "unknown phase 'nap-phase'"),
    ("  start: raid\n  phase: move-phase\n", "it needs start: turn"),
    ("  start: turn\n  current: 1\n", "give the phase too"),
    ("  start: turn\n  phase: move-phase\n  current: 5\n", "current seat 5 takes no turn"),
    ("  start: turn\n  order: [0, 0]\n", "must list each seat that takes turns once"),
], ids=["unknown-start", "unknown-phase", "phase-outside-a-turn", "current-without-phase", "current-not-a-seat",
        "order-repeats-a-seat"])
def test_where_play_starts_must_be_a_real_place(tmp_path: Path, setup: str, message: str) -> None:
    path = tmp_path / "careless.yaml"
    path.write_text(f"name: a careless start\ngame: kingdoms\nplayers: 2\nsetup:\n{setup}steps: []\n")
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert message in proc.stdout, proc.stdout


def test_a_solo_game_cannot_have_a_horde_player(tmp_path: Path) -> None:
    path = tmp_path / "solo-horde-player.yaml"
    path.write_text("name: solo with a horde player\ngame: kingdoms\nplayers: 1\nsetup:\n"
                    "  options: {horde-player: true}\n  start: turn\nsteps: []\n")
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert "the horde-player variant needs at least 2 players" in proc.stdout, proc.stdout
    smoke = run_cli("smoke", "kingdoms", "--variant", "horde-player", "--players", "1", "--games", "1")
    assert smoke.returncode == 2 and "needs at least 2 players" in smoke.stderr, smoke.stderr


def test_smoke_refuses_a_variant_the_game_does_not_have() -> None:
    proc = run_cli("smoke", "kingdoms", "--variant", "advanced-tilez", "--games", "1")
    assert proc.returncode == 2 and "Traceback" not in proc.stdout + proc.stderr
    assert "kingdoms has no variant 'advanced-tilez'" in proc.stderr, proc.stderr


# --------------------------------------------------------------------------- broken content
CONTENT = ROOT / "content" / "kingdoms"

# (what is wrong, file, text replaced, replacement, where the error points ('|' marks the column),
#  which occurrence of that text, words of the message)
BROKEN = [
    ("two-events-on-one-roll", "events.yaml", "roll: 7", "roll: 6", "roll: |6", 2, "roll 6 already selects event 'harvest'"),
    ("a-face-of-the-event-die-with-no-event", "events.yaml", "roll: 10", "roll: 9", "- |id: treasure-trove", 1,
     "no event for the roll(s) 10 of the d10"),
    ("two-phases-in-one-place", "phases.yaml", "order: 2,", "order: 1,", "order: |1,", 2, "another phase also has order 1"),
    ("a-structure-built-in-a-phase-that-does-not-build-it", "structures.yaml", "build-phase: settle-phase",
     "build-phase: event-phase", "build-phase: |event-phase", 1,
     "'settlement' is built in 'event-phase', but that phase's builds do not list it"),
    ("raid-hits-that-never-reach-armies", "segments.yaml", "hit-allocation: [castle, wizard-tower, army, settlement]",
     "hit-allocation: [castle, settlement]", "hit-allocation: |[castle", 1, "horde hits can never reach army, wizard-tower"),
    ("no-segment-moves-the-hordes", "segments.yaml", "    target-priority:\n" + "".join(
        f"      - {k}\n" for k in ("undefended-settlement", "settlement-with-armies", "armies-only",
                                   "castle-without-armies", "castle-with-armies")), "", "- |id: raid-segment", 1,
     "no segment says where the hordes move (target-priority)"),
    ("a-conversion-into-the-same-resource", "abilities.yaml", "from: wood, to: magic", "from: wood, to: wood",
     "to: |wood", 1, "converts wood into itself"),
    ("a-board-wider-than-the-coordinate-die", "rules.yaml", "columns: 10", "columns: 12", "columns: |12", 1,
     "a 12 x 10 board has spaces that d10 coordinates never reach"),
    ("too-few-checkerboard-spaces-for-the-tiles", "rules.yaml", "rows: 10", "rows: 8", "tile-layout: |random", 1,
     "50 terrain tiles for the 40 checkerboard spaces of a 10 x 8 board"),
]


def _where(text: str, marked: str, nth: int) -> tuple[int, int]:
    """Line and column (1-based) of the '|' in `marked`, at its `nth` occurrence in `text`."""
    needle = marked.replace("|", "")
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    at += marked.index("|")
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


@pytest.mark.parametrize("file,old,new,marked,nth,message", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_content_that_breaks_the_games_own_rules_is_a_located_error(tmp_path: Path, file: str, old: str, new: str,
                                                                     marked: str, nth: int, message: str) -> None:
    game = tmp_path / "kingdoms"
    shutil.copytree(CONTENT, game)
    text = (game / file).read_text()
    assert old in text
    broken = text.replace(old, new, 1)
    (game / file).write_text(broken)
    proc = run_cli("validate", str(game))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    line, col = _where(broken, marked, nth)
    assert f"{game / file}:{line}:{col}: error HK309: {message}" in proc.stdout, proc.stdout


def test_the_shipped_content_keeps_the_games_own_rules() -> None:
    from engine.kingdoms.checks import content_problems
    from test_kingdoms_rules import content

    assert content_problems(content()) == []


def test_the_model_is_never_built_from_content_that_breaks_them() -> None:
    import copy

    from engine.kingdoms import SPEC
    from test_kingdoms_rules import content

    data = copy.deepcopy(content())
    data["event"][6]["roll"] = 6
    with pytest.raises(ValueError, match="roll 6 already selects event 'harvest'"):
        SPEC.build_model(data)


def test_a_standard_setup_with_a_bad_option_points_at_the_option(tmp_path: Path) -> None:
    """Without `setup` a scenario plays the standard setup with its top-level options: a fault in
    them is reported at that option's line and column."""
    path = tmp_path / "bad-option.yaml"
    path.write_text("name: a misspelt variant\ngame: kingdoms\nplayers: 2\noptions:\n  variants: [nope]\nsteps: []\n")
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"FAIL {path}:5:14: "), proc.stdout
    assert "at options.variants[0]: kingdoms has no variant 'nope'" in proc.stdout, proc.stdout
