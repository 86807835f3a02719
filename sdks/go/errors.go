package vaultline

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// ErrorKind is what kind of refusal an *Error is; the same kinds in every Vaultline SDK.
type ErrorKind string

const (
	KindInvalidRequest ErrorKind = "invalid_request" // 400, 413, 415, 422
	KindAuthentication ErrorKind = "authentication"  // 401
	KindPermission     ErrorKind = "permission"      // 403
	KindNotFound       ErrorKind = "not_found"       // 404
	KindConflict       ErrorKind = "conflict"        // 409
	KindRateLimit      ErrorKind = "rate_limit"      // 429
	KindServer         ErrorKind = "server"          // 5xx
	KindAPI            ErrorKind = "api"             // any other status
)

// Sentinels of the kinds: errors.Is(err, vaultline.ErrNotFound) holds for an *Error of that kind.
var (
	ErrInvalidRequest = errors.New("vaultline: invalid request")
	ErrAuthentication = errors.New("vaultline: authentication failed")
	ErrPermission     = errors.New("vaultline: permission denied")
	ErrNotFound       = errors.New("vaultline: not found")
	ErrConflict       = errors.New("vaultline: conflict")
	ErrRateLimit      = errors.New("vaultline: rate limited")
	ErrServer         = errors.New("vaultline: server error")
	// ErrConnection: the API could not be reached (refused, reset, timed out) after every retry.
	ErrConnection = errors.New("vaultline: connection failed")
	// ErrWebhookVerification: a webhook whose headers, timestamp or signature do not verify.
	ErrWebhookVerification = errors.New("vaultline: webhook verification failed")
)

var sentinels = map[ErrorKind]error{
	KindInvalidRequest: ErrInvalidRequest, KindAuthentication: ErrAuthentication, KindPermission: ErrPermission,
	KindNotFound: ErrNotFound, KindConflict: ErrConflict, KindRateLimit: ErrRateLimit, KindServer: ErrServer,
}

// Error is an answer of the API that is not a success (RFC 9457 problem details). Branch on Code (stable),
// never on Detail; Field names the offending input (a dotted path); quote RequestID to support.
type Error struct {
	Kind      ErrorKind
	Status    int
	Code      string
	Detail    string
	Field     string
	RequestID string
	// Type is the problem's type: the URI of the code's entry in the error reference.
	Type string
	// Problem is the problem document as received (nil when the body was not one).
	Problem map[string]any
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Detail) }

// Is makes errors.Is(err, ErrNotFound) (and the other kinds' sentinels) hold.
func (e *Error) Is(target error) bool { return sentinels[e.Kind] == target }

// KindOf is the kind of an answer's status.
func KindOf(status int) ErrorKind {
	switch {
	case status == 400 || status == 413 || status == 415 || status == 422:
		return KindInvalidRequest
	case status == 401:
		return KindAuthentication
	case status == 403:
		return KindPermission
	case status == 404:
		return KindNotFound
	case status == 409:
		return KindConflict
	case status == 429:
		return KindRateLimit
	case status >= 500:
		return KindServer
	}
	return KindAPI
}

func problemOf(body []byte) map[string]any {
	var problem map[string]any
	if json.Unmarshal(body, &problem) != nil {
		return nil
	}
	return problem
}

// apiError reads a failed answer: its problem's code, detail (else title), field, type and request id
// (else the X-Request-Id header).
func apiError(status int, body []byte, header http.Header) *Error {
	problem := problemOf(body)
	text := func(key string) string {
		value, _ := problem[key].(string)
		return value
	}
	e := &Error{Kind: KindOf(status), Status: status, Code: text("code"), Detail: text("detail"), Field: text("field"), RequestID: text("request_id"), Type: text("type"), Problem: problem}
	if e.Code == "" {
		e.Code = fmt.Sprintf("http_%d", status)
	}
	if e.Detail == "" {
		e.Detail = text("title")
	}
	if e.Detail == "" {
		e.Detail = fmt.Sprintf("The API answered %d.", status)
	}
	if e.RequestID == "" {
		e.RequestID = header.Get("X-Request-Id")
	}
	return e
}

// ConnectionError: the API could not be reached after every retry; errors.Is(err, ErrConnection) holds.
type ConnectionError struct {
	Method, Path string
	Attempts     int
	Err          error
}

func (e *ConnectionError) Error() string {
	return fmt.Sprintf("vaultline: %s %s failed after %d attempt(s): %v", e.Method, e.Path, e.Attempts, e.Err)
}
func (e *ConnectionError) Is(target error) bool { return target == ErrConnection }
func (e *ConnectionError) Unwrap() error        { return e.Err }
