"""Retry-After is read in seconds and as an HTTP date (RFC 9110 §10.2.3): the vectors cannot fix a date relative to now."""

from __future__ import annotations

from email.utils import formatdate

from vaultline._retry import RetryPolicy, retry_after_seconds

NOW = 1_796_000_000.0


def test_retry_after_in_seconds_and_as_an_http_date() -> None:
    assert retry_after_seconds("3", NOW) == 3.0
    assert retry_after_seconds(formatdate(NOW + 5, usegmt=True), NOW) == 5.0
    assert retry_after_seconds(formatdate(NOW - 60, usegmt=True), NOW) == 0.0


def test_an_absent_or_unreadable_retry_after_is_none_and_the_backoff_applies() -> None:
    assert retry_after_seconds(None, NOW) is None
    assert retry_after_seconds(" ", NOW) is None
    assert retry_after_seconds("soon", NOW) is None
    assert 0.25 <= RetryPolicy().delay(0, "soon") <= 0.5
