package vaultline

// The Go SDK against the real service: every merchant route of the OpenAPI document once, through the
// SDK's typed methods (the shared scenario, sdks/test-vectors/contract-scenario.json), and a count of the
// routes called with a 2xx answer. Needs VAULTLINE_BASE_URL and VAULTLINE_API_KEY (a test key of a fresh
// service): the repository's test-e2e/sdk-go-embedded.test.ts starts the embedded service and runs this.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const untilDeadline = 60 * time.Second

var template = regexp.MustCompile(`\$\{([^}]+)\}`)

type scenarioStep struct {
	Call    string            `json:"call"`
	Path    map[string]any    `json:"path"`
	Params  map[string]any    `json:"params"`
	Body    json.RawMessage   `json:"body"`
	RawBody *string           `json:"raw_body"`
	Headers map[string]any    `json:"headers"`
	Until   map[string]any    `json:"until"`
	Expect  []map[string]any  `json:"expect"`
	Save    string            `json:"save"`
	Verify  map[string]string `json:"verify_webhook"`
}

type receivedWebhook struct {
	header http.Header
	body   []byte
}

// recordingTransport notes the route and status of every answer.
type recordingTransport struct {
	mu      sync.Mutex
	answers []routeAnswer
}

type routeAnswer struct {
	route  string
	status int
}

var routePatterns = func() []struct {
	route   string
	pattern *regexp.Regexp
	params  int
} {
	var patterns []struct {
		route   string
		pattern *regexp.Regexp
		params  int
	}
	for _, r := range Routes {
		expression := "^" + regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(r.Path, "[^/]+") + "$"
		patterns = append(patterns, struct {
			route   string
			pattern *regexp.Regexp
			params  int
		}{r.Method + " " + r.Path, regexp.MustCompile(expression), strings.Count(r.Path, "{")})
	}
	return patterns
}()

// routeOf is the route a request was for: the most specific template (fewest parameters) that matches.
func routeOf(method, path string) string {
	best, fewest := "", 1<<30
	for _, p := range routePatterns {
		if strings.HasPrefix(p.route, method+" ") && p.pattern.MatchString(path) && p.params < fewest {
			best, fewest = p.route, p.params
		}
	}
	return best
}

func (r *recordingTransport) RoundTrip(request *http.Request) (*http.Response, error) {
	response, err := http.DefaultTransport.RoundTrip(request)
	if err == nil {
		r.mu.Lock()
		r.answers = append(r.answers, routeAnswer{routeOf(request.Method, request.URL.Path), response.StatusCode})
		r.mu.Unlock()
	}
	return response, err
}

type scenario struct {
	t         *testing.T
	client    *Client
	variables map[string]any
	saved     map[string]any
	mu        sync.Mutex
	received  []receivedWebhook
}

func (s *scenario) lookup(expression string) any {
	if value, ok := s.variables[expression]; ok {
		return value
	}
	if kind, offset, ok := strings.Cut(expression, ":"); ok {
		days, _ := strconv.Atoi(offset)
		at := time.Now().UTC().AddDate(0, 0, days)
		switch kind {
		case "date":
			return at.Format("2006-01-02")
		case "date_compact":
			return at.Format("20060102")
		case "time":
			return at.Format("2006-01-02T15:04:05.000Z")
		}
	}
	name, rest, _ := strings.Cut(expression, ".")
	value, ok := s.saved[name]
	if !ok {
		s.t.Fatalf("nothing saved as %s", name)
	}
	return atPath(value, rest)
}

func (s *scenario) resolve(value any) any {
	switch v := value.(type) {
	case string:
		if whole := template.FindStringSubmatch(v); whole != nil && whole[0] == v {
			return s.lookup(whole[1])
		}
		return template.ReplaceAllStringFunc(v, func(match string) string { return fmt.Sprint(s.lookup(match[2 : len(match)-1])) })
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = s.resolve(item)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for key, item := range v {
			out[key] = s.resolve(item)
		}
		return out
	}
	return value
}

// atPath is the value at a dotted path of a JSON value; * maps over a list.
func atPath(value any, path string) any {
	if path == "" {
		return value
	}
	head, rest, _ := strings.Cut(path, ".")
	switch v := value.(type) {
	case []any:
		if head == "*" {
			out := make([]any, len(v))
			for i, item := range v {
				out[i] = atPath(item, rest)
			}
			return out
		}
		index, err := strconv.Atoi(head)
		if err != nil || index >= len(v) {
			return nil
		}
		return atPath(v[index], rest)
	case map[string]any:
		return atPath(v[head], rest)
	}
	return nil
}

