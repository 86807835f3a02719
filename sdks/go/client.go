package vaultline

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"
)

// DefaultBaseURL is the embedded service (pnpm start).
const DefaultBaseURL = "http://localhost:8080"

var merchantKey = regexp.MustCompile(`^sk_(test|live)_`)

// Client of the merchant API: a service per resource (client.Payments, client.WebhookEndpoints, …), each
// operation a method taking a context.
type Client struct {
	resources
	// Mode is "test" or "live": the key says which data it sees.
	Mode string

	apiKey     string
	baseURL    string
	httpClient *http.Client
	policy     RetryPolicy
	header     http.Header
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time
}

// Option configures a Client.
type Option func(*Client)

// WithBaseURL: where the API is (default VAULTLINE_BASE_URL, else DefaultBaseURL).
func WithBaseURL(baseURL string) Option {
	return func(c *Client) { c.baseURL = strings.TrimRight(baseURL, "/") }
}

// WithHTTPClient: the *http.Client that sends the requests (its Timeout bounds each attempt).
func WithHTTPClient(httpClient *http.Client) Option {
	return func(c *Client) { c.httpClient = httpClient }
}

// WithRetryPolicy: how many retries and how long to wait between them.
func WithRetryPolicy(policy RetryPolicy) Option { return func(c *Client) { c.policy = policy } }

// WithMaxRetries: retries after the first attempt (default 2); 0 retries nothing.
func WithMaxRetries(n int) Option { return func(c *Client) { c.policy.MaxRetries = n } }

// WithHeader: a header sent on every request (X-Test-Now for the test clock, for instance).
func WithHeader(name, value string) Option { return func(c *Client) { c.header.Set(name, value) } }

// NewClient makes a client with a merchant key (sk_test_… or sk_live_…; "" reads VAULTLINE_API_KEY).
func NewClient(apiKey string, opts ...Option) (*Client, error) {
	if apiKey == "" {
		apiKey = os.Getenv("VAULTLINE_API_KEY")
	}
	mode := merchantKey.FindStringSubmatch(apiKey)
	if mode == nil {
		return nil, errors.New("vaultline: an API key starts with sk_test_ or sk_live_ (pass one or set VAULTLINE_API_KEY)")
	}
	baseURL := os.Getenv("VAULTLINE_BASE_URL")
	if baseURL == "" {
		baseURL = DefaultBaseURL
	}
	c := &Client{
		Mode:       mode[1],
		apiKey:     apiKey,
		baseURL:    strings.TrimRight(baseURL, "/"),
		httpClient: &http.Client{Timeout: 60 * time.Second},
		policy:     DefaultRetryPolicy,
		header:     http.Header{},
		sleep:      sleepContext,
		now:        time.Now,
	}
	for _, opt := range opts {
		opt(c)
	}
	c.initResources()
	return c, nil
}

// Livemode is true for a live key.
func (c *Client) Livemode() bool { return c.Mode == "live" }

// BaseURL is where the client sends its requests.
func (c *Client) BaseURL() string { return c.baseURL }

// RequestOption configures one call.
type RequestOption func(*requestConfig)

type requestConfig struct {
	idempotencyKey string
	header         http.Header
}

// WithIdempotencyKey: the Idempotency-Key of a POST (default: a random UUID, the same on every retry).
func WithIdempotencyKey(key string) RequestOption {
	return func(r *requestConfig) { r.idempotencyKey = key }
}

// WithRequestHeader: a header of this call only (a processor's signature header, for instance).
func WithRequestHeader(name, value string) RequestOption {
	return func(r *requestConfig) { r.header.Set(name, value) }
}

// RawResponse is an answer the SDK does not parse: a forwarded destination's, a processor's acknowledgment.
type RawResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// Ptr is a pointer to v: for the optional fields and parameters (vaultline.Ptr("captured")).
func Ptr[T any](v T) *T { return &v }

// Do calls any route, untyped (one newer than this SDK): the same key, retries, Idempotency-Key and
// errors; the JSON answer is decoded into out unless out is nil.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body any, out any, opts ...RequestOption) error {
	return c.do(ctx, strings.ToUpper(method), path, query, nil, body, out, opts)
}

func (c *Client) do(ctx context.Context, method, path string, query url.Values, header http.Header, body any, out any, opts []RequestOption) error {
	data, _, err := c.send(ctx, method, path, query, header, body, opts)
	if err != nil || out == nil || len(data) == 0 {
		return err
	}
	return json.Unmarshal(data, out)
}

func (c *Client) doBytes(ctx context.Context, method, path string, query url.Values, header http.Header, body any, opts []RequestOption) ([]byte, error) {
	data, _, err := c.send(ctx, method, path, query, header, body, opts)
	return data, err
}

