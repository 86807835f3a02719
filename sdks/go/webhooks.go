package vaultline

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultWebhookTolerance is how far a delivery's timestamp may be from now (older: a replay).
const DefaultWebhookTolerance = 5 * time.Minute

// WebhookError says why a delivery did not verify; errors.Is(err, ErrWebhookVerification) holds.
type WebhookError struct{ Reason string }

func (e *WebhookError) Error() string        { return "vaultline: " + e.Reason }
func (e *WebhookError) Is(target error) bool { return target == ErrWebhookVerification }

// WebhookOption configures VerifyWebhook.
type WebhookOption func(*webhookConfig)

type webhookConfig struct {
	tolerance time.Duration
	now       func() time.Time
}

// WithTolerance: how far the timestamp may be from now (default 5 minutes).
func WithTolerance(d time.Duration) WebhookOption { return func(c *webhookConfig) { c.tolerance = d } }

// WithClock: the verifier's clock (default time.Now).
func WithClock(now func() time.Time) WebhookOption { return func(c *webhookConfig) { c.now = now } }

func webhookKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return nil, &WebhookError{"the webhook secret is not whsec_ followed by base64"}
	}
	return key, nil
}

// SignWebhook is the v1,<base64> signature of a delivery, as the service signs it (useful in tests).
func SignWebhook(payload []byte, id string, timestamp int64, secret string) (string, error) {
	key, err := webhookKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, timestamp)
	mac.Write(payload)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// WebhookEvent is a webhook's body: the event's type (payment.captured…), when it happened, its mode and
// its data (the same data as GET /events/{event_id} answers).
type WebhookEvent struct {
	Type      string         `json:"type"`
	Timestamp string         `json:"timestamp"`
	Livemode  bool           `json:"livemode"`
	Data      map[string]any `json:"data"`
}

// VerifyWebhook checks a delivery the Standard Webhooks way (webhook-id, webhook-timestamp and
// webhook-signature, whose space-separated v1 entries are compared in constant time: during a rotation one
// per secret) with the endpoint's whsec_… secret, and returns its event. Pass the body exactly as received.
func VerifyWebhook(payload []byte, header http.Header, secret string, opts ...WebhookOption) (*WebhookEvent, error) {
	config := webhookConfig{tolerance: DefaultWebhookTolerance, now: time.Now}
	for _, opt := range opts {
		opt(&config)
	}
	values := map[string]string{}
	for _, name := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
		values[name] = header.Get(name)
		if values[name] == "" {
			return nil, &WebhookError{"the " + name + " header is missing"}
		}
	}
	timestamp, err := strconv.ParseInt(values["webhook-timestamp"], 10, 64)
	if err != nil {
		return nil, &WebhookError{"the webhook-timestamp header is not a number of seconds"}
	}
	now := config.now().Unix()
	tolerance := int64(config.tolerance / time.Second)
	if now-timestamp > tolerance {
		return nil, &WebhookError{"the webhook's timestamp is too old"}
	}
	if timestamp-now > tolerance {
		return nil, &WebhookError{"the webhook's timestamp is too new"}
	}
	expected, err := SignWebhook(payload, values["webhook-id"], timestamp, secret)
	if err != nil {
		return nil, err
	}
	matched := false
	for _, entry := range strings.Split(values["webhook-signature"], " ") {
		if strings.HasPrefix(entry, "v1,") && hmac.Equal([]byte(entry), []byte(expected)) {
			matched = true
		}
	}
	if !matched {
		return nil, &WebhookError{"no signature of the webhook matches the secret"}
	}
	var event WebhookEvent
	if err := json.Unmarshal(payload, &event); err != nil {
		return nil, &WebhookError{"the webhook's body is not JSON: " + err.Error()}
	}
	return &event, nil
}
