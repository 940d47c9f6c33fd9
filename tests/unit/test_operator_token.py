"""The operator's token (server.match_service.operator_allowed): only the exact token passes;
every near miss an attacker could try is refused, and nothing passes without a token set."""

from __future__ import annotations

import pytest

from server.match_service import operator_allowed

TOKEN = "pmo_Qx7aZ3kP9mW2vL5nR8tY4bC6dF1gH0jS"


@pytest.mark.parametrize(
    "given",
    [
        TOKEN[:-1],  # a prefix
        TOKEN[:4],
        TOKEN[1:],  # a suffix
        TOKEN + "x",  # longer
        "x" + TOKEN,
        TOKEN.lower(),  # case
        TOKEN.upper(),
        TOKEN.swapcase(),
        TOKEN[:-1] + ("A" if TOKEN[-1] != "A" else "B"),  # same length, last character
        " " + TOKEN,
        TOKEN + "\n",
        "",
    ],
)
def test_a_near_miss_is_refused(given: str) -> None:
    assert given != TOKEN
    assert operator_allowed(TOKEN, given) is False


def test_the_exact_token_passes() -> None:
    assert operator_allowed(TOKEN, str(TOKEN)) is True


@pytest.mark.parametrize("configured", [None, ""])
def test_without_a_configured_token_nothing_passes(configured: str | None) -> None:
    for given in (None, "", TOKEN):
        assert operator_allowed(configured, given) is False
