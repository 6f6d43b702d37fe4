"""Learning-library adapters: Gymnasium, PettingZoo and OpenSpiel (``pip install -e ".[rl]"``).

``spyglass.adapters.encoding`` (numpy only) maps actions to indices and views to vectors; the
three library modules import their library when they are imported.
"""
