package vaultline

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// vectors reads the cases of one file of sdks/test-vectors, the contract every SDK runs.
func vectors[T any](t *testing.T, name string) []T {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "test-vectors", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []T }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	return file.Cases
}

// scriptedAnswer is one answer of a scripted server: a status, headers and a body (JSON unless a string), or a dropped connection.
type scriptedAnswer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	Drop    bool              `json:"drop"`
}

type seenRequest struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// scriptedServer answers the script in turn (then 200 {}) and records every request.
type scriptedServer struct {
	*httptest.Server
	mu      sync.Mutex
	answers []scriptedAnswer
	seen    []seenRequest
}

func newScriptedServer(t *testing.T, answers []scriptedAnswer) *scriptedServer {
	s := &scriptedServer{answers: answers}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{r.Method, r.URL.Path, r.Header.Clone(), body})
		answer := scriptedAnswer{Status: 200, Body: json.RawMessage(`{}`)}
		if len(s.answers) > 0 {
			answer, s.answers = s.answers[0], s.answers[1:]
		}
		s.mu.Unlock()
		if answer.Drop {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.(*net.TCPConn).SetLinger(0)
				conn.Close()
			}
			return
		}
		for name, value := range answer.Headers {
			w.Header().Set(name, value)
		}
		w.WriteHeader(answer.Status)
		var text string
		if json.Unmarshal(answer.Body, &text) == nil {
			w.Write([]byte(text))
		} else {
			w.Write(answer.Body)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *scriptedServer) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

// operationArgs are the arguments of one operation in the shared contract scenario.
type operationArgs struct {
	Path           map[string]string `json:"path"`
	Params         map[string]any    `json:"params"`
	Body           json.RawMessage   `json:"body"`
	Headers        map[string]string `json:"headers"`
	IdempotencyKey string            `json:"idempotency_key"`
}

func (a operationArgs) path(name string) string { return a.Path[name] }

func (a operationArgs) decodeParams(out any) error {
	data, err := json.Marshal(a.Params)
	if err != nil {
		return err
	}
	return decodeStrict(data, out)
}

// decodeStrict refuses a field the type does not have: the scenario's bodies must fit the generated types.
func decodeStrict(data []byte, out any) error {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	return decoder.Decode(out)
}

func (a operationArgs) rawBody() any {
	if a.Body == nil {
		return nil
	}
	return a.Body
}

func (a operationArgs) options() []RequestOption {
	var opts []RequestOption
	for name, value := range a.Headers {
		opts = append(opts, WithRequestHeader(name, value))
	}
	if a.IdempotencyKey != "" {
		opts = append(opts, WithIdempotencyKey(a.IdempotencyKey))
	}
	return opts
}

// collect is every item of an iterator, or its error.
func collect[T any](seq iter.Seq2[*T, error]) (any, error) {
	items := []*T{}
	for item, err := range seq {
		if err != nil {
			return nil, err
		}
		items = append(items, item)
	}
	return items, nil
}
