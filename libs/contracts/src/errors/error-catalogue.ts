import { prose } from '../prose';

/**
 * Every problem code the API can answer: what it means and what the caller does about it. The gateway's
 * /docs/errors page is rendered from this list (one anchor per code: a problem's `type` is
 * `{PUBLIC_BASE_URL}/docs/errors#{code}`), and a test reads the code base for the codes it throws and
 * fails when one has no entry here.
 */
export interface ErrorEntry {
  /** The HTTP status the code is answered with. */
  status: number;
  meaning: string;
  /** What the caller does about it. */
  action: string;
}

export interface ErrorGroup {
  title: string;
  entries: Record<string, ErrorEntry>;
}

const e = (status: number, meaning: string, action: string): ErrorEntry => ({ status, meaning, action });
const RETRY = 'Retry with the same Idempotency-Key after a short wait (exponential backoff).';
const INTERNAL = 'Not expected: quote the request_id to the operator of the service (the log line with it says more).';

export const ERROR_GROUPS: ErrorGroup[] = [
  {
    title: 'Requests: format, size and routing',
    entries: {
      bad_request: e(400, 'The request cannot be read as sent.', 'Fix the request; `detail` says what is wrong.'),
      malformed_json: e(400, 'The body is not valid JSON.', 'Send valid JSON (check quoting and trailing commas).'),
      malformed_body: e(400, 'The body could not be read.', 'Send the body again, complete and in the declared format.'),
      incomplete_body: e(400, 'The body ended before its declared length.', 'Send the whole body; check Content-Length.'),
      too_many_parameters: e(400, 'A form-encoded body has more than 1000 parameters.', 'Send fewer fields, or JSON.'),
      malformed_path: e(400, 'A path segment is not valid percent-encoding.', 'Percent-encode path segments correctly.'),
      malformed_request: e(400, 'The request is not valid HTTP.', 'Use an HTTP client library.'),
      invalid_content_encoding: e(400, 'The body does not decode as its Content-Encoding says.', 'Compress the body as declared, or send it uncompressed.'),
      unsupported_content_encoding: e(
        415,
        'The body is compressed with an encoding the service does not read.',
        'Send it uncompressed, or as gzip, deflate or br.',
      ),
      unsupported_media_type: e(
        415,
        'The body is not in a format the route reads; `detail` names the expected type (application/json for the JSON routes).',
        'Send the body as the expected type with a matching Content-Type header.',
      ),
      payload_too_large: e(413, 'The body is larger than the service accepts (1 MB at the gateway).', 'Send a smaller body.'),
      headers_too_large: e(431, 'The request headers (with the URL) are larger than the server accepts.', 'Send fewer or shorter headers.'),
      request_timeout: e(408, 'The request was not received in time.', 'Send the request again.'),
      body_too_deep: e(422, 'The body nests objects and arrays (or form keys) deeper than the service reads.', 'Flatten the body.'),
      route_not_found: e(404, 'No route for this method and path.', 'Check the method and the path against the API reference (/docs).'),
      unknown_filter: e(
        422,
        'A read (a list, a report) was sent a query parameter its route does not take; `field` names it and `detail` lists the ones it takes. It is refused rather than ignored: ignored, the list would have come back unfiltered.',
        'Use a filter the route lists in the API reference (/docs), spelled as it is there.',
      ),
      asset_not_found: e(404, 'No such file of the hosted checkout page.', 'Use the URLs the hosted page and checkout.js load themselves.'),
    },
  },
  {
    title: 'Dashboard sessions',
    entries: {
      session_expired: e(
        401,
        'The dashboard session cookie is missing, or its session was signed out, idle longer than DASHBOARD_SESSION_IDLE_SECONDS, older than DASHBOARD_SESSION_MAX_SECONDS, or its key or operator revoked.',
        'Sign in again with POST /dashboard/session.',
      ),
      csrf_token_invalid: e(
        403,
        "A change made with the session cookie came without the session's CSRF token in X-CSRF-Token, or with another one.",
        'Send the csrf_token of GET /dashboard/session in X-CSRF-Token with every POST, PUT, PATCH and DELETE.',
      ),
      cross_origin_request: e(
        403,
        'A change made with the session cookie came from another origin (Origin or Sec-Fetch-Site).',
        "Make changes from the dashboard's own pages; an API client sends its key in X-API-Key instead of the cookie.",
      ),
      mode_key_required: e(
        403,
        'The session holds no key of the mode asked for: a test key never opens live data.',
        'Send a key of that mode of the same merchant as api_key with POST /dashboard/session/mode.',
      ),
      mode_key_mismatch: e(
        422,
        'The key sent to switch mode belongs to another merchant or another mode.',
        "Send a key of the session's merchant, of the mode asked for.",
      ),
      too_many_sign_ins: e(429, 'More sign-ins from this address in a minute than DASHBOARD_SIGN_INS_PER_MINUTE allows.', 'Wait Retry-After seconds.'),
      mode_switch_not_allowed: e(403, 'An operator session has no mode to switch.', 'Operators use the admin API, which spans both modes.'),
    },
  },
  {
    title: 'Authentication, rate limits and the test clock',
    entries: {
      unauthorized: e(401, 'Credentials are missing or not valid.', 'Send a valid key in X-API-Key.'),
      missing_api_key: e(401, 'The X-API-Key header is missing.', 'Send the merchant API key (sk_test_… or sk_live_…) in X-API-Key.'),
      invalid_api_key: e(
        401,
        'The API key is unknown, revoked, expired or malformed.',
        'Use an active key; an operator issues keys with POST /admin/merchants/{id}/api-keys.',
      ),
      missing_admin_key: e(401, 'The X-Admin-Key header is missing (admin API).', 'Send an operator key in X-Admin-Key.'),
      invalid_admin_key: e(401, 'The admin key is unknown or revoked.', 'Use an active operator key.'),
      too_many_refusals: e(
        429,
        'More admin requests from this address were refused (no key, a wrong key) in a minute than ADMIN_REFUSALS_PER_MINUTE allows: every admin request from it is refused until the minute ends.',
        'Wait Retry-After seconds (also `retry_after` in the body), then send a valid X-Admin-Key.',
      ),
      forbidden: e(403, 'The credentials do not allow this operation.', 'Use a key with the needed access.'),
      insufficient_scope: e(403, 'The key lacks the scope of this operation (an import-only key calls anything but POST /cde-import).', 'Use a merchant key.'),
      card_data_access_not_enabled: e(
        403,
        'This key may not send card data to POST /tokens.',
        'Collect cards on the hosted checkout page (checkout.js), or ask the operator for card-data access (PCI DSS scope).',
      ),
      rate_limited: e(
        429,
        'The API key used up its token bucket; Retry-After says when to come back.',
        'Wait Retry-After seconds, then retry; spread bursts out. RateLimit-Remaining on every answer shows the bucket.',
      ),
      mode_required: e(
        403,
        'An internal call acted for a merchant without the mode (test or live) of its key: every merchant resource belongs to one mode.',
        'Not expected from the public API: quote the request_id to the operator (a service called another without a key mode).',
      ),
      too_many_attempts: e(
        429,
        'Too many card submissions on one checkout session (VAULT_CHECKOUT_ATTEMPTS_PER_SESSION), or from one address (VAULT_CHECKOUT_ATTEMPTS_PER_ADDRESS; test sessions from loopback: VAULT_CHECKOUT_ATTEMPTS_PER_LOOPBACK_TEST_ADDRESS) within the window.',
        'Wait Retry-After seconds (also `retry_after` in the body; the hosted page counts it down).',
      ),
      test_clock_not_allowed: e(422, 'X-Test-Now was sent with a live key.', 'Use the test clock with sk_test_ keys only.'),
      invalid_test_clock: e(422, 'X-Test-Now is not an ISO 8601 time with a zone.', 'Send e.g. X-Test-Now: 2027-01-15T10:00:00Z.'),
    },
  },
  {
    title: 'Input validation',
    entries: {
      validation_failed: e(422, 'A field is missing or invalid; `field` names it (dotted path) and `detail` says why.', 'Fix the named field.'),
      invalid_card_number: e(422, 'The card number fails the Luhn check or has the wrong length for its scheme.', 'Ask the consumer to check the number.'),
      invalid_expiry_month: e(422, 'The expiry month is not 1 to 12.', 'Send exp_month as 1–12.'),
      invalid_expiry_year: e(422, 'The expiry year is malformed or too far in the future.', 'Send exp_year with four digits.'),
      card_expired: e(422, 'The card has expired.', 'Ask for another card.'),
      invalid_security_code: e(422, 'The security code is missing or has the wrong length for the scheme.', 'Send 3 digits (4 for American Express).'),
      invalid_cardholder_name: e(422, 'The cardholder name is not text or too long.', 'Send the name as printed on the card.'),
      confirm_required: e(422, 'POST /payments (earlier interface) needs confirm: true.', 'Send confirm: true.'),
      unknown_event_type: e(422, 'An event type in `events` is not one the service sends.', 'Use the types listed in the webhooks guide.'),
      url_not_allowed: e(
        422,
        'The webhook URL is not allowed: https and public addresses only, except a test-mode endpoint on localhost, 127.0.0.1 or [::1] (http or https) while the service runs on loopback (HOST and PUBLIC_BASE_URL on loopback, as `pnpm start` does). Live endpoints are never loopback receivers.',
        'Register a public https URL; on a laptop, use a test key with the service on loopback, or `vaultline listen --forward-to <url>`; WEBHOOK_ALLOW_PRIVATE_URLS=true on the service allows http and private receivers (development only).',
      ),
      unknown_provider: e(422, 'The import provider is not supported.', 'Use provider_a.'),
      provider_credentials_required: e(422, 'The platform credentials of the import are missing.', "Send the provider's object with its api_key."),
      provider_credentials_invalid: e(422, 'The platform credentials of the import are malformed.', "Send the provider's object as documented."),
      invalid_destination: e(422, 'A forwarding destination is not a valid https URL.', 'Give a public https URL.'),
      invalid_credentials: e(
        422,
        "The processor account's credentials are incomplete for its processor.",
        'Send every credential field the processor needs (`field` names the missing one).',
      ),
      webhook_secret_too_short: e(
        422,
        "The processor account's notification secret (the key its notifications are signed with) is shorter than its processor's minimum, which the field's description in GET /processors names: a short secret lets anyone forge notifications.",
        'Copy the whole key the processor generated (`field` names the credential).',
      ),
    },
  },
  {
    title: 'Idempotency',
    entries: {
      invalid_idempotency_key: e(400, 'Idempotency-Key is empty, longer than 255 characters or not visible ASCII.', 'Send a UUID as the key.'),
      idempotency_key_in_use: e(409, 'A request with this key is still running.', RETRY),
      idempotency_key_reused: e(
        422,
        'The key was used before with a different request.',
        'Use a new key for a new request; reuse a key only to retry the very same request.',
      ),
      idempotent_response_not_kept: e(
        409,
        'The first request with this key ran, but its answer (not JSON, or over 1 MB) was not kept to replay.',
        'Read the result with a GET; do not send the request again.',
      ),
      concurrent_modification: e(409, 'Another request changed the same record at the same moment.', RETRY),
      duplicate_key: e(409, 'A record with the same unique fields exists already.', 'Read the existing record, or change the conflicting field.'),
    },
  },
  {
    title: 'Tokens and the hosted checkout page',
    entries: {
      logo_not_found: e(
        404,
        "The session's merchant has no uploaded logo (the page then shows no logo).",
        'Upload a logo with PATCH /settings/checkout, or set logo_url.',
      ),
      checkout_session_canceled: e(
        409,
        'The merchant canceled the payment before a card was entered.',
        'Nothing to do: the consumer is not charged; the page says the payment was canceled.',
      ),
      stored_card_session: e(
        409,
        'The hosted page offers a stored card for this session: a newly entered card is refused.',
        'Confirm the stored card on the page (POST /sessions/{id}/stored-card).',
      ),
      token_not_found: e(404, "No such token for this merchant (also for another merchant's token).", 'Check the token id.'),
      token_deleted: e(410, 'The token was deleted; its card data is gone.', 'Collect the card again.'),
      checkout_session_not_found: e(404, 'No such checkout session.', "Start the page with the session_id of the payment's action_requirement."),
      checkout_session_expired: e(
        410,
        'The checkout session expired before the card was entered (30 minutes by default); its payment failed with session_expired.',
        'Create a new payment.',
      ),
      checkout_session_already_used: e(
        409,
        'A card was already submitted in this session and is being decided (or the payment succeeded).',
        "Read the session's status: after a failed card the session opens again for another (state open, last_failed_attempt).",
      ),
      checkout_session_abandoned: e(
        409,
        'The consumer left this checkout session ("Return to the shop"); its payment failed and no card is taken.',
        'Nothing to do on this session: a new attempt needs a new payment.',
      ),
      checkout_session_not_abandonable: e(
        409,
        'The session does not wait for a card: a card is being decided, or the session ended.',
        "Read the session's status; leave only while it is open.",
      ),
      stored_card_not_confirmable: e(409, 'The stored card cannot be confirmed in this session.', 'Follow `detail`; usually the card must be entered again.'),
      security_code_expired: e(
        422,
        'The security code is kept 15 minutes after the card was stored; that time has passed.',
        'Collect the security code again (a new token).',
      ),
      security_code_unavailable: e(
        422,
        'No security code was collected with this token.',
        'Collect the card with its security code, or send a request that does not need it.',
      ),
      key_rotation_in_progress: e(409, 'A key rotation is still running.', 'Wait for it to finish (GET its status), then start the next.'),
      key_rotation_not_found: e(404, 'No such key rotation.', 'Check the rotation id.'),
      unknown_key_version: e(422, 'The key-encryption key version is not configured.', 'Add it to VAULT_KEK_KEYS (or VAULT_KEK_FILE) first.'),
    },
  },
  {
    title: 'Operations: dead letters and parked outbox messages (admin API)',
    entries: {
      dead_letter_not_found: e(
        404,
        'No such dead letter in this service.',
        "List them (`vaultline ops dead-letters list`): each service keeps its own groups' dead letters.",
      ),
      dead_letter_already_replayed: e(409, 'The dead letter was replayed already and its group handled it.', 'Nothing to do; `replayed_at` says when.'),
      dead_letter_group_not_running: e(
        409,
        "No consumer of the dead letter's group runs in the service that was asked.",
        "Ask the service whose group it is (the dead letter's `group` names it), once that service runs.",
      ),
      parked_message_not_found: e(
        404,
        'No such parked outbox message in this service (it may have been put back already).',
        'List them (`vaultline ops outbox list`).',
      ),
    },
  },
  {
    title: 'Forwarding',
    entries: {
      missing_header: e(400, 'A required header of POST /forward is missing; `field` names it.', 'Send X-Service-Token and X-Destination-URL.'),
      invalid_header: e(422, 'A forwarding header is malformed; `field` names it.', 'Fix the named header.'),
      invalid_outgoing_header: e(400, 'A header to send on has an invalid name or control characters.', 'Remove CR, LF and other control characters.'),
      invalid_forward_body: e(400, 'The body to forward cannot be read as its Content-Type says.', 'Send JSON or form-encoded as declared.'),
      placeholder_not_allowed: e(
        422,
        "A placeholder stands outside the destination's card fields; `field` names it.",
        'Put each placeholder as the whole value of a card field of the destination.',
      ),
      destination_not_allowed: e(
        403,
        'The destination URL is not an allowed destination (or resolves to a private address).',
        'Forward only to the allowed destinations; an operator adds more (POST /admin/forwarder/destinations).',
      ),
      destination_not_allowed_in_test_mode: e(
        403,
        'A test API key forwarded to a live endpoint of a processor.',
        "Forward test requests to the processor's test endpoint, or use a live key.",
      ),
      destination_not_allowed_in_live_mode: e(
        403,
        'A live API key forwarded to a test endpoint of a processor.',
        "Forward live requests to the processor's live endpoint.",
      ),
      forward_destination_not_found: e(404, 'No such forwarding destination.', 'Check the destination id.'),
      destination_unreachable: e(502, 'The destination could not be reached.', 'Retry later; nothing was delivered.'),
      destination_timeout: e(504, 'The destination did not answer in time.', 'Check at the destination whether the request arrived before retrying.'),
      destination_response_too_large: e(502, "The destination's response was larger than the service relays.", 'Ask the destination for a smaller response.'),
      vault_unavailable: e(503, 'The vault could not give the card data.', RETRY),
    },
  },
  {
    title: 'Imports',
    entries: {
      import_not_found: e(404, 'No such import job.', 'Check the import id.'),
      provider_authentication_failed: e(502, 'The platform rejected the API key given for the import.', 'Check the platform key.'),
      provider_request_failed: e(502, 'The platform refused a request of the import.', 'See `detail`; retry later.'),
      provider_unreachable: e(502, 'The platform could not be reached after retries.', 'Retry the import later.'),
      forwarding_not_enabled: e(
        502,
        'The platform has not enabled card forwarding for the account.',
        "Ask the platform to enable it (with the service's compliance attestation).",
      ),
      import_credential_unavailable: e(503, "The import's sealed platform key cannot be opened right now.", RETRY),
    },
  },
  {
    title: 'Payments',
    entries: {
      payment_not_found: e(404, "No such payment for this merchant (also for another merchant's payment).", 'Check the payment id.'),
      cancel_not_allowed: e(
        409,
        'The payment cannot be canceled: only an authorized or partially captured payment (manual capture; the rest of its authorization is released) or one whose consumer has not entered a card yet can, and not while a capture is under way; a captured payment is refunded.',
        'Refund a captured payment instead; wait for a capture under way to settle; a failed or canceled one needs nothing.',
      ),
      refund_not_found: e(404, 'No such refund for this merchant in this mode.', "Check the refund id and that the key is of the refund's mode."),
      refund_not_allowed: e(
        409,
        'Only a captured (or partially captured) payment can be refunded: nothing was captured yet.',
        'Capture the payment first, or cancel an authorized one.',
      ),
      payment_disputed: e(
        409,
        'The payment has a chargeback that is open or lost (amount.disputed): the money is held or taken by it, and a refund would pay the cardholder twice. An inquiry does not block refunds.',
        'Answer the dispute instead (GET /payments/{payment_id}/disputes; POST /disputes/{dispute_id}/evidence or /accept). A won dispute makes the payment refundable again.',
      ),
      amount_exceeds_refundable: e(
        422,
        'The refund is larger than what is left to refund (captured minus pending and succeeded refunds).',
        'Refund at most the rest; leave `amount` out to refund all of it.',
      ),
      dispute_not_found: e(
        404,
        "No such dispute for this merchant in this mode (also for another merchant's or the other mode's).",
        "Check the dispute id and that the key is of the dispute's mode.",
      ),
      dispute_not_allowed: e(409, 'Only a captured payment can be disputed (test-mode simulated disputes).', 'Capture the payment first.'),
      test_mode_only: e(403, "The route simulates a processor's part and exists in test mode only.", 'Use a test key; live disputes come from the processor.'),
      dispute_closed: e(
        409,
        'The dispute is decided (won or lost): it can no longer be accepted or answered with evidence.',
        'Nothing to do; a later stage (a second chargeback, arbitration) reopens it with dispute.updated.',
      ),
      dispute_under_review: e(
        409,
        'Evidence for the dispute was submitted: the issuer is reviewing it, and the processors take one submission.',
        'Wait for dispute.closed.',
      ),
      evidence_deadline_passed: e(
        409,
        'The processor took evidence for the dispute until evidence_due_by, which has passed.',
        'Accept the dispute, or leave it to be decided.',
      ),
      evidence_not_supported: e(
        422,
        prose(
          "The dispute's processor cannot take this piece of evidence (`field` names it): Adyen takes documents only and a defense_reason_code to submit, Checkout.com one file and 500 characters of text per category, each processor its file formats. Nothing was sent.",
        ),
        'Send it in the form `detail` says (a file instead of text, one combined document).',
      ),
      dispute_action_refused: e(
        409,
        'The processor refused the answer to the dispute; `detail` quotes its message. The dispute is unchanged.',
        "Read the dispute again (the processor may have moved it); otherwise answer it in the processor's dashboard.",
      ),
      dispute_answer_not_supported: e(
        409,
        'The processor account that reported the dispute is gone, or its processor takes no answer through its API.',
        "Answer the dispute in the processor's own dashboard.",
      ),
      processor_unavailable: e(503, 'The processor did not answer the call (a timeout or a server error); nothing is known to have changed.', RETRY),
      early_fraud_warning_not_found: e(
        404,
        'No such early fraud warning for this merchant in this mode.',
        "Check the id and that the key is of the warning's mode.",
      ),
      amount_too_large: e(
        422,
        'The amount has more than twelve digits (above 999999999999 minor units), more than any processor takes.',
        'Send an amount in minor units of the currency (1250 for EUR 12.50), at most 999999999999.',
      ),
      amount_not_supported: e(
        422,
        prose(
          "The processor cannot take this amount as it is, so nothing was sent: `detail` names its rule, the amount in major units and the nearest amounts it takes. Such as the last digit 0 of three-decimal currencies (KWD, BHD, JOD, OMR, TND) at Stripe and Checkout.com, whole units of CVE and IDR at Adyen and of MGA at Stripe, Stripe's minimum charge, at most eight digits of Stripe's units (twelve for IDR) or nine of Checkout.com's. At creation it means no processor of the flow's authorization step can take it (one that cannot is passed over for the next).",
        ),
        'Round the amount to one the processor takes (`detail` names the nearest), or route the currency to a processor that takes it (flow matrix).',
      ),
      retry_limit_reached: e(
        422,
        "A merchant-initiated payment would retry a declined card past the card schemes' limits, so nothing was made or sent: the card's last decline was hard (lost or stolen, fraud, an invalid card, Mastercard MAC 03 or 21, Visa category 1: no retry at all), Mastercard's advice (MAC 24–30) asks to wait, or the retries after declines reached the limit (defaults: Visa 15 in 30 days; Mastercard 10 in 24 hours and 35 in 30 days; MIT_RETRIES_* variables). `detail` names the rule.",
        'Do not charge this card again now: after a hard decline ask the customer for another card; after a wait, charge from the time `detail` names; past a limit, wait for the window to pass. A charge after the card was approved again counts anew.',
      ),
      capture_not_allowed: e(
        409,
        'The payment cannot be captured: its flow captures automatically, it is not authorized (or partially captured), or a capture of it is under way.',
        'Capture only authorized payments of manual-capture flows, one capture at a time (wait for payment.captured or payment.capture_failed).',
      ),
      already_captured: e(
        409,
        "The payment's final capture was made (or is under way): nothing is left to capture.",
        'Read the payment; do not capture again.',
      ),
      amount_exceeds_authorized: e(
        422,
        'The capture amount is above what can still be captured (amount.capturable: the authorized amount less what was captured).',
        'Capture at most amount.capturable.',
      ),
      partial_capture_not_supported: e(422, 'The processor does not capture part of an amount.', 'Capture the full amount.'),
      multiple_captures_not_supported: e(
        422,
        prose(
          'final_capture false asks for more captures later, and the processor account makes one capture per payment (an Adyen account without multiple partial captures).',
        ),
        prose(
          'Send final_capture true (or leave it out), or enable multiple captures on the processor account (Adyen: settings.multiple_partial_captures, once Adyen enabled it).',
        ),
      ),
      currency_mismatch: e(422, "currency_code is not the payment's (or the initial payment's) currency.", "Send the payment's currency."),
      amount_exceeds_initial: e(422, "A subsequent payment is above the initial payment's amount.", 'Charge at most the initial amount.'),
      recurring_frequency_not_respected: e(
        422,
        'Fewer than recurring_frequency days passed since the last successful payment on these credentials.',
        'Charge again from the date in `detail`.',
      ),
      credentials_expired: e(422, 'The stored credentials are past recurring_expiry.', 'Start a new initial payment with the consumer.'),
      initial_payment_not_successful: e(
        409,
        'The initial payment is neither authorized nor captured.',
        'Charge stored credentials only after their initial payment succeeded.',
      ),
      use_case_mismatch: e(
        422,
        'The initial payment is of the other kind (recurring against unscheduled, or the earlier interface).',
        "Use the subsequent route of the initial payment's use case.",
      ),
      authentication_not_configured: e(422, 'REQUIRE_3RI on a flow without a 3RI step.', 'Send NO_3RI or TRY_3RI, or choose a flow with authentication_3ri.'),
      simulator_not_allowed_in_live_mode: e(
        422,
        "A live payment's chosen flow uses the simulator, which serves test mode only.",
        'Define a flow of real processors and route live payments to it (flow matrix).',
      ),
      illegal_payment_move: e(500, 'A payment was asked to move between states its lifecycle does not allow.', INTERNAL),
      stray_authorization_pending: e(
        503,
        'A processor notification names an authorization the payment does not use, which cannot be released yet.',
        'Processors deliver the notification again; nothing to do.',
      ),
      customer_not_found: e(404, 'No such customer (earlier interface).', 'Check the customer id.'),
      payment_method_not_found: e(404, 'No such stored payment method or mandate.', 'Check the payment_method_id.'),
      payment_method_revoked: e(410, 'The payment method was revoked.', 'Collect the card again in a new first payment.'),
      first_payment_required: e(409, 'The mandate has no successful first payment yet.', 'Charge it after its first payment succeeded.'),
    },
  },
  {
    title: 'Flows, the flow matrix and processor accounts',
    entries: {
      flow_not_found: e(404, 'No flow of that name.', 'List the flows (GET /flows).'),
      flow_exists: e(409, 'A flow of that name exists; flows are immutable.', 'Create the changed flow under a new name.'),
      invalid_flow: e(422, "The flow's steps are not a valid sequence (exactly one authorization, capture after it…).", 'Fix the steps `field` names.'),
      unknown_processor: e(
        422,
        "A step (or a matrix rule's flow) names a processor that is not registered.",
        'Use a processor id of the registry or a processor account.',
      ),
      processor_capability_missing: e(422, "The processor cannot do the step's kind.", 'Choose a processor with that capability.'),
      flow_matrix_changed: e(409, 'Another update of the flow matrix committed first.', 'Read the matrix again and send the change again.'),
      unknown_flow: e(
        422,
        'A matrix rule (or default_flow) names a flow that does not exist; the problem names the rule.',
        'Create the flow first, or fix the name.',
      ),
      unknown_condition: e(
        422,
        'A rule uses a condition key that does not exist.',
        'Use use_case, currency_code, amount_gte, amount_lte, reference_prefix, scheme or metadata.',
      ),
      invalid_condition: e(422, "A rule's condition has a value of the wrong type.", 'Fix the value `field` names.'),
      duplicate_rule_name: e(422, 'Two rules of the matrix have the same name.', 'Name every rule once.'),
      processor_account_not_found: e(404, 'No such processor account.', 'Check the processor account id.'),
      processor_account_in_use: e(
        409,
        'Flows name the processor account in their steps (`flows` lists them).',
        'Keep the account, or stop routing payments to those flows.',
      ),
      flow_limit_reached: e(
        422,
        'The merchant has 500 flows in this mode, the most it may have.',
        'Reuse an existing flow; flows are immutable, so route with the flow matrix instead of adding more.',
      ),
      too_many_notification_items: e(
        413,
        'A processor notification body carried more than 100 items.',
        'Processors send at most 100 items per body; a larger one is refused whole.',
      ),
      processor_account_limit_reached: e(409, 'The merchant has the most processor accounts allowed.', 'Delete an unused account first.'),
      invalid_notification: e(400, "The processor notification is not in the processor's format.", 'For processors only: send the standard notification body.'),
      invalid_signature: e(
        401,
        "The processor notification's signature does not verify with the account's secret.",
        'Check the webhook secret configured at the processor and in the account.',
      ),
    },
  },
  {
    title: 'Webhooks and events',
    entries: {
      webhook_endpoint_not_found: e(404, 'No such webhook endpoint.', 'Check the endpoint id.'),
      webhook_endpoint_disabled: e(409, 'The endpoint is disabled.', 'Enable it (PATCH) before replaying or sending a test event.'),
      too_many_webhook_endpoints: e(409, 'The merchant has the most webhook endpoints allowed.', 'Delete one, or subscribe one endpoint to more events.'),
      delivery_not_found: e(404, 'No such delivery.', 'Check the delivery id.'),
      delivery_in_progress: e(409, 'An attempt of this delivery is running.', 'Replay once it has finished.'),
      event_not_found: e(404, 'No such event.', 'Check the event id.'),
    },
  },
  {
    title: 'Admin API',
    entries: {
      merchant_not_found: e(404, 'No such merchant.', 'Check the merchant id.'),
      api_key_not_found: e(404, 'No such API key of the merchant.', "List the merchant's keys."),
      api_key_revoked: e(409, 'The API key is revoked already.', 'Nothing to do.'),
      api_key_in_use: e(
        409,
        'The request to delete this API key is signed with it.',
        'Delete it with another secret key, or roll it to keep it working a while.',
      ),
      api_key_not_rollable: e(409, 'The API key is revoked or expired: there is nothing to roll.', 'Create a new key (POST /api-keys).'),
      operator_not_found: e(404, 'No such operator.', 'List the operators.'),
      operator_revoked: e(409, 'The operator is revoked already.', 'Nothing to do.'),
      operator_name_taken: e(409, 'An operator with this name exists; names identify operators in the audit.', 'Choose another name.'),
    },
  },
  {
    title: 'Availability and internal errors',
    entries: {
      service_unavailable: e(503, 'A service behind the gateway is unavailable; nothing was done.', RETRY),
      starting: e(503, 'The service is starting.', 'Retry in a second.'),
      not_ready: e(503, 'A dependency of the service (store, another service) is unavailable.', RETRY),
      ttl_store_unavailable: e(503, 'The store of idempotency keys and rate limits (Redis) is unavailable.', RETRY),
      upstream_timeout: e(
        504,
        'A service behind the gateway did not answer in time; the request may have run.',
        'Retry with the same Idempotency-Key: a request that ran is answered from its kept response.',
      ),
      internal_error: e(500, 'An unexpected error; nothing about it is shown.', INTERNAL),
      decryption_failed: e(500, 'Stored card data could not be decrypted.', INTERNAL),
      invalid_key: e(500, 'A configured key is malformed.', INTERNAL),
      invalid_query: e(500, 'The service built a store query it cannot run.', INTERNAL),
      invalid_ttl_argument: e(500, 'The service used its TTL store wrongly.', INTERNAL),
      invalid_event: e(422, 'An event on the bus does not match its contract (consumers dead-letter it; never an API answer).', INTERNAL),
      invalid_internal_token: e(401, 'A service-to-service call carried an invalid internal token (never a merchant-facing answer).', INTERNAL),
      forbidden_issuer: e(403, 'A service-to-service call came from a service that may not make it.', INTERNAL),
      merchant_mismatch: e(403, 'A service-to-service call was issued for another merchant.', INTERNAL),
    },
  },
];

/** Every code with its entry (and its group's title). */
export const ERROR_CATALOGUE: ReadonlyMap<string, ErrorEntry & { group: string }> = new Map(
  ERROR_GROUPS.flatMap((group) => Object.entries(group.entries).map(([code, entry]) => [code, { ...entry, group: group.title }] as const)),
);
