import { scopeOfDocument, type Clock, type Scope } from '@vaultline/core';
import { createHash } from 'node:crypto';
import {
  ForwardingNotEnabledError,
  ImportCredentialError,
  ImportInterruptedError,
  ProviderAuthenticationError,
  ProviderRequestError,
  ProviderUnreachableError,
  pauseImport,
} from './import-errors';
import { judgeImportAnswer } from './import-endpoint-answer';
import { JOB_FAILURE_REASONS, holdsLease, isEnded, leaseIsFree, type ImportJob } from './import-job/import-job';
import type { AccountForOutcome, CompleteIfAccountedFor, FailImport, RevokeImportKey } from './import-lifecycle';
import type { ImportJobWriter } from './import-job/import-job-writer';
import type { ImportSource } from './import-provider';
import type { ImportCredentialIssuer, ImportJobRepository, ImporterLog, SecretSealer } from './ports';
import { Semaphore } from './semaphore';

export interface RunImportSettings {
  /** {PUBLIC_BASE_URL}/cde-import: where the platform sends each card. */
  cdeImportUrl: string;
  /** The card fields the platform fills (for what to ask the platform for when forwarding is refused). */
  replacements: readonly string[];
  /** This process's lease owner name; a restarted process with the same name resumes at once. */
  workerId: string;
  /** Forwarding requests in flight at once. */
  concurrency: number;
  /** Payment methods done between two persisted checkpoints. */
  checkpointEvery: number;
  leaseMs: number;
  /** Lifetime of the job-scoped import key (it is revoked earlier, when the job ends). */
  importKeyTtlMs: number;
  /** Forwards of one card when /cde-import answers 409/429/5xx (each later one carries no security code). */
  endpointAttempts: number;
  /**
   * After /cde-import answered 5xx, how long to wait for the card's token.created before forwarding it
   * again: the vault may have stored it although the answer said otherwise, and a second forward would
   * replace its card data without the security code the first one carried.
   */
  reforwardGraceMs: number;
  retryBaseDelayMs: number;
  /** After the listing ends, how long to wait for the last token.created events before giving up on them. */
  settleTimeoutMs: number;
  settlePollMs: number;
}

export interface RunImportPorts {
  jobs: Pick<ImportJobRepository, 'get' | 'accountedKeys'>;
  writer: ImportJobWriter;
  issuer: ImportCredentialIssuer;
  sealer: SecretSealer;
  clock: Clock;
  log: ImporterLog;
  /** Opens the job's platform account with its decrypted credentials (providers/registry.ts). */
  openSource(provider: string, credentials: unknown): ImportSource;
  accountForOutcome: AccountForOutcome;
  completeIfAccountedFor: CompleteIfAccountedFor;
  failImport: FailImport;
  revokeImportKey: RevokeImportKey;
  settings: RunImportSettings;
}

export const credentialsContext = (jobId: string): string => `import:${jobId}:credentials`;

/**
 * The platform Idempotency-Key of a card's n-th forward in a job: the same after a retry or a resume
 * (the platform answers from its saved result, the card is not sent again), another for a deliberate
 * second forward. At most 255 characters, as the platform requires.
 */
export function forwardIdempotencyKey(jobId: string, paymentMethodId: string, attempt: number): string {
  const key = `import_${jobId}_${paymentMethodId}${attempt > 1 ? `_${attempt}` : ''}`;
  return key.length <= 255 ? key : `import_${jobId}_${createHash('sha256').update(`${paymentMethodId}_${attempt}`).digest('hex')}`;
}

/**
 * What the merchant must ask the platform for when it refuses to forward to /cde-import. `param` is
 * the parameter the platform named (never its message, which the platform words).
 */
export function forwardingNotEnabledDetail(cdeImportUrl: string, replacements: readonly string[], param: string | null): string {
  return (
    `The platform refused to forward cards to ${cdeImportUrl}${param ? ` (it named ${param})` : ''}. ` +
    `Ask the platform to enable its Vault and Forward function for this account with the destination ${cdeImportUrl} ` +
    `and the replacements ${replacements.join(', ')}, then start the import again.`
  );
}
export const importKeyContext = (jobId: string): string => `import:${jobId}:import-key`;

class ImportCredentialRejectedError extends Error {}
class CredentialsUnreadableError extends Error {}

export type RunImport = (scope: Scope, jobId: string, signal: AbortSignal) => Promise<void>;

/**
 * Runs one import job from wherever it stands: preparing (mint the job-scoped key), running
 * (stream the platform's payment methods from the checkpoint and have each forwarded to
 * /cde-import, at most `concurrency` at once), then settling (wait until token.created events
 * account for every payment method). Safe to call again after a crash: checkpoints, the
 * per-job uniqueness of business keys and the vault's business_key upsert make a repeated
 * forward harmless.
 */
