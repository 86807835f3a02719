import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { SECRET_PREFIX, generateWebhookSecret, secretKeyBytes, webhookHeaders } from './webhook-signature';

const body = JSON.stringify({ type: 'payment.captured', timestamp: '2026-01-01T00:00:00.000Z', data: { payment_id: 'p1' } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing, checked with the official standardwebhooks verifier', () => {
  it('when a secret is generated, then it is whsec_ with at least 24 random bytes and differs every time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a.startsWith(SECRET_PREFIX)).toBe(true);
    expect(secretKeyBytes(a).length).toBeGreaterThanOrEqual(24);
    expect(a).not.toBe(b);
  });

  it('when a message is signed with the endpoint secret, then the reference verifier accepts it and returns the payload', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({ id: 'msg_1', timestamp: nowSeconds(), body }, [secret]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('when signed with two secrets during a rotation, then the header holds two space-separated entries and each secret verifies', () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const headers = webhookHeaders({ id: 'msg_2', timestamp: nowSeconds(), body }, [newSecret, oldSecret]);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('when one byte of the body is changed after signing, then the verifier rejects it', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({ id: 'msg_3', timestamp: nowSeconds(), body }, [secret]);
    expect(() => new Webhook(secret).verify(body.replace('p1', 'p2'), headers)).toThrow(WebhookVerificationError);
  });

  it('when the timestamp is older than the five-minute tolerance, then the verifier rejects it as stale', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({ id: 'msg_4', timestamp: nowSeconds() - 10 * 60, body }, [secret]);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/i);
  });
});
