// Package vaultline is the Go client of the Vaultline merchant API.
//
//	client := vaultline.NewClient(os.Getenv("VAULTLINE_API_KEY"), vaultline.WithBaseURL("https://vault.example.com"))
//	payment, err := client.Payments.CreateOneOff(ctx, &vaultline.OneOffPaymentRequest{
//		Amount: 1999, CurrencyCode: "EUR", Source: vaultline.PaymentSourceRequest{Type: "vaultline"},
//	})
//	for payment, err := range client.Payments.List(ctx, &vaultline.ListPaymentsParams{Status: vaultline.Ptr("captured")}) {
//		...
//	}
//
// The types and methods are generated from the API's OpenAPI document (the zz_generated_*.go files, by
// sdks/generator in the Vaultline repository); the rest is the thin layer every Vaultline SDK has alike:
// the key and base URL, an Idempotency-Key on every POST kept across retries, retries with backoff on
// network errors, 409 idempotency_key_in_use, 429 (after Retry-After) and 5xx, errors as *Error values
// (errors.Is(err, vaultline.ErrNotFound)), pagination as iter.Seq2 iterators and Standard Webhooks
// verification (VerifyWebhook), on net/http and the standard library only.
package vaultline
