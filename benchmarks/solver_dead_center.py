"""How often Dead Center's (or Area 52's) solver settles a deal within a CPU allowance, and how
fast.

    nice -n 10 python benchmarks/solver_dead_center.py [--game dead-center|area-52]
        [--deals 200] [--first 0] [--seconds 2] [--seed 2026] [--generic]

The same measurement as ``solver_syndicate.py`` (the strength run's deals, every winning line
replayed, the unknown deals listed), for Dead Center by default; ``--game area-52`` measures
Area 52 with its own solver.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from solver_syndicate import main as measure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--game", default="dead-center", choices=["dead-center", "area-52"])
    known, rest = parser.parse_known_args(argv)
    return measure(rest, game_id=known.game)


if __name__ == "__main__":
    sys.exit(main())
