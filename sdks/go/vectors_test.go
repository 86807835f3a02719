package vaultline

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

type webhookVector struct {
	Name, Secret, Payload string
	ID, Timestamp         *string
	Signature             *string
	HeaderCase            string `json:"header_case"`
	Now                   int64
	Valid                 bool
}

func TestWebhookVectors(t *testing.T) {
	for _, c := range vectors[webhookVector](t, "webhooks") {
		t.Run(c.Name, func(t *testing.T) {
			header := http.Header{}
			for name, value := range map[string]*string{"webhook-id": c.ID, "webhook-timestamp": c.Timestamp, "webhook-signature": c.Signature} {
				if value == nil {
					continue
				}
				if c.HeaderCase == "upper" {
					name = strings.ToUpper(name)
				}
				header[name] = []string{*value} // as sent, not canonicalized: Get must find any case
				header = http.Header(canonical(header))
			}
			event, err := VerifyWebhook([]byte(c.Payload), header, c.Secret, WithClock(func() time.Time { return time.Unix(c.Now, 0) }))
			if !c.Valid {
				if !errors.Is(err, ErrWebhookVerification) {
					t.Fatalf("want a webhook verification error, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			json.Unmarshal([]byte(c.Payload), &want)
			if event.Type != want["type"] || !reflect.DeepEqual(event.Data, want["data"]) {
				t.Fatalf("the event is not the payload: %+v", event)
			}
		})
	}
}

// canonical is the header as net/http gives it to a handler.
func canonical(h http.Header) map[string][]string {
	out := map[string][]string{}
	for name, values := range h {
		out[http.CanonicalHeaderKey(name)] = values
	}
	return out
}

// expectedError is the error a case expects: kind, status and code always; detail, field, request_id and
// type when the case names them (null: the SDK's error has none).
type expectedError map[string]any

func (e expectedError) text(name string) (string, bool) {
	value, named := e[name]
	if !named {
		return "", false
	}
	text, _ := value.(string)
	return text, true
}

var kindSentinels = map[string]error{
	"invalid_request": ErrInvalidRequest, "authentication": ErrAuthentication, "permission": ErrPermission, "not_found": ErrNotFound,
	"conflict": ErrConflict, "rate_limit": ErrRateLimit, "server": ErrServer, "connection": ErrConnection,
}

func checkError(t *testing.T, err error, want expectedError) {
	t.Helper()
	kind, _ := want.text("kind")
	if kind == "connection" {
		if !errors.Is(err, ErrConnection) {
			t.Fatalf("want a connection error, got %v", err)
		}
		return
	}
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("want an *Error, got %v", err)
	}
	code, _ := want.text("code")
	if string(apiErr.Kind) != kind || float64(apiErr.Status) != want["status"] || apiErr.Code != code {
		t.Fatalf("want %v, got %s %d %s", want, apiErr.Kind, apiErr.Status, apiErr.Code)
	}
	if sentinel, ok := kindSentinels[kind]; ok && !errors.Is(err, sentinel) {
		t.Fatalf("errors.Is(err, %v) does not hold", sentinel)
	}
	for name, got := range map[string]string{"detail": apiErr.Detail, "field": apiErr.Field, "request_id": apiErr.RequestID, "type": apiErr.Type} {
		if expected, named := want.text(name); named && got != expected {
			t.Fatalf("%s: want %q, got %q", name, expected, got)
		}
	}
}

func TestErrorVectors(t *testing.T) {
	type errorVector struct {
		Name   string
		Answer scriptedAnswer
		Error  expectedError
	}
	for _, c := range vectors[errorVector](t, "errors") {
		t.Run(c.Name, func(t *testing.T) {
			server := newScriptedServer(t, []scriptedAnswer{c.Answer})
			client, _ := NewClient("sk_test_vectors", WithBaseURL(server.URL), WithMaxRetries(0))
			checkError(t, client.Do(context.Background(), "GET", "/vector", nil, nil, nil), c.Error)
		})
	}
}

func TestRetryVectors(t *testing.T) {
	type retryVector struct {
		Name    string
		Request struct {
			Method, Path   string
			Body           json.RawMessage
			IdempotencyKey *string `json:"idempotency_key"`
		}
		MaxRetries int `json:"max_retries"`
		Answers    []scriptedAnswer
		Expect     struct {
			Requests       int
			WaitsMs        []struct{ Min, Max int64 } `json:"waits_ms"`
			IdempotencyKey *string                    `json:"idempotency_key"`
			Result         json.RawMessage
			Error          expectedError
		}
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, c := range vectors[retryVector](t, "retries") {
		t.Run(c.Name, func(t *testing.T) {
			server := newScriptedServer(t, c.Answers)
			var waits []time.Duration
			client, _ := NewClient("sk_test_vectors", WithBaseURL(server.URL), WithMaxRetries(c.MaxRetries))
			client.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
			var opts []RequestOption
			if c.Request.IdempotencyKey != nil {
				opts = append(opts, WithIdempotencyKey(*c.Request.IdempotencyKey))
			}
			var body any
			if c.Request.Body != nil {
				body = c.Request.Body
			}
			var result json.RawMessage
			err := client.Do(context.Background(), c.Request.Method, c.Request.Path, nil, body, &result, opts...)

			seen := server.requests()
			if len(seen) != c.Expect.Requests {
				t.Fatalf("want %d requests, got %d", c.Expect.Requests, len(seen))
			}
			if len(waits) != len(c.Expect.WaitsMs) {
				t.Fatalf("want %d waits, got %v", len(c.Expect.WaitsMs), waits)
			}
			for i, wait := range waits {
				if ms := wait.Milliseconds(); ms < c.Expect.WaitsMs[i].Min || ms > c.Expect.WaitsMs[i].Max {
					t.Fatalf("wait %d: %d ms is not within %+v", i, ms, c.Expect.WaitsMs[i])
				}
			}
			for _, request := range seen {
				if request.Header.Get("Idempotency-Key") != seen[0].Header.Get("Idempotency-Key") || string(request.Body) != string(seen[0].Body) {
					t.Fatal("every attempt carries the same Idempotency-Key and body")
				}
			}
			key := seen[0].Header.Get("Idempotency-Key")
			switch {
			case c.Expect.IdempotencyKey == nil:
				if key != "" {
					t.Fatalf("want no Idempotency-Key, got %q", key)
				}
			case *c.Expect.IdempotencyKey == "generated":
				if !uuid.MatchString(key) {
					t.Fatalf("want a generated UUID, got %q", key)
				}
			case key != *c.Expect.IdempotencyKey:
				t.Fatalf("want Idempotency-Key %q, got %q", *c.Expect.IdempotencyKey, key)
			}
			if c.Request.Body != nil {
				var sent, given any
				json.Unmarshal(seen[0].Body, &sent)
				json.Unmarshal(c.Request.Body, &given)
				if !reflect.DeepEqual(sent, given) {
					t.Fatalf("the body sent %s is not the body given", seen[0].Body)
				}
			}
			if c.Expect.Error != nil {
				checkError(t, err, c.Expect.Error)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			json.Unmarshal(result, &got)
			json.Unmarshal(c.Expect.Result, &want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("want %s, got %s", c.Expect.Result, result)
			}
		})
	}
}

func TestTheVersionIsTheAPIVersionOfTheOpenAPIDocument(t *testing.T) {
	want := os.Getenv("VAULTLINE_API_VERSION")
	if want == "" {
		t.Skip("VAULTLINE_API_VERSION: the OpenAPI document's info.version")
	}
	if Version != want {
		t.Fatalf("Version is %s, the API's is %s", Version, want)
	}
}
