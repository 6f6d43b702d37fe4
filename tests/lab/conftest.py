"""A local Ray instance shared by the lab's Ray tests (starting one takes seconds)."""

import logging

import pytest


@pytest.fixture(scope="session")
def local_ray():
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(
            num_cpus=2, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False
        )
    yield ray
    if started:
        ray.shutdown()
