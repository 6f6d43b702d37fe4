"""Learning-library adapters: Gymnasium, PettingZoo and OpenSpiel (``pip install -e ".[rl]"``).

``spyglass.adapters.tensors`` (numpy only) maps actions to indices and views (or states, through
a game's direct observer) to vectors; ``spyglass.adapters.rewards`` says what a finished game
pays each seat; the three library modules import their library when they are imported.
"""
