"""``python -m spyglass``: the ``spyglass`` command (cli/main.py)."""

from spyglass.cli.main import main

main()
