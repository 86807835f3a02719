// The flow matrix editor: the draft is JSON (the body of PUT /flow-matrix). As it is typed, the server
// explains a sample payment with the draft (POST /flow-matrix/explain with matrix): the answer is both the
// validation (the same errors a save would meet, naming the rule) and the preview. Saving is a PUT.
import { useEffect, useState } from 'preact/hooks';
import { VaultlineError } from '@vaultline/node';
import { useApp, useMayConfigure } from '../../app-context';
import { parseDraft } from '../../api/flow-matrix-draft';
import type { ExplainRequest, FlowMatrix } from '../../api/types';
import { PageHeader } from '../../components/page';
import { describeError, PageNotReady } from '../../components/states';
import { useAsync } from '../../components/use-async';
import { dateTime, toMinor } from '../../format';

type Check = { state: 'checking' } | { state: 'invalid'; message: string } | { state: 'valid'; flow: string; rule: string | null; version: number };

const PREVIEW_DELAY_MS = 300;
const USE_CASES = ['ONE_OFF', 'RECURRING', 'UNSCHEDULED', 'SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'] as const;

export function FlowMatrixPage() {
  const { clients } = useApp();
  const [state, reload] = useAsync(() => clients.merchant.get('/flow-matrix') as Promise<FlowMatrix>, []);
  if (state.status !== 'ready') return <PageNotReady title="Flow matrix" what="the flow matrix" state={state} retry={reload} />;
  return <Editor saved={state.value} />;
}

function Editor(props: { saved: FlowMatrix }) {
  const { clients } = useApp();
  const mayConfigure = useMayConfigure();
  // The version saved last: the one read, then the one each save answers (the editor stays as typed).
  const [saved, setSaved] = useState(props.saved);
  const [text, setText] = useState(() => JSON.stringify({ default_flow: saved.default_flow, rules: saved.rules }, null, 2));
  const [sample, setSample] = useState({
    use_case: 'ONE_OFF' as ExplainRequest['use_case'],
    amount: '50.00',
    currency_code: 'EUR',
    reference: 'order-1001',
    scheme: 'VISA',
  });
  const [check, setCheck] = useState<Check>({ state: 'checking' });
  const [saving, setSaving] = useState(false);
  const [saveResult, setSaveResult] = useState<string | null>(null);

  useEffect(() => {
    const draft = parseDraft(text);
    if (typeof draft === 'string') {
      setCheck({ state: 'invalid', message: draft });
      return undefined;
    }
    setCheck({ state: 'checking' });
    let current = true;
    const timer = setTimeout(() => {
      clients.merchant
        .post('/flow-matrix/explain', {
          body: {
            use_case: sample.use_case,
            amount: toMinor(sample.amount, sample.currency_code),
            currency_code: sample.currency_code,
            reference: sample.reference || null,
            ...(sample.scheme ? { scheme: sample.scheme } : {}),
            matrix: draft,
          },
        })
        .then(
          (decision) => current && setCheck({ state: 'valid', flow: decision.flow, rule: decision.rule, version: decision.matrix_version }),
          (error: unknown) =>
            current &&
            setCheck({
              state: 'invalid',
              message: error instanceof VaultlineError ? `${error.detail}${error.field ? ` (${error.field})` : ''}` : describeError(error),
            }),
        );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, JSON.stringify(sample)]);

  const save = async () => {
    const draft = parseDraft(text);
    if (typeof draft === 'string') return;
    setSaving(true);
    setSaveResult(null);
    try {
      const matrix = (await clients.merchant.put('/flow-matrix', { body: draft })) as FlowMatrix;
      setSaveResult(`Saved as version ${matrix.version}.`);
      setSaved(matrix);
    } catch (error) {
      setSaveResult(`Not saved: ${describeError(error)}`);
    } finally {
      setSaving(false);
    }
  };
  const setField = (name: keyof typeof sample) => (event: Event) => setSample({ ...sample, [name]: (event.target as HTMLInputElement).value });

  return (
    <>
      <PageHeader title="Flow matrix">
        {mayConfigure ? (
          <button type="button" class="button button-primary" disabled={saving || check.state !== 'valid'} onClick={() => void save()}>
            {saving ? 'Saving…' : 'Save the matrix'}
          </button>
        ) : (
          <span class="hint">A dashboard key previews changes; saving takes a secret key.</span>
        )}
      </PageHeader>
      <p>
        Version {saved.version}
        {saved.updated_at ? `, saved ${dateTime(saved.updated_at)}` : ' (never saved: the default)'}. Rules are tried in order; the first whose conditions all
        hold chooses the flow, else default_flow does. Conditions: use_case, currency_code, amount_gte, amount_lte, reference_prefix, scheme, metadata.
      </p>
      {saveResult && (
        <p class="notice" role="status">
          {saveResult}
        </p>
      )}
      <div class="split">
        <div class="field">
          <label for="matrix-text">The matrix (JSON)</label>
          <textarea
            id="matrix-text"
            class="code-editor"
            rows={20}
            spellcheck={false}
            value={text}
            aria-describedby="matrix-check"
            aria-invalid={check.state === 'invalid' ? true : undefined}
            onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
          />
          <p id="matrix-check" class={check.state === 'invalid' ? 'form-error' : 'hint'} aria-live="polite">
            {check.state === 'checking' && 'Checking…'}
            {check.state === 'invalid' && check.message}
            {check.state === 'valid' && 'Valid: this matrix can be saved.'}
          </p>
        </div>
        <section class="card" aria-labelledby="preview-title">
          <h2 id="preview-title">Preview with a sample payment</h2>
          <div class="field">
            <label for="sample-use-case">Use case</label>
            <select id="sample-use-case" value={sample.use_case} onChange={setField('use_case')}>
              {USE_CASES.map((useCase) => (
                <option key={useCase} value={useCase}>
                  {useCase}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="sample-amount">Amount</label>
            <input id="sample-amount" type="number" min="0.01" step="0.01" value={sample.amount} onInput={setField('amount')} />
          </div>
          <div class="field">
            <label for="sample-currency">Currency</label>
            <input id="sample-currency" value={sample.currency_code} maxLength={3} onInput={setField('currency_code')} />
          </div>
          <div class="field">
            <label for="sample-reference">Reference</label>
            <input id="sample-reference" value={sample.reference} onInput={setField('reference')} />
          </div>
          <div class="field">
            <label for="sample-scheme">Card scheme</label>
            <input id="sample-scheme" value={sample.scheme} onInput={setField('scheme')} />
          </div>
          <p class="decision" id="explain-result" aria-live="polite">
            {check.state === 'valid' ? (
              <>
                Flow <strong>{check.flow}</strong>,{' '}
                {check.rule ? (
                  <>
                    by rule <strong>{check.rule}</strong>
                  </>
                ) : (
                  'by the default'
                )}{' '}
                (as version {check.version})
              </>
            ) : check.state === 'checking' ? (
              'Explaining…'
            ) : (
              'Fix the matrix to see its decision.'
            )}
          </p>
        </section>
      </div>
    </>
  );
}
