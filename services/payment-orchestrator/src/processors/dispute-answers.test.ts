import type { DisputeEvidence } from '../domain/payment-vocabulary/dispute-evidence';
import type { ProcessorDispute } from '../domain/processor-port/processor-port';
import {
  adyenDisputeOutcome,
  adyenDisputesBaseUrl,
  adyenEvidenceUnsupported,
  toAdyenAcceptDisputeRequest,
  toAdyenDefendDisputeRequest,
  toAdyenSupplyDefenseDocumentRequest,
} from './adyen/adyen.dispute-answers';
import {
  checkoutDisputeOutcome,
  checkoutEvidenceUnsupported,
  checkoutFilesBaseUrl,
  toCheckoutAcceptDisputeRequest,
  toCheckoutFileUploadRequest,
  toCheckoutProvideEvidenceRequest,
  toCheckoutSubmitEvidenceRequest,
} from './checkout/checkout.dispute-answers';
import { STRIPE_API_VERSION } from './stripe/stripe.api-version';
import {
  stripeEvidenceUnsupported,
  stripeFilesBaseUrl,
  stripeOutcome,
  toStripeCloseDisputeRequest,
  toStripeEvidenceRequest,
  toStripeFileUploadRequest,
} from './stripe/stripe.dispute-answers';

/**
 * The processors' dispute APIs, field by field, as each publishes them:
 * - Stripe, https://docs.stripe.com/api/disputes/update (POST /v1/disputes/{id}, evidence[…], submit),
 *   https://docs.stripe.com/api/disputes/close (POST /v1/disputes/{id}/close), https://docs.stripe.com/api/files/create
 *   (POST https://files.stripe.com/v1/files, multipart, purpose dispute_evidence); the evidence fields are the
 *   dispute evidence object's (stripe/openapi fixtures3.json resources.dispute.evidence).
 * - Adyen, Adyen/adyen-openapi json/DisputeService-v30.json: server https://ca-test.adyen.com/ca/services/DisputeService/v30,
 *   AcceptDisputeRequest {disputePspReference, merchantAccountCode}, SupplyDefenseDocumentRequest {defenseDocuments:
 *   [DefenseDocument {content (byte), contentType, defenseDocumentTypeCode}], …}, DefendDisputeRequest {defenseReasonCode, …},
 *   every answer's disputeServiceResult {success, errorMessage}; examples SupplyDefenseMaterial / DefenseMaterial / TIDorInvoice.
 * - Checkout.com, checkout-api-reference nas_spec: disputes@{dispute_id}@accept.yaml (POST, 204),
 *   disputes@{dispute_id}@evidence.yaml (PUT provides, POST submits, 204), files.yaml (POST /files, multipart,
 *   "JPEG/JPG, PNG or PDF … no larger than 4MB"), ProvideEvidenceRequest.yaml (each category's _file and _text, maximum 500);
 *   its SDKs' files host https://files.sandbox.checkout.com / https://files.checkout.com.
 */
const dispute: ProcessorDispute = {
  dispute_id: 'd-1',
  merchant_id: 'm',
  mode: 'test',
  processor_reference: 'dp_1MtwBw',
  payment_reference: 'pi_3MtwBw',
  idempotency_key: 'd-1:evidence:k',
};
const PDF = Buffer.from('%PDF-1.4\n', 'latin1');
const evidence = (overrides: Partial<DisputeEvidence> = {}): DisputeEvidence => ({
  text: {},
  files: {},
  defense_reason_code: null,
  submit: true,
  ...overrides,
});
const receipt = { filename: 'receipt.pdf', content_type: 'application/pdf' as const, content: PDF, document_type: null };

