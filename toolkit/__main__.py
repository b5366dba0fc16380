"""`python -m toolkit` runs the hordekit command line."""

from toolkit.cli import main

main()
