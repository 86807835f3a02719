import { fromCheckoutActionsResponse, toCheckoutActionsRequest } from './checkout.actions';

const credentials = { secret_key: 'sk_sbox_k', processing_channel_id: 'pc_1', webhook_secret: 'w0123456789abcdefghijklmnopqrstuvwxyzA' };
const actions = [
  { id: 'act_refund', type: 'Refund', amount: 500, approved: false, response_code: '20005' },
  { id: 'act_capture', type: 'Capture', amount: 1250, approved: true, response_code: '10000' },
  { id: 'act_auth', type: 'Authorization', amount: 1250, approved: true, response_code: '10000' },
];

describe('Checkout.com payment actions, read by the settlement sweep', () => {
  it('when the actions are asked for, then it is a GET of /payments/{id}/actions with the secret key and no body', () => {
    expect(toCheckoutActionsRequest(credentials, 'pay_abc')).toEqual({
      method: 'GET',
      path: '/payments/pay_abc/actions',
      headers: { authorization: 'Bearer sk_sbox_k' },
      carries_card_data: false,
    });
  });

  it("when the action with the id is approved, then it succeeded; when declined, then it failed with the kind's reason", () => {
    expect(fromCheckoutActionsResponse({ status: 200, body: actions }, 'Capture', 'act_capture')).toEqual({
      status: 'succeeded',
      processor_reference: 'act_capture',
    });
    expect(fromCheckoutActionsResponse({ status: 200, body: actions }, 'Refund', 'act_refund')).toEqual({
      status: 'failed',
      failure_reason: 'refund_failed',
      processor_reference: 'act_refund',
    });
  });

  it('when no action id is known (an automatic capture), then the newest action of the kind decides; when none is listed, then null (still pending)', () => {
    expect(fromCheckoutActionsResponse({ status: 200, body: actions }, 'Capture', null)).toMatchObject({ status: 'succeeded' });
    expect(fromCheckoutActionsResponse({ status: 200, body: actions }, 'Void', null)).toBeNull();
    expect(fromCheckoutActionsResponse({ status: 200, body: actions }, 'Capture', 'act_other')).toBeNull();
  });

  it('when Checkout.com cannot be asked (5xx, 404, not a list), then the outcome is an error: the caller keeps waiting', () => {
    expect(fromCheckoutActionsResponse({ status: 503, body: null }, 'Capture', null)).toMatchObject({ status: 'error' });
    expect(fromCheckoutActionsResponse({ status: 404, body: {} }, 'Capture', null)).toMatchObject({ status: 'error' });
    expect(fromCheckoutActionsResponse({ status: 200, body: {} }, 'Capture', null)).toMatchObject({ status: 'error' });
  });
});
