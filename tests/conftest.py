"""Hypothesis runs the same examples everywhere: on a developer's machine and in CI alike, derandomized
(the examples follow from each test's own text), so a failure seen once is seen again by anyone who
runs the same tests.  ``pytest --hypothesis-profile explore`` draws fresh, random examples, more of
them, to look for new failures on purpose."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "repeatable",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile("explore", settings.get_profile("repeatable"), max_examples=300, derandomize=False)
settings.load_profile("repeatable")
