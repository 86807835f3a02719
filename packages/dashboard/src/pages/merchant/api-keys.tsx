import { PageHeader } from '../../components/page';
import { Empty } from '../../components/states';
import { useApp } from '../../app-context';

export function ApiKeysPage() {
  const { session } = useApp();
  return (
    <>
      <PageHeader title="API keys" />
      <Empty>
        Keys of this merchant ({session.merchantId ?? 'signed in'}) are issued and revoked by an operator.
      </Empty>
    </>
  );
}
