import type { CollectionSpec } from '@vaultline/store';

export const PAYMENTS = 'payments';
export const PAYMENT_SCHEDULE = 'payment_schedule';
export const TRANSACTIONS = 'processor_transactions';
export const CREDENTIALS = 'stored_credentials';
export const FLOWS = 'flows';
export const FLOW_MATRICES = 'flow_matrices';
export const PROCESSOR_ACCOUNTS = 'processor_accounts';
export const PROCESSOR_NOTIFICATIONS = 'processor_notifications';
export const CUSTOMERS = 'customers';
export const PAYMENT_METHODS = 'payment_methods';
export const PAYMENT_REQUESTS = 'payment_requests';
export const DISPUTES = 'disputes';
export const REFUNDS = 'refunds';
export const EARLY_FRAUD_WARNINGS = 'early_fraud_warnings';
export const ROUTING_STATS = 'routing_stats';

export const orchestratorCollections: CollectionSpec[] = [
  {
    name: PAYMENTS,
    indexes: [
      // GET /payments filters (each combinable with the others; the merchant's id order gives newest first).
      { fields: ['status'] },
      { fields: ['reference'] },
      { fields: ['customer_id'] },
      { fields: ['shown_use_case'] },
      { fields: ['created_at'] },
      // A processor's notification naming only its own payment (a Stripe dispute's PaymentIntent) finds ours.
      { fields: ['authorization_key'] },
      // The authorization expiry scan across merchants: authorized (or canceling) payments by authorization time.
      { fields: ['status', 'authorized_at'], acrossMerchants: true },
    ],
  },
  // The worker's scan across merchants (under the system scope, so the index serves it): one entry per
  // unfinished payment, written with it.
  { name: PAYMENT_SCHEDULE, indexes: [{ fields: ['due_at'] }] },
  // One sequence number per payment: a step recorded twice cannot commit.
  // GET /reports/payments reads one kind of transaction by the time it was recorded.
  { name: TRANSACTIONS, indexes: [{ fields: ['payment_id', 'sequence'], unique: true }, { fields: ['kind', 'created_at'] }] },
  { name: CREDENTIALS },
  { name: FLOWS, indexes: [{ fields: ['name'], unique: true }] },
  // Two concurrent PUTs computing the same next version: one commits, the other fails.
  { name: FLOW_MATRICES, indexes: [{ fields: ['matrix_version'], unique: true }] },
  { name: PROCESSOR_ACCOUNTS },
  // A processor's redelivery of an event (same dedupe key) cannot be recorded twice.
  {
    name: PROCESSOR_NOTIFICATIONS,
    indexes: [
      { fields: ['account_id', 'dedupe_key'], unique: true },
      // A capture settling looks its event up by these on every pass: without them each lookup reads every notification of the account.
      { fields: ['account_id', 'capture_reference'] },
      { fields: ['account_id', 'processor_reference'] },
    ],
  },
  // Earlier interface: a customer's stored cards and mandates are listed by customer.
  { name: CUSTOMERS },
  { name: PAYMENT_METHODS, indexes: [{ fields: ['customer_id', 'status'] }] },
  // A payment request's Idempotency-Key, committed with the payment it made (id derived from merchant, mode,
  // route and key); the pruner finds the expired ones across merchants by creation time.
  { name: PAYMENT_REQUESTS, indexes: [{ fields: ['created_at'], acrossMerchants: true }] },
  // One dispute per processor reference of an account (two first notifications racing: one creates, the other
  // moves it); a payment's disputes are listed by payment.
  // GET /disputes?status=…; GET /reports/payments reads the disputes opened in a period, and those won in it.
  {
    name: DISPUTES,
    indexes: [
      { fields: ['processor', 'processor_reference'], unique: true },
      { fields: ['payment_id'] },
      { fields: ['created_at'] },
      { fields: ['status', 'updated_at'] },
    ],
  },
  // Authorization outcomes per processor, segment and time bucket (id derived from them); a window reads its buckets by start.
  { name: ROUTING_STATS, indexes: [{ fields: ['bucket_start'] }] },
  // One warning per processor reference of an account; a payment's warnings are listed by payment.
  { name: EARLY_FRAUD_WARNINGS, indexes: [{ fields: ['processor', 'processor_reference'], unique: true }, { fields: ['payment_id'] }] },
  {
    name: REFUNDS,
    indexes: [
      // A payment's refunds; GET /refunds by payment_id and by status (the partition holds the caller's mode).
      { fields: ['payment_id'] },
      { fields: ['status'] },
      // A notification that names the refund by the processor's reference of it.
      { fields: ['processor_reference'] },
      // GET /reports/payments: the refunds that succeeded in a period.
      { fields: ['status', 'updated_at'] },
      // The refund runner's scan across merchants: pending refunds to send or to ask about (the status first, so
      // SQLite searches the few pending ones instead of walking every refund in id order).
      { fields: ['status', 'next_run_at'], acrossMerchants: true },
    ],
  },
];
