"""What is retried, and how long to wait: one policy, the same in every Vaultline SDK (sdks/test-vectors/retries.json)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
import time

# The codes of a 409 that mean "the first request with this Idempotency-Key is still running": retried with
# the same key. (idempotency_key_in_use is what the API answers; idempotency_key_in_progress is the name.)
RETRIED_CONFLICTS = frozenset({"idempotency_key_in_use", "idempotency_key_in_progress"})


@dataclass(frozen=True)
class RetryPolicy:
    """Retries after the first attempt on network errors, 409 idempotency_key_in_use, 429 and 5xx."""

    max_retries: int = 2
    """Retries after the first attempt."""
    initial_delay: float = 0.5
    """First backoff in seconds, doubled on each retry, with jitter (half of it at random)."""
    max_delay: float = 20.0
    """The longest wait between two attempts, Retry-After included."""

    def backoff(self, attempt: int) -> float:
        exponential = self.initial_delay * 2.0**attempt
        return min(self.max_delay, exponential / 2 + random.random() * exponential / 2)

    def delay(self, attempt: int, retry_after: str | None) -> float:
        """Retry-After when the answer gives one (capped by max_delay), else the backoff of this attempt."""
        wait = retry_after_seconds(retry_after)
        return min(self.max_delay, wait) if wait is not None else self.backoff(attempt)


def is_retried(status: int, code: str | None) -> bool:
    """429, every 5xx, and a 409 whose code says the same key is still running; never another 4xx."""
    return status == 429 or status >= 500 or (status == 409 and code in RETRIED_CONFLICTS)


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3); None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        at = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))
