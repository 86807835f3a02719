import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError } from './errors';
import { verify } from './webhooks';

const SECRET = `whsec_${Buffer.from('a secret of the endpoint, 32 b!!').toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'payment.captured.v1', data: { payment_id: 'p1' } });

function signed(payload: string, at = new Date()): Record<string, string> {
  const id = 'msg_1';
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(SECRET).sign(id, at, payload) };
}

describe('webhooks.verify', () => {
  it('when the body and headers are as signed with the secret, then it answers the event', () => {
    expect(verify(body, signed(body), SECRET)).toMatchObject({ id: 'evt_1', type: 'payment.captured.v1' });
  });

  it('reads headers from a fetch Headers object and from node headers with upper-case names', () => {
    const headers = signed(body);
    expect(verify(Buffer.from(body), new Headers(headers), SECRET)).toMatchObject({ id: 'evt_1' });
    expect(verify(body, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v])), SECRET)).toMatchObject({ id: 'evt_1' });
  });

  it('when the body was changed, then it throws WebhookVerificationError', () => {
    expect(() => verify(body.replace('p1', 'p2'), signed(body), SECRET)).toThrow(WebhookVerificationError);
  });

  it('when another secret signed it, then it throws WebhookVerificationError', () => {
    const other = `whsec_${Buffer.from('another secret, 32 bytes long!!!').toString('base64')}`;
    expect(() => verify(body, signed(body), other)).toThrow(WebhookVerificationError);
  });

  it('when the timestamp is an hour old (a replay), then it throws WebhookVerificationError', () => {
    expect(() => verify(body, signed(body, new Date(Date.now() - 3_600_000)), SECRET)).toThrow(WebhookVerificationError);
  });

  it('when a signature header is missing, then the error names it', () => {
    const { 'webhook-signature': _, ...headers } = signed(body);
    expect(() => verify(body, headers, SECRET)).toThrow('The webhook-signature header is missing.');
  });
});
