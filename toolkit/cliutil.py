"""Small pieces every command module shares: usage errors, finding games, output formats,
verbosity, and help texts that speak the designer's language instead of Python's.
"""

from __future__ import annotations

from contextvars import ContextVar
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn

import typer
from typer.core import TyperArgument, TyperGroup

from toolkit.cliparams import convert_without_pydantic

MANIFEST = "game.yaml"


class OutputFormat(str, Enum):
    """How a command prints its results: for people, for scripts, or as CI annotations."""

    text = "text"
    json = "json"
    github = "github"


# More smoke games than this is a typo, not a plan: a hundred million take days even on a cluster.
MAX_GAMES = 100_000_000


def games_limit(value: int | None) -> int | None:
    """`--games` callback: a count over MAX_GAMES is a usage error that gives the limit in digits
    (a range check of the option itself would print it as 1e+08)."""
    if value is not None and value > MAX_GAMES:
        raise typer.BadParameter(f"{value:,} is more games than any run could finish; at most {MAX_GAMES:,}")
    return value


def usage_error(message: str) -> NoReturn:
    """Report a mistake in the command line itself: exit code 2, as for unknown options."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


#: The folder option's old spelling, still accepted (hidden from help) while scripts move to -d.
OldOutDir = typer.Option("--output", "-o", hidden=True, help="Old spelling of -d/--out-dir.")


def renamed_out_dir(old: Path | None, new: Path | None) -> Path | None:
    """The folder given with -d/--out-dir, or with the old -o/--output (with a warning)."""
    if old is None:
        return new
    if new is not None:
        usage_error("give the folder once, with -d/--out-dir")
    typer.echo("warning: -o/--output for a folder is now -d/--out-dir (-o is always a file)", err=True)
    return old


GAME_HELP = ("A game id under ./content, or a game folder. Default: the game here (./game.yaml) "
             "or the only game under ./content.")
"""Help of the GAME argument of the commands that work on one game."""


def game_folder(name: str | None) -> Path:
    """The game folder a command argument names (a folder, or a game id under ./content); with
    no name, the game here or the only one under ./content (exit 2 when there is none or several)."""
    from toolkit.games import find_game

    if name is None:
        found = only_local_game()
        if found is None:
            usage_error("no game here: neither ./game.yaml nor a game under ./content. Name a game (a game id "
                        "or folder), or create one with `hordekit new NAME`" + _games_below_hint())
        return found
    folder, problem = find_game(name)
    if folder is None:
        usage_error(problem)
    return folder


def only_local_game() -> Path | None:
    """The game here, or the only one under ./content; None when there is none; exit 2 when
    ./content holds several (the command then needs a name)."""
    if Path(MANIFEST).is_file():
        return Path(".")
    content = Path("content")
    found = sorted(d for d in content.iterdir() if (d / MANIFEST).is_file()) if content.is_dir() else []
    if len(found) > 1:
        usage_error(f"several games under ./content ({', '.join(d.name for d in found)}): name the one to use")
    return found[0] if found else None


def local_games(paths: list[Path] | None, shipped: bool = False) -> list[Path]:
    """The places a command works on: the paths given; with none, the game in the current
    folder or the games under ./content; with ``shipped``, the games hordekit comes with.

    Never falls back to hordekit's own games silently: a designer's repository without a game
    is told so (exit 2).
    """
    from toolkit.paths import data_dir

    if shipped:
        if paths:
            usage_error("give game folders or --shipped, not both")
        return [data_dir("content")]
    if paths:
        # a name that is no file or folder may be a game id, as every other command takes
        return [_place(p) for p in paths]
    here = Path(".")
    if (here / MANIFEST).is_file():
        return [here]
    content = here / "content"
    if content.is_dir() and any((d / MANIFEST).is_file() for d in content.iterdir()):
        return [content]
    usage_error("no game here: neither ./game.yaml nor a game under ./content. Name a game folder, "
                "create a game with `hordekit new NAME`, or add --shipped for the games that come with hordekit"
                + _games_below_hint())


def _games_below_hint() -> str:
    """When the current folder is a content folder (its sub-folders hold games), the hint naming
    them: a designer who changed into content/ is told which names to give."""
    try:
        below = sorted(d.name for d in Path(".").iterdir() if (d / MANIFEST).is_file())
    except OSError:
        return ""
    if not below:
        return _game_above_hint()
    shown = ", ".join(below[:5]) + (f" and {len(below) - 5} more" if len(below) > 5 else "")
    return f". The folders here hold games ({shown}): name one, e.g. `{below[0]}`"


def _game_above_hint() -> str:
    """When the current folder lies inside a game (its schemas/ or templates/, say), the hint
    naming that game's folder: a designer who changed into a sub-folder is told where to go."""
    here = Path.cwd()
    for depth, folder in enumerate(here.parents[:4], start=1):
        if (folder / MANIFEST).is_file():
            up = "/".join([".."] * depth)
            return f". This folder is inside the game in {up} ({folder.name}): run the command there, or name it, e.g. `{up}`"
    return ""


