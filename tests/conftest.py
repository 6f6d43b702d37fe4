"""Test-wide settings."""

from hypothesis import settings

# No per-example deadline: speed is measured in benchmarks/, never by timing tests (a loaded CI
# machine must not turn a slow example into a failure).
settings.register_profile("spyglass", deadline=None)
settings.load_profile("spyglass")
