"""hordekit's rules engines.

`engine.core` holds what every game shares (the step API, the driver, replay, scenarios);
each game is one package `engine.<game_id>` exposing `SPEC`. Nothing here imports the toolkit,
YAML, Typer or ReportLab, so the engine can be driven from a notebook or a training loop.
"""