describe('Stripe dispute answers', () => {
  const credentials = { secret_key: 'sk_test_key1', webhook_secret: 'whsec_10123456789abcdefghijklmnopqrstu' };

  it('when a dispute is accepted, then POST /v1/disputes/{id}/close is sent with the secret key', () => {
    expect(toStripeCloseDisputeRequest(credentials, dispute)).toMatchObject({
      method: 'POST',
      path: '/v1/disputes/dp_1MtwBw/close',
      format: 'form',
      headers: { authorization: 'Bearer sk_test_key1', 'idempotency-key': 'd-1:evidence:k' },
    });
  });

  it('when evidence is sent, then each file is uploaded multipart with purpose dispute_evidence, and the update names text and file ids as evidence[…] with submit', () => {
    expect(toStripeFileUploadRequest(credentials, receipt, 'k:receipt')).toEqual({
      method: 'POST',
      path: '/v1/files',
      headers: { authorization: 'Bearer sk_test_key1', 'idempotency-key': 'k:receipt', 'stripe-version': STRIPE_API_VERSION },
      format: 'multipart',
      body: { fields: { purpose: 'dispute_evidence' }, files: [{ name: 'file', filename: 'receipt.pdf', content_type: 'application/pdf', content: PDF }] },
    });
    expect(
      toStripeEvidenceRequest(credentials, dispute, evidence({ text: { product_description: 'Scarf' }, submit: false }), { receipt: 'file_1' }).body,
    ).toEqual({ 'evidence[product_description]': 'Scarf', 'evidence[receipt]': 'file_1', submit: 'false' });
    expect([stripeFilesBaseUrl('https://api.stripe.com'), stripeFilesBaseUrl('http://127.0.0.1:4010')]).toEqual([
      'https://files.stripe.com',
      'http://127.0.0.1:4010',
    ]);
  });

  it("when Stripe answers, then 200 is taken, a 4xx refused quoting error.message, a 5xx or 429 an error to retry; a TIFF is not Stripe's", () => {
    expect(stripeOutcome({ status: 200, body: { id: 'dp_1', status: 'lost' } })).toEqual({ status: 'succeeded' });
    expect(stripeOutcome({ status: 400, body: { error: { message: 'This dispute is already closed' } } })).toEqual({
      status: 'refused',
      detail: 'Stripe answered HTTP 400: This dispute is already closed',
    });
    expect(stripeOutcome({ status: 503, body: null })).toEqual({ status: 'error', failure_reason: 'processor_unavailable' });
    expect(stripeOutcome({ status: 429, body: null })).toEqual({ status: 'error', failure_reason: 'processor_rate_limited' });
    expect(stripeEvidenceUnsupported(evidence({ files: { receipt: { ...receipt, content_type: 'image/tiff' } } }))).toMatchObject({
      status: 'unsupported',
      field: 'evidence.receipt.content_type',
    });
  });
});

