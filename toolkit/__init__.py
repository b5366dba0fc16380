"""hordekit: validate, play and print board-game content kept as YAML."""

__version__ = "0.1.0"
