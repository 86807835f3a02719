// The keys of the signed-in merchant: the API has no merchant route that lists or issues keys (an operator
// does, in the operator pages), so this page says which key the session acts with and how to get others.
import { useApp } from '../../app-context';
import { Facts, PageHeader } from '../../components/page';

export function ApiKeysPage() {
  const { session } = useApp();
  return (
    <>
      <PageHeader title="API keys" />
      <Facts
        facts={[
          ['Merchant', <code>{session.merchantId ?? '—'}</code>],
          ['This session acts with key', <code>{session.keyId ?? '—'}</code>],
          ['Its role', session.role === 'dashboard' ? 'dashboard (read-mostly: capture, cancel, refund, replay)' : 'merchant (the whole merchant API)'],
          ['Modes opened in this session', session.modes.join(', ')],
        ]}
      />
      <p class="hint">
        Secret keys (sk_test_…, sk_live_…) and read-mostly dashboard keys for support staff are issued and revoked by an operator. A key is shown once, when it is
        issued; only its id and prefix are kept.
      </p>
    </>
  );
}
