package vaultline

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says what is retried and how long to wait: the same policy in every Vaultline SDK
// (sdks/test-vectors/retries.json).
type RetryPolicy struct {
	// MaxRetries after the first attempt (default 2).
	MaxRetries int
	// InitialDelay is the first backoff (default 500 ms), doubled on each retry, with jitter (half of it at random).
	InitialDelay time.Duration
	// MaxDelay is the longest wait between two attempts, Retry-After included (default 20 s).
	MaxDelay time.Duration
}

// DefaultRetryPolicy: 2 retries, 500 ms doubled, at most 20 s.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 2, InitialDelay: 500 * time.Millisecond, MaxDelay: 20 * time.Second}

// retriedConflicts are the codes of a 409 that mean "the first request with this Idempotency-Key is still
// running": retried with the same key (idempotency_key_in_use is what the API answers; idempotency_key_in_progress
// is the name the SDKs' issue gave it).
var retriedConflicts = map[string]bool{"idempotency_key_in_use": true, "idempotency_key_in_progress": true}

// isRetried: 429, every 5xx and a 409 whose code says the same key is still running; never another 4xx.
func isRetried(status int, code string) bool {
	return status == 429 || status >= 500 || (status == 409 && retriedConflicts[code])
}

func (p RetryPolicy) backoff(attempt int) time.Duration {
	exponential := p.InitialDelay << attempt
	return min(p.MaxDelay, exponential/2+time.Duration(rand.Int64N(int64(exponential/2)+1)))
}

// delay is Retry-After when the answer gives one (capped by MaxDelay), else the backoff of this attempt.
func (p RetryPolicy) delay(attempt int, header http.Header, now time.Time) time.Duration {
	if wait, ok := RetryAfter(header.Get("Retry-After"), now); ok {
		return min(p.MaxDelay, wait)
	}
	return p.backoff(attempt)
}

// RetryAfter reads a Retry-After value in seconds or as an HTTP date (RFC 9110 §10.2.3).
func RetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		return time.Duration(seconds) * time.Second, true
	}
	at, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(0, at.Sub(now)), true
}
