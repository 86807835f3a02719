// A net/http webhook receiver that marks an order paid when Vaultline says its payment was captured.
package main

import (
	"io"
	"log"
	"net/http"
	"os"
	"sync"

	vaultline "github.com/vaultline/vaultline-go"
)

// Orders is your order store: reference → status.
type Orders struct {
	sync.Mutex
	Status map[string]string
}

func webhookHandler(secret string, orders *Orders) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body) // the raw body, exactly as received
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		event, err := vaultline.VerifyWebhook(body, r.Header, secret)
		if err != nil {
			http.Error(w, "invalid signature", http.StatusBadRequest)
			return
		}
		if reference, _ := event.Data["reference"].(string); event.Type == "payment.captured" {
			orders.Lock()
			if _, known := orders.Status[reference]; known {
				orders.Status[reference] = "paid"
			}
			orders.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

func main() {
	orders := &Orders{Status: map[string]string{"order-1001": "pending"}}
	http.Handle("POST /webhooks/vaultline", webhookHandler(os.Getenv("VAULTLINE_WEBHOOK_SECRET"), orders))
	log.Fatal(http.ListenAndServe(":3000", nil))
}