// generic is a typed answer as plain JSON values, for the scenario's checks and ${…} values.
func generic(t *testing.T, answer any) any {
	data, err := json.Marshal(answer)
	if err != nil {
		t.Fatal(err)
	}
	var value any
	json.Unmarshal(data, &value)
	return value
}

func (s *scenario) call(step scenarioStep) (any, error) {
	operation, ok := operations[step.Call]
	if !ok {
		s.t.Fatalf("no operation %s", step.Call)
	}
	args := operationArgs{Path: map[string]string{}, Params: map[string]any{}, Headers: map[string]string{}}
	for name, value := range step.Path {
		args.Path[name] = fmt.Sprint(s.resolve(value))
	}
	for name, value := range step.Params {
		args.Params[name] = s.resolve(value)
	}
	for name, value := range step.Headers {
		args.Headers[name] = fmt.Sprint(s.resolve(value))
	}
	if step.Body != nil {
		var body any
		json.Unmarshal(step.Body, &body)
		args.Body, _ = json.Marshal(s.resolve(body))
	}
	if step.RawBody != nil {
		args.Body = json.RawMessage(*step.RawBody) // sent byte for byte: the signed bytes
	}
	answer, err := operation(context.Background(), s.client, args)
	if err != nil {
		return nil, err
	}
	return generic(s.t, answer), nil
}

func holds(answer any, condition map[string]any) bool {
	value := atPath(answer, fmt.Sprint(condition["path"]))
	if expected, ok := condition["equals"]; ok {
		return fmt.Sprint(value) == fmt.Sprint(expected)
	}
	return condition["exists"] == true && value != nil
}

