import { newId, NotFoundError, type AppError } from '@vaultline/core';
import { eventMessage } from '@vaultline/bus';
import { tokenDetokenizedV1, type DetokenizedCardDto } from '@vaultline/contracts';
import { SYSTEM_SCOPE } from '@vaultline/store';
import type { DetokenizeOutcome } from '../audit/detokenize-audit';
import type { VaultDeps } from '../ports';
import { readSecurityCode, type SecurityCodeStatus } from './security-code';
import { cipherOf, NAME_FIELD, PAN_FIELD, TokenDeleted } from './token-view';
import type { Scheme } from '../card/card-scheme';

export interface DetokenizeCommand {
  merchantId: string;
  tokenId: string;
  caller: string;
  purpose: string;
  requestId: string;
}

/** What the forwarder receives (internal only; never routed by the gateway). */
export interface DetokenizedCard extends DetokenizedCardDto {
  scheme: Scheme;
}

/** Returns a token's card data; every call, granted or not, leaves an audit record. */
export async function detokenize(deps: VaultDeps, command: DetokenizeCommand): Promise<DetokenizedCard> {
  const record = await deps.tokens.get(command.merchantId, command.tokenId);
  if (!record) return refuse(deps, command, 'token_not_found', new NotFoundError('token'));
  if (record.status === 'deleted' || !record.pan_ciphertext) return refuse(deps, command, 'token_deleted', new TokenDeleted());

  const cipher = cipherOf(deps.keys, record);
  const code = await readSecurityCode(deps.ttl, deps.clock, cipher, record.id, record.security_code_stored_at);
  const auditId = newId();
  await deps.store.transaction((uow) => {
    deps.audit.insert(uow, auditDraft(deps, command, auditId, 'granted', code.status));
    uow.publish(
      eventMessage(tokenDetokenizedV1, {
        merchantId: command.merchantId,
        data: { token_id: record.id, caller: command.caller, purpose: command.purpose, audit_id: auditId },
      }),
    );
  });
  return {
    token_id: record.id,
    number: cipher.decrypt(PAN_FIELD, record.pan_ciphertext),
    exp_month: record.expiry_month,
    exp_year: record.expiry_year,
    cvc: code.code,
    cvc_status: code.status,
    cardholder_name: record.name_ciphertext ? cipher.decrypt(NAME_FIELD, record.name_ciphertext) : null,
    scheme: record.scheme,
  };
}

/** Records a refused attempt (wrong caller or scope) before the edge answers 403. */
export async function auditRefusedDetokenize(deps: VaultDeps, command: DetokenizeCommand): Promise<void> {
  await deps.store.transaction((uow) => deps.audit.insert(uow, auditDraft(deps, command, newId(), 'insufficient_scope', null)));
}

async function refuse(deps: VaultDeps, command: DetokenizeCommand, outcome: DetokenizeOutcome, error: AppError): Promise<never> {
  await deps.store.transaction((uow) => deps.audit.insert(uow, auditDraft(deps, command, newId(), outcome, null)));
  throw error;
}

function auditDraft(deps: VaultDeps, command: DetokenizeCommand, id: string, outcome: DetokenizeOutcome, codeStatus: SecurityCodeStatus | null) {
  return {
    id,
    merchant_id: SYSTEM_SCOPE,
    token_id: command.tokenId,
    token_merchant_id: command.merchantId,
    caller: command.caller,
    purpose: command.purpose,
    outcome,
    security_code_status: codeStatus,
    request_id: command.requestId,
    occurred_at: deps.clock.now().toISOString(),
  };
}
