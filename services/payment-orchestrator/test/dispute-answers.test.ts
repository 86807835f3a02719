import { CREDENTIALS, useDisputeWorld } from './support/dispute-stand-ins';
import { MERCHANT, OTHER_MERCHANT, type Json } from './support/orchestrator-harness';

/**
 * Issue #34, finding 4: there was no way to accept a dispute or send evidence. POST /disputes/{id}/accept and
 * POST /disputes/{id}/evidence answer a dispute at the processor that reported it (stand-ins shaped after
 * Stripe's, Adyen's and Checkout.com's APIs), and the dispute moves with dispute.updated (and dispute.closed).
 */
const ctx = useDisputeWorld();

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-a-tiny-image')]);
const file = (content: Buffer, content_type = 'application/pdf', filename = 'receipt-1001.pdf') => ({
  filename,
  content_type,
  data: content.toString('base64'),
});

const answer = (dispute: Json, action: 'accept' | 'evidence', body: unknown = {}, caller = MERCHANT) =>
  ctx.h.call(caller, 'POST', `/disputes/${dispute.id}/${action}`, body);
const disputeEvents = (dispute: Json) =>
  ctx.h.events.filter((e) => e.type.startsWith('dispute.') && e.data.dispute_id === dispute.id).map((e) => [e.type, e.data.status]);

/** A simulated dispute (test route) on a payment the simulator captured. */
async function simulatedDispute(body: Record<string, unknown> = {}): Promise<Json> {
  const payment = await ctx.h.payOneOff(MERCHANT, '424242******4242');
  await ctx.h.advance(200);
  return (await ctx.h.call(MERCHANT, 'POST', `/payments/${payment.id}/test/dispute`, body)).body;
}

const disputeOn = async (paymentId: string): Promise<Json> => (await ctx.h.call(MERCHANT, 'GET', `/payments/${paymentId}/disputes`)).body.data[0];