func (c *Client) doRaw(ctx context.Context, method, path string, query url.Values, header http.Header, body any, opts []RequestOption) (*RawResponse, error) {
	data, response, err := c.send(ctx, method, path, query, header, body, opts)
	if err != nil {
		return nil, err
	}
	return &RawResponse{Status: response.StatusCode, Header: response.Header, Body: data}, nil
}

// encodeBody: JSON without HTML escaping (a processor's signed body is sent byte for byte as given in a
// json.RawMessage); nil and a nil pointer send no body.
func encodeBody(body any) ([]byte, error) {
	if body == nil {
		return nil, nil
	}
	if value := reflect.ValueOf(body); value.Kind() == reflect.Pointer && value.IsNil() {
		return nil, nil
	}
	var buffer bytes.Buffer
	encoder := json.NewEncoder(&buffer)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(body); err != nil {
		return nil, fmt.Errorf("vaultline: encoding the body: %w", err)
	}
	return bytes.TrimRight(buffer.Bytes(), "\n"), nil
}

// send makes the request once (every retry sends the same bytes and the same Idempotency-Key) and retries
// network errors, 409 idempotency_key_in_use, 429 and 5xx with backoff; any other failure is an *Error.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, header http.Header, body any, opts []RequestOption) ([]byte, *http.Response, error) {
	config := requestConfig{header: http.Header{}}
	for _, opt := range opts {
		opt(&config)
	}
	payload, err := encodeBody(body)
	if err != nil {
		return nil, nil, err
	}
	sent := http.Header{}
	sent.Set("X-API-Key", c.apiKey)
	sent.Set("User-Agent", "vaultline-go/"+Version)
	sent.Set("Accept", "application/json")
	if payload != nil {
		sent.Set("Content-Type", "application/json")
	}
	for _, extra := range []http.Header{c.header, header, config.header} {
		for name, values := range extra {
			sent[http.CanonicalHeaderKey(name)] = values
		}
	}
	if method == http.MethodPost && sent.Get("Idempotency-Key") == "" {
		key := config.idempotencyKey
		if key == "" {
			key = newUUID()
		}
		sent.Set("Idempotency-Key", key)
	}
	target := c.baseURL + path
	if encoded := query.Encode(); encoded != "" {
		target += "?" + encoded
	}
	for attempt := 0; ; attempt++ {
		request, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(payload))
		if err != nil {
			return nil, nil, err
		}
		if payload == nil {
			request.Body, request.ContentLength = http.NoBody, 0
		}
		request.Header = sent.Clone()
		response, err := c.httpClient.Do(request)
		var data []byte
		if err == nil {
			data, err = io.ReadAll(response.Body)
			response.Body.Close()
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			if attempt >= c.policy.MaxRetries {
				return nil, nil, &ConnectionError{Method: method, Path: path, Attempts: attempt + 1, Err: err}
			}
			if err := c.sleep(ctx, c.policy.backoff(attempt)); err != nil {
				return nil, nil, err
			}
			continue
		}
		if response.StatusCode >= 200 && response.StatusCode < 300 {
			return data, response, nil
		}
		code := ""
		if response.StatusCode == 409 {
			code, _ = problemOf(data)["code"].(string)
		}
		if attempt < c.policy.MaxRetries && isRetried(response.StatusCode, code) {
			if err := c.sleep(ctx, c.policy.delay(attempt, response.Header, c.now())); err != nil {
				return nil, nil, err
			}
			continue
		}
		return nil, nil, apiError(response.StatusCode, data, response.Header)
	}
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// newUUID is a random UUID (version 4).
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// setParam sets an optional query parameter or header when it is given.
func setParam[T any](values interface{ Set(string, string) }, name string, value *T) {
	if value != nil {
		values.Set(name, fmt.Sprint(*value))
	}
}

// paginate is every item of a list, page after page (starting_after = the previous page's next_cursor,
// until has_more is false), fetched as the loop asks for them; a failed page ends the loop with its error.
func paginate[T any](ctx context.Context, c *Client, path string, query url.Values, header http.Header, opts []RequestOption) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		cursor := ""
		for {
			pageQuery := url.Values{}
			for name, values := range query {
				pageQuery[name] = values
			}
			if cursor != "" {
				pageQuery.Set("starting_after", cursor)
			}
			var page struct {
				Data       []T     `json:"data"`
				HasMore    bool    `json:"has_more"`
				NextCursor *string `json:"next_cursor"`
			}
			if err := c.do(ctx, http.MethodGet, path, pageQuery, header, nil, &page, opts); err != nil {
				yield(nil, err)
				return
			}
			for i := range page.Data {
				if !yield(&page.Data[i], nil) {
					return
				}
			}
			if !page.HasMore || page.NextCursor == nil || *page.NextCursor == "" {
				return
			}
			cursor = *page.NextCursor
		}
	}
}
