"""The ``spyglass`` command line: play, replay, rules, games, sim."""