describe('answering a dispute: states and errors', () => {
  it('when a dispute needing a response is accepted, then it is lost, with dispute.updated and dispute.closed; accepting it again, or sending evidence, answers 409 dispute_closed', async () => {
    const payment = await ctx.h.payOneOff(MERCHANT, '400000******2685');
    await ctx.h.advance(200);
    const dispute = await disputeOn(payment.id);
    const accepted = await answer(dispute, 'accept');
    expect([accepted.status, accepted.body.status, accepted.body.id]).toEqual([200, 'lost', dispute.id]);
    await ctx.h.settle();
    expect(disputeEvents(dispute)).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'lost'],
      ['dispute.closed', 'lost'],
    ]);
    const again = await answer(dispute, 'accept');
    expect([again.status, again.body.code, again.body.dispute_status]).toEqual([409, 'dispute_closed', 'lost']);
    expect((await answer(dispute, 'evidence', { evidence: { product_description: 'Scarf' } })).body.code).toBe('dispute_closed');
    // Lost: the money is gone, the payment holds it.
    expect((await ctx.h.call(MERCHANT, 'GET', `/payments/${payment.id}`)).body.amount).toMatchObject({ disputed: 1250, net: 0 });
  });

  it('when evidence is submitted, then the dispute is under review since then with dispute.updated; more evidence or an accept then answer 409 dispute_under_review', async () => {
    const dispute = await simulatedDispute();
    const submitted = await answer(dispute, 'evidence', { evidence: { product_description: 'Wool scarf, order 1001', receipt: file(PDF) } });
    expect([submitted.status, submitted.body.status, submitted.body.evidence_submitted_at]).toEqual([200, 'under_review', ctx.h.clock.now().toISOString()]);
    await ctx.h.settle();
    expect(disputeEvents(dispute)).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
    ]);
    expect((await answer(dispute, 'evidence', { evidence: { product_description: 'more' } })).body.code).toBe('dispute_under_review');
    expect((await answer(dispute, 'accept')).body.code).toBe('dispute_under_review');
  });

  it('when evidence is only staged (submit false), then the dispute still needs a response and nothing is published; nothing to stage is 422', async () => {
    const dispute = await simulatedDispute();
    const staged = await answer(dispute, 'evidence', { evidence: { customer_name: 'Ada Lovelace' }, submit: false });
    expect([staged.status, staged.body.status, staged.body.evidence_submitted_at]).toEqual([200, 'needs_response', null]);
    await ctx.h.settle();
    expect(disputeEvents(dispute)).toEqual([['dispute.created', 'needs_response']]);
    const empty = await answer(dispute, 'evidence', { submit: false });
    expect([empty.status, empty.body.code, empty.body.field]).toEqual([422, 'validation_failed', 'evidence']);
  });

  it('when evidence arrives after evidence_due_by, then 409 evidence_deadline_passed and the dispute is unchanged; accepting it is still possible', async () => {
    const dispute = await simulatedDispute({ evidence_due_by: '2026-05-31T23:59:59Z' });
    expect(dispute.evidence_due_by).toBe('2026-05-31T23:59:59.000Z');
    const late = await answer(dispute, 'evidence', { evidence: { product_description: 'Scarf' } });
    expect([late.status, late.body.code, late.body.evidence_due_by]).toEqual([409, 'evidence_deadline_passed', '2026-05-31T23:59:59.000Z']);
    expect((await ctx.h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body.status).toBe('needs_response');
    expect((await answer(dispute, 'accept')).body.status).toBe('lost');
  });

  it.each([
    ['an unknown evidence field', { evidence: { favourite_colour: 'blue' } }, 'evidence.favourite_colour'],
    ['a file that is not base64', { evidence: { receipt: { ...file(PDF), data: 'not base64!' } } }, 'evidence.receipt.data'],
    ['a file that is not what its content type says', { evidence: { receipt: file(PNG, 'application/pdf') } }, 'evidence.receipt.data'],
    ['a file of another format', { evidence: { receipt: file(PDF, 'application/zip') } }, 'evidence.receipt.content_type'],
    ['a file larger than 700 KiB', { evidence: { receipt: file(Buffer.concat([PDF, Buffer.alloc(700 * 1024)])) } }, 'evidence.receipt.data'],
    ['a file name with a path', { evidence: { receipt: file(PDF, 'application/pdf', '../etc/passwd') } }, 'evidence.receipt.filename'],
    ['a text field given a file', { evidence: { product_description: file(PDF) } }, 'evidence.product_description'],
    ['submit that is not a boolean', { submit: 'yes' }, 'submit'],
  ])('when the evidence carries %s, then 422 validation_failed names the field and nothing is sent', async (_name, body, field) => {
    const dispute = await simulatedDispute();
    const refused = await answer(dispute, 'evidence', body);
    expect([refused.status, refused.body.code, refused.body.field]).toEqual([422, 'validation_failed', field]);
    expect((await ctx.h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body.status).toBe('needs_response');
  });

  it('when another merchant, or a key of the other mode, answers the dispute, then 404 dispute_not_found; an id that is not a UUID too', async () => {
    const dispute = await simulatedDispute();
    expect((await answer(dispute, 'accept', {}, OTHER_MERCHANT)).body.code).toBe('dispute_not_found');
    expect((await answer(dispute, 'accept', {}, { ...MERCHANT, mode: 'live' })).body.code).toBe('dispute_not_found');
    expect((await ctx.h.call(MERCHANT, 'POST', '/disputes/not-a-uuid/accept', {})).status).toBe(404);
    expect((await ctx.h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body.status).toBe('needs_response');
  });
});

describe('answers sent to Stripe', () => {
  async function stripeDispute(): Promise<{ payment: Json; dispute: Json; stripeId: string }> {
    const payment = await ctx.world.capturedOn('stripe');
    const stripeId = ctx.standIns.stripe.dispute(ctx.world.referenceOf('stripe', payment), 'product_not_received');
    expect(await ctx.world.deliverStripe(ctx.standIns.stripe.webhooks.at(-1)!)).toBe(200);
    return { payment, dispute: await disputeOn(payment.id), stripeId };
  }

  it("when evidence with text and a receipt is submitted, then the file goes to Stripe's files endpoint (purpose dispute_evidence) and POST /v1/disputes/{id} names it with the text and submit=true", async () => {
    const { dispute, stripeId } = await stripeDispute();
    const submitted = await answer(dispute, 'evidence', {
      evidence: { product_description: 'Wool scarf', shipping_tracking_number: 'JJD000390007742712', receipt: file(PDF) },
    });
    expect([submitted.status, submitted.body.status]).toEqual([200, 'under_review']);
    const uploaded = ctx.standIns.stripe.files.at(-1)!;
    expect([uploaded.purpose, uploaded.filename, uploaded.type, uploaded.content.equals(PDF), uploaded.headers.authorization]).toEqual([
      'dispute_evidence',
      'receipt-1001.pdf',
      'pdf',
      true,
      `Bearer ${CREDENTIALS.stripe.secret_key}`,
    ]);
    const update = ctx.standIns.stripe.disputeRequests.at(-1)!;
    expect([update.dispute, update.action, update.fields]).toEqual([
      stripeId,
      'update',
      {
        'evidence[product_description]': 'Wool scarf',
        'evidence[shipping_tracking_number]': 'JJD000390007742712',
        'evidence[receipt]': uploaded.id,
        submit: 'true',
      },
    ]);
    expect(ctx.standIns.stripe.disputes.get(stripeId)!.status).toBe('under_review');
    // Stripe's own charge.dispute.updated (under_review) then agrees: nothing moves twice.
    await ctx.world.deliverStripe(ctx.standIns.stripe.webhooks.at(-1)!);
    expect(disputeEvents(dispute)).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
    ]);
  });

  it("when a Stripe dispute is accepted, then POST /v1/disputes/{id}/close is sent and the dispute is lost; Stripe's charge.dispute.closed then changes nothing", async () => {
    const { dispute, stripeId } = await stripeDispute();
    expect((await answer(dispute, 'accept')).body.status).toBe('lost');
    expect(ctx.standIns.stripe.disputeRequests.at(-1)).toMatchObject({ dispute: stripeId, action: 'close' });
    await ctx.world.deliverStripe(ctx.standIns.stripe.webhooks.at(-1)!);
    expect(disputeEvents(dispute).map(([type]) => type)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
  });

  it('when Stripe refuses (the dispute was closed at Stripe meanwhile), then 409 dispute_action_refused quotes Stripe and the dispute is unchanged; a TIFF is refused before anything is sent', async () => {
    const { dispute, stripeId } = await stripeDispute();
    ctx.standIns.stripe.closeDispute(stripeId, 'won');
    const refused = await answer(dispute, 'accept');
    expect([refused.status, refused.body.code]).toEqual([409, 'dispute_action_refused']);
    expect(refused.body.detail).toMatch(/Stripe answered HTTP 400: This dispute is won/);
    expect((await ctx.h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body.status).toBe('needs_response');
    const tiff = Buffer.from('II*\u0000tiff-bytes', 'latin1');
    const filesBefore = ctx.standIns.stripe.files.length;
    const unsupported = await answer(dispute, 'evidence', { evidence: { receipt: file(tiff, 'image/tiff', 'receipt.tif') } });
    expect([unsupported.status, unsupported.body.code, unsupported.body.field]).toEqual([422, 'evidence_not_supported', 'evidence.receipt.content_type']);
    expect(ctx.standIns.stripe.files).toHaveLength(filesBefore);
  });

  it('when Stripe does not answer (503), then 503 processor_unavailable and the dispute is unchanged; sent again, it is taken', async () => {
    const { dispute } = await stripeDispute();
    ctx.standIns.stripe.failNext(1);
    const unavailable = await answer(dispute, 'accept');
    expect([unavailable.status, unavailable.body.code]).toEqual([503, 'processor_unavailable']);
    expect((await ctx.h.call(MERCHANT, 'GET', `/disputes/${dispute.id}`)).body.status).toBe('needs_response');
    expect((await answer(dispute, 'accept')).body.status).toBe('lost');
  });
});

describe('answers sent to Adyen', () => {
  async function adyenDispute(): Promise<{ dispute: Json; psp: string }> {
    const payment = await ctx.world.capturedOn('adyen');
    const { pspReference, notification } = ctx.standIns.adyen.dispute(ctx.world.referenceOf('adyen', payment));
    await ctx.world.deliverAdyen(notification);
    return { dispute: await disputeOn(payment.id), psp: pspReference };
  }

  it('when documents and a defense reason are submitted, then supplyDefenseDocument carries them base64 with their document types and defendDispute the reason; the dispute is under review', async () => {
    const { dispute, psp } = await adyenDispute();
    expect(dispute.evidence_due_by).not.toBeNull();
    const submitted = await answer(dispute, 'evidence', {
      evidence: { receipt: file(PDF), uncategorized_file: file(PDF, 'application/pdf', 'tracking.pdf') },
      defense_reason_code: 'SupplyDefenseMaterial',
    });
    expect([submitted.status, submitted.body.status]).toEqual([200, 'under_review']);
    const [supply, defend] = ctx.standIns.adyen.disputeRequests.slice(-2);
    expect(supply!.operation).toBe('supplyDefenseDocument');
    expect(supply!.headers['x-api-key']).toBe(CREDENTIALS.adyen.api_key);
    expect(supply!.body).toEqual({
      defenseDocuments: [
        { content: PDF.toString('base64'), contentType: 'application/pdf', defenseDocumentTypeCode: 'TIDorInvoice' },
        { content: PDF.toString('base64'), contentType: 'application/pdf', defenseDocumentTypeCode: 'DefenseMaterial' },
      ],
      disputePspReference: psp,
      merchantAccountCode: 'ShopECOM',
    });
    expect([defend!.operation, defend!.body]).toEqual([
      'defendDispute',
      { defenseReasonCode: 'SupplyDefenseMaterial', disputePspReference: psp, merchantAccountCode: 'ShopECOM' },
    ]);
    expect(ctx.standIns.adyen.disputes.get(psp)!.status).toBe('Pending');
  });

  it('when the evidence holds text, or is submitted without a defense reason code, then 422 evidence_not_supported names it and nothing reaches Adyen', async () => {
    const { dispute } = await adyenDispute();
    const before = ctx.standIns.adyen.disputeRequests.length;
    const text = await answer(dispute, 'evidence', { evidence: { product_description: 'Scarf' } });
    expect([text.status, text.body.code, text.body.field]).toEqual([422, 'evidence_not_supported', 'evidence.product_description']);
    const noReason = await answer(dispute, 'evidence', { evidence: { receipt: file(PDF) } });
    expect([noReason.body.code, noReason.body.field]).toEqual(['evidence_not_supported', 'defense_reason_code']);
    expect(ctx.standIns.adyen.disputeRequests).toHaveLength(before);
  });

  it('when Adyen answers success false (a defense reason without its required document), then 409 dispute_action_refused quotes errorMessage; accepting it then sends acceptDispute', async () => {
    const { dispute, psp } = await adyenDispute();
    const refused = await answer(dispute, 'evidence', { evidence: { receipt: file(PDF) }, defense_reason_code: 'GoodsWereAsDescribed' });
    expect([refused.status, refused.body.code]).toEqual([409, 'dispute_action_refused']);
    expect(refused.body.detail).toMatch(/Required defense document GoodsWereAsDescribed missing/);
    expect((await answer(dispute, 'accept')).body.status).toBe('lost');
    expect(ctx.standIns.adyen.disputeRequests.at(-1)).toMatchObject({
      operation: 'acceptDispute',
      body: { disputePspReference: psp, merchantAccountCode: 'ShopECOM' },
    });
  });
});

describe('answers sent to Checkout.com', () => {
  async function checkoutDispute(): Promise<{ dispute: Json; dsp: string }> {
    const payment = await ctx.world.capturedOn('checkout');
    const { id, webhook } = ctx.standIns.checkout.dispute(ctx.world.referenceOf('checkout', payment));
    expect(await ctx.world.deliverCheckout(webhook)).toBe(200);
    return { dispute: await disputeOn(payment.id), dsp: id };
  }

  it('when evidence is submitted, then each file goes to POST /files, PUT /disputes/{id}/evidence names them by category with the texts, and POST /disputes/{id}/evidence submits', async () => {
    const { dispute, dsp } = await checkoutDispute();
    const submitted = await answer(dispute, 'evidence', {
      evidence: {
        receipt: file(PDF),
        shipping_documentation: file(PNG, 'image/png', 'label.png'),
        shipping_carrier: 'DHL',
        shipping_tracking_number: 'JJD000390007742712',
        product_description: 'Wool scarf',
      },
    });
    expect([submitted.status, submitted.body.status]).toEqual([200, 'under_review']);
    const [receipt, label] = ctx.standIns.checkout.files.slice(-2);
    expect([receipt!.content.equals(PDF), label!.content.equals(PNG), label!.contentType]).toEqual([true, true, 'image/png']);
    const [provide, submit] = ctx.standIns.checkout.disputeRequests.slice(-2);
    expect([provide!.action, provide!.body]).toEqual([
      'provide',
      {
        invoice_or_receipt_file: receipt!.id,
        proof_of_delivery_or_service_file: label!.id,
        proof_of_delivery_or_service_text: 'Shipping carrier: DHL\nShipping tracking number: JJD000390007742712',
        additional_evidence_text: 'Product description: Wool scarf',
      },
    ]);
    expect([submit!.dispute, submit!.action]).toEqual([dsp, 'submit']);
    expect(ctx.standIns.checkout.disputes.get(dsp)!.status).toBe('evidence_under_review');
  });

  it("when a category's text is over 500 characters, or two files fall in one category, then 422 evidence_not_supported names the field and nothing is uploaded", async () => {
    const { dispute } = await checkoutDispute();
    const before = ctx.standIns.checkout.files.length;
    const long = await answer(dispute, 'evidence', { evidence: { uncategorized_text: 'x'.repeat(480), customer_name: 'Ada Lovelace' } });
    expect([long.status, long.body.code, long.body.field]).toEqual([422, 'evidence_not_supported', 'evidence.uncategorized_text']);
    const twice = await answer(dispute, 'evidence', { evidence: { refund_policy: file(PDF), cancellation_policy: file(PDF) } });
    expect([twice.body.code, twice.body.field]).toEqual(['evidence_not_supported', 'evidence.refund_policy']);
    expect(ctx.standIns.checkout.files).toHaveLength(before);
  });

  it('when a Checkout.com dispute is accepted, then POST /disputes/{id}/accept is sent and the dispute is lost', async () => {
    const { dispute, dsp } = await checkoutDispute();
    expect((await answer(dispute, 'accept')).body.status).toBe('lost');
    expect(ctx.standIns.checkout.disputeRequests.at(-1)).toMatchObject({ dispute: dsp, action: 'accept' });
    expect(ctx.standIns.checkout.disputes.get(dsp)!.status).toBe('accepted');
  });
});
