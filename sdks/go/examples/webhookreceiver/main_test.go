package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	vaultline "github.com/vaultline/vaultline-go"
)

var secret = "whsec_" + base64.StdEncoding.EncodeToString([]byte("the example endpoint secret, 32!"))

func deliver(t *testing.T, orders *Orders, eventType, signingSecret string) int {
	t.Helper()
	body := []byte(fmt.Sprintf(`{"type":%q,"timestamp":"2026-11-28T10:00:00.000Z","livemode":false,"data":{"payment_id":"p1","reference":"order-1001"}}`, eventType))
	now := time.Now().Unix()
	signature, err := vaultline.SignWebhook(body, "msg_1", now, signingSecret)
	if err != nil {
		t.Fatal(err)
	}
	request := httptest.NewRequest("POST", "/webhooks/vaultline", bytes.NewReader(body))
	request.Header.Set("webhook-id", "msg_1")
	request.Header.Set("webhook-timestamp", fmt.Sprint(now))
	request.Header.Set("webhook-signature", signature)
	recorder := httptest.NewRecorder()
	webhookHandler(secret, orders).ServeHTTP(recorder, request)
	return recorder.Code
}

func TestWhenASignedPaymentCapturedArrivesThenTheOrderIsPaid(t *testing.T) {
	orders := &Orders{Status: map[string]string{"order-1001": "pending"}}
	if code := deliver(t, orders, "payment.captured", secret); code != http.StatusNoContent || orders.Status["order-1001"] != "paid" {
		t.Fatalf("answered %d, order %s", code, orders.Status["order-1001"])
	}
}

func TestWhenTheSignatureIsAnotherSecretsThenItAnswers400AndTheOrderStaysPending(t *testing.T) {
	orders := &Orders{Status: map[string]string{"order-1001": "pending"}}
	other := "whsec_" + base64.StdEncoding.EncodeToString([]byte("somebody else's secret, 32 bytes"))
	if code := deliver(t, orders, "payment.captured", other); code != http.StatusBadRequest || orders.Status["order-1001"] != "pending" {
		t.Fatalf("answered %d, order %s", code, orders.Status["order-1001"])
	}
}

func TestWhenAnotherEventArrivesThenTheOrderIsUnchanged(t *testing.T) {
	orders := &Orders{Status: map[string]string{"order-1001": "pending"}}
	if code := deliver(t, orders, "payment.failed", secret); code != http.StatusNoContent || orders.Status["order-1001"] != "pending" {
		t.Fatalf("answered %d, order %s", code, orders.Status["order-1001"])
	}
}

func TestTheReadmeShowsTheExampleAsItIsRun(t *testing.T) {
	example, _ := os.ReadFile("main.go")
	readme, _ := os.ReadFile("../../README.md")
	if len(example) == 0 || !strings.Contains(string(readme), string(example)) {
		t.Fatal("README.md does not show examples/webhookreceiver/main.go as it is")
	}
}