export function runImport(ports: RunImportPorts): RunImport {
  const { jobs, writer, issuer, sealer, clock, log, openSource, settings } = ports;
  const { accountForOutcome, completeIfAccountedFor, failImport, revokeImportKey } = ports;
  const forwardingDetail = (param: string | null) => forwardingNotEnabledDetail(settings.cdeImportUrl, settings.replacements, param);

  async function run(scope: Scope, jobId: string, signal: AbortSignal): Promise<void> {
    let job = await claim(scope, jobId);
    if (!job) return;
    const heartbeat = setInterval(() => void renewLease(scope, jobId).catch(() => undefined), Math.max(50, settings.leaseMs / 3));
    heartbeat.unref();
    try {
      if (job.state === 'preparing') job = await prepare(job, signal);
      if (job.state === 'running' && !job.checkpoint.listing_complete) job = await enumerate(job, signal);
      if (job.state === 'running') await settle(job, signal);
    } catch (error) {
      await handleFailure(scope, jobId, error, signal);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function handleFailure(scope: Scope, jobId: string, error: unknown, signal: AbortSignal): Promise<void> {
    const reason = jobFailureReasonOf(error);
    if (reason) {
      await failImport(scope, jobId, reason, error instanceof ForwardingNotEnabledError ? error.message : null);
      return;
    }
    if (error instanceof ImportInterruptedError || signal.aborted) {
      await releaseLease(scope, jobId);
      return;
    }
    // Anything else (store unavailable…) leaves the job as it is; the scheduler's next scan retries it.
    log.error({ import_id: jobId, err: error }, 'import run stopped by an unexpected error; it will be retried');
  }

  async function claim(scope: Scope, jobId: string): Promise<ImportJob | null> {
    const { workerId, leaseMs } = settings;
    let claimed = false;
    const job = await writer.change(scope, jobId, (current) => {
      claimed = false;
      const now = clock.now();
      if (isEnded(current) || !leaseIsFree(current, workerId, now)) return null;
      claimed = true;
      return { job: { ...current, lease_owner: workerId, lease_expires_at: new Date(now.getTime() + leaseMs).toISOString() } };
    });
    return claimed ? job : null;
  }

  async function renewLease(scope: Scope, jobId: string): Promise<ImportJob | null> {
    const { workerId, leaseMs } = settings;
    return writer.change(scope, jobId, (current) => {
      const now = clock.now();
      if (isEnded(current) || !holdsLease(current, workerId, now)) return null;
      return { job: { ...current, lease_expires_at: new Date(now.getTime() + leaseMs).toISOString() } };
    });
  }

  async function releaseLease(scope: Scope, jobId: string): Promise<void> {
    await writer.change(scope, jobId, (current) =>
      current.lease_owner === settings.workerId ? { job: { ...current, lease_owner: null, lease_expires_at: null } } : null,
    );
  }

  /** preparing → running: mints the job-scoped key /cde-import accepts and seals it with the job. */
  async function prepare(job: ImportJob, signal: AbortSignal): Promise<ImportJob> {
    let minted: { id: string; apiKey: string } | undefined;
    for (let attempt = 1; !minted; attempt++) {
      try {
        minted = await issuer.mint(scopeOfDocument(job), job.id, new Date(clock.now().getTime() + settings.importKeyTtlMs));
      } catch (error) {
        if (attempt >= settings.endpointAttempts) throw new ImportCredentialError(error instanceof Error ? error.message : 'mint failed');
        await pauseImport(settings.retryBaseDelayMs * 2 ** (attempt - 1), signal);
      }
    }
    const sealedKey = sealer.seal(minted.apiKey, importKeyContext(job.id));
    let started = false;
    const updated = await writer.change(scopeOfDocument(job), job.id, (current) => {
      started = false;
      if (current.state !== 'preparing') return null;
      started = true;
      return {
        job: { ...current, state: 'running', started_at: clock.now().toISOString(), sealed_import_key: sealedKey, import_key_id: minted.id },
        event: 'started',
      };
    });
    if (!updated || !started) {
      // Someone else moved the job on meanwhile: this key is not needed.
      await issuer.revoke(scopeOfDocument(job), minted.id).catch(() => undefined);
      if (!updated) throw new ImportInterruptedError();
      return updated;
    }
    log.info({ import_id: job.id, merchant_id: job.merchant_id, mode: job.mode, provider: job.provider }, 'import started');
    return updated;
  }

  /** Streams the payment methods after the checkpoint and has each one forwarded; checkpoints a low-water mark. */
  async function enumerate(job: ImportJob, signal: AbortSignal): Promise<ImportJob> {
    const { source, importKey } = open(job);
    const slots = new Semaphore(settings.concurrency);
    const inFlight = new Set<Promise<void>>();
    const positions = new Map<number, Record<string, unknown>>();
    const done = new Set<number>();
    let next = job.checkpoint.enumerated;
    let watermark = next - 1;
    let position = job.checkpoint.position;
    let sinceCheckpoint = 0;
    let fatal: unknown = null;
    let current = job;

    const complete = (n: number) => {
      done.add(n);
      while (done.has(watermark + 1)) {
        watermark += 1;
        done.delete(watermark);
        position = positions.get(watermark) ?? position;
        positions.delete(watermark);
        sinceCheckpoint += 1;
      }
    };

    try {
      for await (const method of source.paymentMethods(job.checkpoint.position, signal)) {
        await slots.acquire();
        if (fatal !== null || signal.aborted) {
          slots.release();
          break;
        }
        const n = next++;
        positions.set(n, method.position);
        const work = importOne(job, method.id, importKey, source, signal)
          .then(() => complete(n))
          .catch((error: unknown) => {
            fatal ??= error;
          })
          .finally(() => {
            slots.release();
            inFlight.delete(work);
          });
        inFlight.add(work);
        if (sinceCheckpoint >= settings.checkpointEvery) {
          sinceCheckpoint = 0;
          current = await checkpoint(job, position, watermark + 1, false);
        }
      }
    } finally {
      await Promise.allSettled([...inFlight]);
    }
    if (fatal !== null) {
      await checkpoint(job, position, watermark + 1, false).catch(() => undefined);
      throw fatal;
    }
    if (signal.aborted) {
      await checkpoint(job, position, watermark + 1, false);
      throw new ImportInterruptedError();
    }
    current = await checkpoint(job, position, next, true);
    return current;
  }

  function open(job: ImportJob): { source: ImportSource; importKey: string } {
    if (!job.sealed_credentials || !job.sealed_import_key) throw new CredentialsUnreadableError();
    let credentials: unknown;
    let importKey: string;
    try {
      credentials = JSON.parse(sealer.open(job.sealed_credentials, credentialsContext(job.id)));
      importKey = sealer.open(job.sealed_import_key, importKeyContext(job.id));
    } catch {
      throw new CredentialsUnreadableError();
    }
    return { source: openSource(job.provider, credentials), importKey };
  }

  async function checkpoint(job: ImportJob, position: Record<string, unknown> | null, enumerated: number, listingComplete: boolean): Promise<ImportJob> {
    const { workerId, leaseMs } = settings;
    let kept = false;
    const updated = await writer.change(scopeOfDocument(job), job.id, (current) => {
      kept = false;
      const now = clock.now();
      if (current.state !== 'running' || current.lease_owner !== workerId) return null;
      kept = true;
      return {
        job: {
          ...current,
          checkpoint: { position, enumerated, listing_complete: listingComplete },
          counts: { ...current.counts, total: enumerated },
          lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
        },
      };
    });
    // The job ended meanwhile (failed elsewhere) or another worker took it over: stop here.
    if (!updated || !kept) throw new ImportInterruptedError();
    return updated;
  }

  /** One payment method: the platform sends its card to /cde-import; a refusal is counted here. */
  async function importOne(job: ImportJob, paymentMethodId: string, importKey: string, source: ImportSource, signal: AbortSignal): Promise<void> {
    const body = JSON.stringify({
      metadata: { business_key: paymentMethodId, correlation_id: job.id },
      card: { number: '', exp_month: '', exp_year: '', cvc: '', name: '' },
    });
    for (let attempt = 1; ; attempt++) {
      let verdict;
      try {
        const idempotencyKey = forwardIdempotencyKey(job.id, paymentMethodId, attempt);
        verdict = judgeImportAnswer(await source.forward({ paymentMethodId, url: settings.cdeImportUrl, apiKey: importKey, body, idempotencyKey }, signal));
      } catch (error) {
        if (!(error instanceof ProviderRequestError)) throw error;
        const reason = forwardRefusalOf(error);
        if (reason === JOB_FAILURE_REASONS.forwardingNotEnabled) throw new ForwardingNotEnabledError(forwardingDetail(error.param));
        await accountForOutcome(scopeOfDocument(job), job.id, paymentMethodId, 'failed', reason);
        return;
      }
      switch (verdict.kind) {
        case 'accepted':
          return; // token.created counts it
        case 'rejected':
          await accountForOutcome(scopeOfDocument(job), job.id, paymentMethodId, 'failed', verdict.reason);
          return;
        case 'credential_rejected':
          throw new ImportCredentialRejectedError();
        case 'retry':
          if (attempt >= settings.endpointAttempts) {
            await accountForOutcome(scopeOfDocument(job), job.id, paymentMethodId, 'failed', 'import_endpoint_unavailable');
            return;
          }
          await pauseImport(settings.retryBaseDelayMs * 2 ** (attempt - 1), signal);
          if (verdict.uncertain && (await storedMeanwhile(job, paymentMethodId, signal))) return;
      }
    }
  }

  /** Whether token.created has accounted for the card within reforwardGraceMs (a 5xx whose card was stored after all). */
  async function storedMeanwhile(job: ImportJob, paymentMethodId: string, signal: AbortSignal): Promise<boolean> {
    const deadline = clock.now().getTime() + settings.reforwardGraceMs;
    for (;;) {
      if ((await jobs.accountedKeys(scopeOfDocument(job), job.id, [paymentMethodId])).has(paymentMethodId)) return true;
      if (clock.now().getTime() >= deadline) return false;
      await pauseImport(Math.min(settings.settlePollMs, settings.reforwardGraceMs), signal);
    }
  }

  /**
   * Waits for the last token.created events. Normally the consumer finishes the job; if some never
   * arrive within settleTimeoutMs of this run starting to wait, they are
   * counted as failed 'not_confirmed' so that the job still ends.
   */
  async function settle(job: ImportJob, signal: AbortSignal): Promise<void> {
    let current: ImportJob | null = await completeIfAccountedFor(scopeOfDocument(job), job.id);
    const deadline = clock.now().getTime() + settings.settleTimeoutMs;
    while (current && current.state === 'running') {
      if (clock.now().getTime() >= deadline) {
        current = await giveUpOnUnconfirmed(current);
        break;
      }
      await pauseImport(settings.settlePollMs, signal);
      current = await jobs.get(scopeOfDocument(job), job.id);
      if (current && current.state === 'running') current = await completeIfAccountedFor(scopeOfDocument(job), job.id);
    }
    if (current && isEnded(current)) await revokeImportKey(current);
  }

  async function giveUpOnUnconfirmed(job: ImportJob): Promise<ImportJob | null> {
    const missing = job.counts.total - (job.counts.imported + job.counts.updated + job.counts.failed);
    log.warn({ import_id: job.id, missing }, 'import ends with payment methods whose token.created never arrived');
    await writer.change(scopeOfDocument(job), job.id, (current) => {
      if (current.state !== 'running') return null;
      const gap = current.counts.total - (current.counts.imported + current.counts.updated + current.counts.failed);
      if (gap <= 0) return null;
      return {
        job: {
          ...current,
          counts: { ...current.counts, failed: current.counts.failed + gap },
          failure_reasons: { ...current.failure_reasons, not_confirmed: (current.failure_reasons.not_confirmed ?? 0) + gap },
        },
      };
    });
    return completeIfAccountedFor(scopeOfDocument(job), job.id);
  }

  return run;
}

/**
 * Why the platform refused one forward. The forwarding request of every card names the same url,
 * replacements and request; only the payment method differs. So a refusal naming the payment method
 * is that card's; one naming the url, the replacements or the request, or the endpoint itself (403,
 * 404 without resource_missing), is the account's: forwarding to /cde-import is not enabled.
 */
function forwardRefusalOf(error: ProviderRequestError): string {
  if (error.providerCode === 'resource_missing' || error.param === 'payment_method') return 'payment_method_unavailable';
  if (error.errorType === 'idempotency_error') return 'provider_refused_forwarding';
  if (error.httpStatus === 403 || error.httpStatus === 404 || (error.param !== null && /^(url|replacements|request)\b/.test(error.param))) {
    return JOB_FAILURE_REASONS.forwardingNotEnabled;
  }
  return 'provider_refused_forwarding';
}

function jobFailureReasonOf(error: unknown): string | null {
  if (error instanceof ForwardingNotEnabledError) return JOB_FAILURE_REASONS.forwardingNotEnabled;
  if (error instanceof ProviderAuthenticationError) return JOB_FAILURE_REASONS.providerAuthenticationFailed;
  if (error instanceof ProviderUnreachableError) return JOB_FAILURE_REASONS.providerUnreachable;
  if (error instanceof ImportCredentialError) return JOB_FAILURE_REASONS.importCredentialUnavailable;
  if (error instanceof ImportCredentialRejectedError) return JOB_FAILURE_REASONS.importCredentialRejected;
  if (error instanceof CredentialsUnreadableError) return JOB_FAILURE_REASONS.credentialsUnreadable;
  return null;
}