def _place(path: Path) -> Path:
    """What a path argument of `validate`, `games` or `build` names: the file or folder, or, when
    there is none, the game of that id. A bare name that is a folder holding no game (an output
    folder called `kingdoms`, say) also names the game of that id, as `pnp kingdoms` takes it."""
    from toolkit.games import find_game, find_game_dirs

    if not path.exists():
        return game_folder(str(path))
    if len(path.parts) == 1 and path.is_dir() and not find_game_dirs([path])[0]:
        folder, _ = find_game(str(path))
        if folder is not None:
            return folder
    return path


def load_checked(game_dir: Path) -> Any:
    """Load and check a game as `validate` does, print-fit warnings (HK401) included."""
    from toolkit.games import load_game
    from toolkit.gcpause import collector_paused

    with collector_paused():  # big content: no cycles made, and the collector's walks cost a fifth
        loaded = load_game(game_dir)
        if loaded.ok and loaded.game is not None and (loaded.game.templates_dir / "layouts.yaml").is_file():
            from toolkit.pnp import check_text_fit

            loaded.diagnostics += check_text_fit(loaded)  # text too long for its printed box: HK401
    return loaded


#: -1 with -q, 1 with -v, 0 otherwise; set once per invocation by the global options.
VERBOSITY: ContextVar[int] = ContextVar("hordekit_verbosity", default=0)


def verbosity() -> int:
    """-1 with -q, 1 with -v, 0 otherwise (the global options before the command name)."""
    return VERBOSITY.get()


def say(message: str, *, level: int = 0, err: bool = False) -> None:
    """Print a progress or status line unless -q (level 0) or unless -v was given (level 1)."""
    if verbosity() >= level:
        typer.echo(message, err=err)


# -- help texts: no Python types ----------------------------------------------------------------

#: Metavars for the types Typer would otherwise show as Python types (<int range>, <str>).
_TYPE_METAVARS = {"int": "N", "int range": "N", "float": "NUMBER", "float range": "NUMBER",
                  "str": "TEXT", "path": "PATH", "Path": "PATH"}


#: The convention every command keeps: -o/--output is a file, -d/--out-dir a folder.
_NAMED_METAVARS = {"output": "FILE", "out_dir": "FOLDER"}


class _PlainArgument(TyperArgument):
    """An argument shown as `GAME` or `[PATH]...` in usage and help, like every Unix tool."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _rich_display_name(self) -> str:
        return self._plain_name() + ("..." if self.nargs != 1 else "")

    def _usage_display_name(self) -> str:
        name = self._plain_name()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def _plain_name(self) -> str:
        return (self.metavar or self.name or "").upper()


def plain_metavars(command: Any, ctx: Any) -> Any:
    """Give every parameter of ``command`` a metavar a designer can read (TEXT, N, PATH, a|b),
    and a converter for its values that does not import pydantic (toolkit.cliparams)."""
    convert_without_pydantic(command, ctx)
    for param in getattr(command, "params", []):
        if isinstance(param, TyperArgument) and not isinstance(param, _PlainArgument):
            param.__class__ = _PlainArgument
        elif (param.param_type_name == "option" and not param.is_flag and not param.count
              and param.metavar is None and hasattr(param, "display_type")):
            label = param.display_type(ctx).strip("<>")
            label = label[len("list["):-1] if label.startswith("list[") else label
            param.metavar = _NAMED_METAVARS.get(param.name or "") or _TYPE_METAVARS.get(label, label)
    for sub in getattr(command, "commands", {}).values():
        plain_metavars(sub, ctx)
    return command


class HordekitGroup(TyperGroup):
    """The command group: every subcommand's help speaks in metavars, not Python types."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        convert_without_pydantic(self, ctx)  # the global options: -q, -v, --help, completion
        return super().parse_args(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            plain_metavars(command, ctx)
        return command
