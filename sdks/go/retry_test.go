package vaultline

import (
	"net/http"
	"testing"
	"time"
)

// Retry-After is read in seconds and as an HTTP date (RFC 9110 §10.2.3): the vectors cannot fix a date relative to now.
func TestRetryAfterInSecondsAndAsAnHTTPDate(t *testing.T) {
	now := time.Unix(1_796_000_000, 0)
	for value, want := range map[string]time.Duration{
		"3": 3 * time.Second,
		now.Add(5 * time.Second).UTC().Format(http.TimeFormat): 5 * time.Second,
		now.Add(-time.Minute).UTC().Format(http.TimeFormat):    0,
	} {
		if got, ok := RetryAfter(value, now); !ok || got != want {
			t.Fatalf("%q: want %s, got %s (%v)", value, want, got, ok)
		}
	}
}

func TestAnAbsentOrUnreadableRetryAfterIsNoneAndTheBackoffApplies(t *testing.T) {
	for _, value := range []string{"", " ", "soon"} {
		if _, ok := RetryAfter(value, time.Now()); ok {
			t.Fatalf("%q read as a Retry-After", value)
		}
	}
	header := http.Header{"Retry-After": {"soon"}}
	if wait := DefaultRetryPolicy.delay(0, header, time.Now()); wait < 250*time.Millisecond || wait > 500*time.Millisecond {
		t.Fatalf("the first backoff is %s", wait)
	}
}