func (s *scenario) callUntil(step scenarioStep) any {
	deadline := time.Now().Add(untilDeadline)
	for {
		answer, err := s.call(step)
		switch {
		case err == nil && (step.Until["succeeds"] == true || holds(answer, step.Until)):
			return answer
		case err == nil:
			if fails, ok := step.Until["fails_if"].(map[string]any); ok && holds(answer, fails) {
				s.t.Fatalf("%s: %v", step.Call, fails)
			}
		case step.Until["succeeds"] != true:
			s.t.Fatalf("%s: %v", step.Call, err)
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: %v did not hold within %s", step.Call, step.Until, untilDeadline)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *scenario) check(answer any, raw map[string]any, operation string) {
	check := s.resolve(raw).(map[string]any)
	path := fmt.Sprint(check["path"])
	value := atPath(answer, path)
	fail := func() { s.t.Fatalf("%s: %s is %v (%v)", operation, path, value, check) }
	if expected, ok := check["equals"]; ok && fmt.Sprint(value) != fmt.Sprint(expected) {
		fail()
	}
	if other, ok := check["not_equals"]; ok && fmt.Sprint(value) == fmt.Sprint(other) {
		fail()
	}
	if pattern, ok := check["matches"].(string); ok && !regexp.MustCompile(pattern).MatchString(fmt.Sprint(value)) {
		fail()
	}
	list, _ := value.([]any)
	if expected, ok := check["includes"]; ok {
		found := false
		for _, item := range list {
			found = found || fmt.Sprint(item) == fmt.Sprint(expected)
		}
		if !found {
			fail()
		}
	}
	if only, ok := check["only"]; ok {
		if len(list) == 0 {
			fail()
		}
		for _, item := range list {
			if fmt.Sprint(item) != fmt.Sprint(only) {
				fail()
			}
		}
	}
}

func (s *scenario) verifyWebhook(spec map[string]string) {
	containing, secret := spec["containing"], fmt.Sprint(s.resolve(spec["secret"]))
	deadline := time.Now().Add(untilDeadline)
	for {
		s.mu.Lock()
		var found *receivedWebhook
		for i := range s.received {
			if strings.Contains(string(s.received[i].body), containing) {
				found = &s.received[i]
			}
		}
		s.mu.Unlock()
		if found != nil {
			event, err := VerifyWebhook(found.body, found.header, secret)
			if err != nil || !strings.Contains(event.Type, containing) {
				s.t.Fatalf("the delivery does not verify: %v", err)
			}
			changed := []byte(strings.ReplaceAll(string(found.body), containing, "token.deleted"))
			if _, err := VerifyWebhook(changed, found.header, secret); !errors.Is(err, ErrWebhookVerification) {
				s.t.Fatal("a changed body verified")
			}
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no webhook containing %s within %s", containing, untilDeadline)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestContractEveryMerchantRouteAnswers2xxThroughTheSDK(t *testing.T) {
	baseURL, apiKey := os.Getenv("VAULTLINE_BASE_URL"), os.Getenv("VAULTLINE_API_KEY")
	if baseURL == "" || apiKey == "" {
		t.Skip("VAULTLINE_BASE_URL and VAULTLINE_API_KEY name a running service")
	}
	s := &scenario{t: t, saved: map[string]any{}}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.received = append(s.received, receivedWebhook{r.Header.Clone(), body})
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	recorder := &recordingTransport{}
	client, err := NewClient(apiKey, WithBaseURL(baseURL), WithHTTPClient(&http.Client{Transport: recorder, Timeout: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	s.client = client
	s.variables = map[string]any{
		"receiver_url":    receiver.URL + "/webhooks/vaultline",
		"forward_url":     os.Getenv("VAULTLINE_FORWARD_URL"),
		"forward_api_key": os.Getenv("VAULTLINE_FORWARD_API_KEY"),
	}
	data, err := os.ReadFile(filepath.Join("..", "test-vectors", "contract-scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Steps []scenarioStep }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, step := range file.Steps {
		if step.Verify != nil {
			s.verifyWebhook(step.Verify)
			continue
		}
		var answer any
		if step.Until != nil {
			answer = s.callUntil(step)
		} else if answer, err = s.call(step); err != nil {
			t.Fatalf("%s: %v", step.Call, err)
		}
		for _, check := range step.Expect {
			s.check(answer, check, step.Call)
		}
		if step.Save != "" {
			s.saved[step.Save] = answer
		}
	}

	covered := map[string]bool{}
	for _, answer := range recorder.answers {
		if answer.route == "" {
			t.Errorf("a request for no route of the document")
		}
		if answer.status >= 200 && answer.status < 300 {
			covered[answer.route] = true
		}
	}
	var missing []string
	for _, route := range Routes {
		if !covered[route.Method+" "+route.Path] {
			missing = append(missing, route.Method+" "+route.Path)
		}
	}
	sort.Strings(missing)
	fmt.Printf("Go SDK route coverage: %d of %d merchant routes called through the SDK with a 2xx answer (%d requests)\n", len(Routes)-len(missing), len(Routes), len(recorder.answers))
	if len(missing) > 0 {
		t.Fatalf("routes not called with a 2xx answer: %v", missing)
	}
}

func TestContractARefusalIsAnErrorValueWithStatusCodeFieldAndRequestID(t *testing.T) {
	baseURL, apiKey := os.Getenv("VAULTLINE_BASE_URL"), os.Getenv("VAULTLINE_API_KEY")
	if baseURL == "" || apiKey == "" {
		t.Skip("VAULTLINE_BASE_URL and VAULTLINE_API_KEY name a running service")
	}
	client, _ := NewClient(apiKey, WithBaseURL(baseURL))
	_, err := client.Payments.Get(context.Background(), "0190f2a4-0000-7000-8000-000000000001")
	var apiErr *Error
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.RequestID == "" || !strings.HasSuffix(apiErr.Type, "#"+apiErr.Code) {
		t.Fatalf("want a not-found *Error with a request id and type, got %#v", err)
	}
	_, err = client.Payments.CreateOneOff(context.Background(), &OneOffPaymentRequest{Amount: -1, CurrencyCode: "EUR", Source: PaymentSourceRequest{Type: "vaultline"}})
	if !errors.As(err, &apiErr) || apiErr.Status != 422 || apiErr.Field != "amount" || !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("want 422 on amount, got %v", err)
	}
	// The iterator: captured payments, two per page.
	count := 0
	for payment, err := range client.Payments.List(context.Background(), &ListPaymentsParams{Status: Ptr("captured"), Limit: Ptr(int64(2))}) {
		if err != nil {
			t.Fatal(err)
		}
		if payment.Status == nil || *payment.Status != "captured" {
			t.Fatalf("a payment of status %v", payment.Status)
		}
		count++
	}
	t.Logf("%d captured payments listed", count)
}