describe('Adyen dispute answers', () => {
  const credentials = { api_key: 'AQE_key', merchant_account: 'ShopECOM', hmac_key: 'ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB' };
  const adyenDispute = { ...dispute, processor_reference: 'DZ4DPSHB4WD2WN82' };

  it("when a dispute is accepted or defended, then acceptDispute and defendDispute carry the dispute's pspReference and the merchant account, with the API key", () => {
    expect(toAdyenAcceptDisputeRequest(credentials, adyenDispute)).toMatchObject({
      method: 'POST',
      path: '/acceptDispute',
      headers: { 'x-api-key': 'AQE_key' },
      body: { disputePspReference: 'DZ4DPSHB4WD2WN82', merchantAccountCode: 'ShopECOM' },
    });
    expect(toAdyenDefendDisputeRequest(credentials, adyenDispute, 'SupplyDefenseMaterial').body).toEqual({
      defenseReasonCode: 'SupplyDefenseMaterial',
      disputePspReference: 'DZ4DPSHB4WD2WN82',
      merchantAccountCode: 'ShopECOM',
    });
  });

  it('when documents are supplied, then each is base64 with its content type and document type (receipt TIDorInvoice, others DefenseMaterial, or the one named)', () => {
    const request = toAdyenSupplyDefenseDocumentRequest(
      credentials,
      adyenDispute,
      evidence({ files: { receipt, uncategorized_file: receipt, customer_communication: { ...receipt, document_type: 'GoodsNotReturned' } } }),
    );
    expect(request.body).toEqual({
      defenseDocuments: [
        { content: PDF.toString('base64'), contentType: 'application/pdf', defenseDocumentTypeCode: 'TIDorInvoice' },
        { content: PDF.toString('base64'), contentType: 'application/pdf', defenseDocumentTypeCode: 'DefenseMaterial' },
        { content: PDF.toString('base64'), contentType: 'application/pdf', defenseDocumentTypeCode: 'GoodsNotReturned' },
      ],
      disputePspReference: 'DZ4DPSHB4WD2WN82',
      merchantAccountCode: 'ShopECOM',
    });
  });

  it('when Adyen answers success false (even with HTTP 200), then it is refused with its errorMessage; success true is taken', () => {
    expect(adyenDisputeOutcome({ status: 200, body: { disputeServiceResult: { success: true } } })).toEqual({ status: 'succeeded' });
    expect(
      adyenDisputeOutcome({ status: 200, body: { disputeServiceResult: { success: false, errorMessage: 'Dispute is pending, no action possible' } } }),
    ).toEqual({ status: 'refused', detail: 'Adyen answered success false: Dispute is pending, no action possible' });
    expect(adyenDisputeOutcome({ status: 422, body: { status: 422, errorCode: '702', message: 'Invalid field', errorType: 'validation' } })).toEqual({
      status: 'refused',
      detail: 'Adyen answered HTTP 422: Invalid field',
    });
  });

  it('when the evidence holds text, a PNG, or is submitted without a defense reason, then Adyen cannot take it', () => {
    expect(adyenEvidenceUnsupported(evidence({ text: { product_description: 'x' } }))).toMatchObject({ field: 'evidence.product_description' });
    expect(adyenEvidenceUnsupported(evidence({ files: { receipt: { ...receipt, content_type: 'image/png' } }, defense_reason_code: 'X' }))).toMatchObject({
      field: 'evidence.receipt.content_type',
    });
    expect(adyenEvidenceUnsupported(evidence({ files: { receipt } }))).toMatchObject({ field: 'defense_reason_code' });
    expect(adyenEvidenceUnsupported(evidence({ files: { receipt }, submit: false }))).toBeNull();
  });

  it("when the account has no base URL of its own (or Adyen's payment hosts), then the Disputes API is Adyen's test or live Customer Area host; another base URL serves it under the same path", () => {
    expect(adyenDisputesBaseUrl('test', null)).toBe('https://ca-test.adyen.com/ca/services/DisputeService/v30');
    expect(adyenDisputesBaseUrl('live', 'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout')).toBe(
      'https://ca-live.adyen.com/ca/services/DisputeService/v30',
    );
    expect(adyenDisputesBaseUrl('test', 'http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010/ca/services/DisputeService/v30');
  });
});

describe('Checkout.com dispute answers', () => {
  const credentials = { secret_key: 'sk_sbox_1', processing_channel_id: 'pc_1', webhook_secret: 'whsec_10123456789abcdefghijklmnopqrstu' };
  const ckoDispute = { ...dispute, processor_reference: 'dsp_rbhwd2qrg13uhrp2newf' };

  it('when a dispute is accepted or its evidence submitted, then POST /disputes/{id}/accept and POST /disputes/{id}/evidence carry no body', () => {
    expect(toCheckoutAcceptDisputeRequest(credentials, ckoDispute)).toMatchObject({
      method: 'POST',
      path: '/disputes/dsp_rbhwd2qrg13uhrp2newf/accept',
      headers: { authorization: 'Bearer sk_sbox_1' },
    });
    expect(toCheckoutAcceptDisputeRequest(credentials, ckoDispute)).not.toHaveProperty('body');
    expect(toCheckoutSubmitEvidenceRequest(credentials, ckoDispute)).toMatchObject({ method: 'POST', path: '/disputes/dsp_rbhwd2qrg13uhrp2newf/evidence' });
  });

  it('when evidence is provided, then files go multipart to POST /files and PUT /disputes/{id}/evidence names them by category with the texts as "Label: value" lines', () => {
    expect(toCheckoutFileUploadRequest(credentials, receipt, 'k:receipt')).toMatchObject({
      path: '/files',
      format: 'multipart',
      body: { fields: { purpose: 'dispute_evidence' } },
    });
    const provided = toCheckoutProvideEvidenceRequest(
      credentials,
      ckoDispute,
      evidence({ text: { duplicate_charge_id: 'ch_1', duplicate_charge_explanation: 'Two orders', service_date: '2026-06-01' } }),
      { receipt: 'file_1', duplicate_charge_documentation: 'file_2' },
    );
    expect([provided.method, provided.path, provided.body]).toEqual([
      'PUT',
      '/disputes/dsp_rbhwd2qrg13uhrp2newf/evidence',
      {
        invoice_or_receipt_file: 'file_1',
        invoice_showing_distinct_transactions_file: 'file_2',
        invoice_showing_distinct_transactions_text: 'Duplicate charge id: ch_1\nDuplicate charge explanation: Two orders',
        proof_of_delivery_or_service_date_text: 'Service date: 2026-06-01',
      },
    ]);
  });

  it("when a category's text passes 500 characters, two files share a category, or a TIFF is given, then Checkout.com cannot take it", () => {
    expect(checkoutEvidenceUnsupported(evidence({ text: { shipping_carrier: 'DHL', shipping_address: 'x'.repeat(500) } }))).toMatchObject({
      field: 'evidence.shipping_address',
    });
    expect(checkoutEvidenceUnsupported(evidence({ files: { shipping_documentation: receipt, service_documentation: receipt } }))).toMatchObject({
      field: 'evidence.service_documentation',
    });
    expect(checkoutEvidenceUnsupported(evidence({ files: { receipt: { ...receipt, content_type: 'image/tiff' } } }))).toMatchObject({
      field: 'evidence.receipt.content_type',
    });
    expect(checkoutEvidenceUnsupported(evidence({ text: { shipping_carrier: 'DHL' }, files: { receipt } }))).toBeNull();
  });

  it("when Checkout.com answers, then 204 is taken and a 422 refused quoting error_type and error_codes; files go to its files host unless the account's base URL is elsewhere", () => {
    expect(checkoutDisputeOutcome({ status: 204, body: null })).toEqual({ status: 'succeeded' });
    expect(checkoutDisputeOutcome({ status: 422, body: { error_type: 'request_invalid', error_codes: ['dispute_not_open'] } })).toEqual({
      status: 'refused',
      detail: 'Checkout.com answered HTTP 422: request_invalid (dispute_not_open)',
    });
    expect([
      checkoutFilesBaseUrl('test', null),
      checkoutFilesBaseUrl('live', 'https://abc123.api.checkout.com'),
      checkoutFilesBaseUrl('test', 'http://127.0.0.1:4010'),
    ]).toEqual(['https://files.sandbox.checkout.com', 'https://files.checkout.com', 'http://127.0.0.1:4010']);
  });
});
