import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from './dev/adyen.stand-in';
import { answerIssuerChallenge } from '@vaultline/testing/psp-stand-ins';
import { placeholderTransport } from '../../../test/support/placeholder-transport';
import type { CaptureOutcome } from '../../domain/processor-port/processor-port';
import type { ProcessorContractCases } from '../processor.contract';
import { adyen } from '.';
import { fromAdyenNotificationItem, parseAdyenNotification, verifyAdyenItem } from './adyen.notification';

export const ADYEN_CONTRACT_HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
export const ADYEN_CONTRACT_CREDENTIALS = { api_key: 'AQE_contract_key_value', merchant_account: 'ShopECOM', hmac_key: ADYEN_CONTRACT_HMAC_KEY };
export const ADYEN_APPROVED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000a1';
const DECLINED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000d2';
export const ADYEN_CHALLENGE_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000003d5';
export const ADYEN_POST_CHALLENGE_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000003d6';

/** The transport of the contract: the forwarder's placeholders filled from the test tokens (approved, refused, two 3-D Secure challenges: GET and POST). */
export const adyenContractTransport = () =>
  placeholderTransport({
    [ADYEN_APPROVED_TOKEN]: { number: ADYEN_TEST_CARDS.approved, expiry_month: 3, expiry_year: 2030, security_code: '737' },
    [DECLINED_TOKEN]: { number: ADYEN_TEST_CARDS.refused, expiry_month: 3, expiry_year: 2030, security_code: '737' },
    [ADYEN_CHALLENGE_TOKEN]: { number: ADYEN_TEST_CARDS.threeDsChallenge, expiry_month: 3, expiry_year: 2030, security_code: '737' },
    [ADYEN_POST_CHALLENGE_TOKEN]: { number: ADYEN_TEST_CARDS.threeDsChallengePost, expiry_month: 3, expiry_year: 2030, security_code: '737' },
  });

/** A capture settles by Adyen's CAPTURE notification: the stand-in's, verified with the account's key and mapped as the route will. */
const settleByNotification =
  (standIn: AdyenStandIn) =>
  async (_connection: unknown, _payment: unknown, pending: CaptureOutcome): Promise<CaptureOutcome> => {
    if (pending.status !== 'pending') return pending;
    const notification = standIn.notifications.find((n) => n.notificationItems[0]!.NotificationRequestItem.pspReference === pending.processor_reference);
    const item = parseAdyenNotification(notification)?.[0];
    if (!item || !verifyAdyenItem(item, ADYEN_CONTRACT_HMAC_KEY))
      return { status: 'failed', failure_reason: 'notification_not_verified', processor_reference: null };
    const event = fromAdyenNotificationItem(item);
    return event.kind === 'capture_succeeded'
      ? { status: 'succeeded', processor_reference: event.capture_reference }
      : { status: 'failed', failure_reason: 'capture_failed', processor_reference: null };
  };

/** The Adyen plugin against its stand-in. */
export const contractCases: ProcessorContractCases = {
  async start() {
    const credentials = ADYEN_CONTRACT_CREDENTIALS;
    const standIn = await startAdyenStandIn({ apiKey: credentials.api_key, merchantAccount: credentials.merchant_account, hmacKey: ADYEN_CONTRACT_HMAC_KEY });
    const transport = adyenContractTransport();
    return {
      plugin: adyen,
      options: { credentials, base_url: standIn.baseUrl, mode: 'test' },
      invalidOptions: { credentials: { ...credentials, hmac_key: 'not hex' }, base_url: null, mode: 'test' },
      credentials,
      otherCredentials: { ...credentials, hmac_key: 'AB'.repeat(32) },
      invalidCredentials: { ...credentials, merchant_account: undefined },
      approved: { token_id: ADYEN_APPROVED_TOKEN, security_code_available: true, cardholder_name: 'Ada Lovelace', capture_mode: 'manual' },
      declined: { token_id: DECLINED_TOKEN, security_code_available: true },
      threeDs: {
        challenged: { token_id: ADYEN_CHALLENGE_TOKEN, security_code_available: true, cardholder_name: 'Ada Lovelace' },
        consumerReturns: answerIssuerChallenge,
      },
      context: { transport },
      sentUrls: () => transport.sent.map((sent) => sent.url),
      settle: settleByNotification(standIn),
      notification: () => ({ rawBody: Buffer.from(JSON.stringify(standIn.notifications.at(-1))), headers: {} }),
      stop: () => standIn.stop(),
    };
  },
};
