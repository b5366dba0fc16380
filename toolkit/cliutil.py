"""Small pieces every command module shares: usage errors and finding the game a command names."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer


def usage_error(message: str) -> NoReturn:
    """Report a mistake in the command line itself: exit code 2, as for unknown options."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def game_folder(name: str) -> Path:
    """The game folder a command argument names (a folder, or a game id under ./content)."""
    from toolkit.games import find_game

    folder, problem = find_game(name)
    if folder is None:
        usage_error(problem)
    return folder
