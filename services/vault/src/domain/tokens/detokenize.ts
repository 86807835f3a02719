import { ForbiddenError, newId, NotFoundError, type AppError, type Clock, type Mode } from '@vaultline/core';
import { tokenDetokenizedV1, type DetokenizedCardDto, domainEvent } from '@vaultline/contracts';
import { SYSTEM_SCOPE } from '@vaultline/store';
import type { TtlStore } from '@vaultline/ttl';
import type { DetokenizeOutcome } from '../audit/detokenize-audit';
import type { VaultKeys } from '../keys/vault-keys';
import type { AuditRepository, TokenRepository, TransactionRunner } from '../ports';
import { readSecurityCode, type SecurityCodeStatus } from './security-code';
import { TokenDeleted } from './token';
import { cipherOf, NAME_FIELD, PAN_FIELD } from './token-cipher';
import type { Scheme } from '../card/card-scheme';

export interface DetokenizeCommand {
  merchantId: string;
  /**
   * The mode of the merchant request the caller acts for (a test payment cannot reach a live token);
   * null when its internal token carries none, which is refused.
   */
  mode: Mode | null;
  tokenId: string;
  caller: string;
  purpose: string;
  /** The caller's own request id (the forwarder's, per forward). */
  requestId: string;
  /** The merchant client's X-Request-Id, when the caller passed on a well-formed one. */
  clientRequestId: string | null;
}

/** What the forwarder receives (internal only; never routed by the gateway). */
export interface DetokenizedCard extends DetokenizedCardDto {
  scheme: Scheme;
}

interface AuditPorts {
  audit: Pick<AuditRepository, 'insert'>;
  transaction: TransactionRunner;
  clock: Clock;
}

export interface DetokenizePorts extends AuditPorts {
  tokens: Pick<TokenRepository, 'get'>;
  keys: VaultKeys;
  ttl: TtlStore;
}
export type Detokenize = (command: DetokenizeCommand) => Promise<DetokenizedCard>;

/** Returns a token's card data; every call, granted or not, leaves an audit record. */
export function detokenize(ports: DetokenizePorts): Detokenize {
  const { tokens, audit, transaction, keys, ttl, clock } = ports;
  return async (command) => {
    if (command.mode === null)
      return refuse(
        ports,
        command,
        'insufficient_scope',
        new ForbiddenError('Detokenization acts for a merchant key: the internal token must carry its mode.', 'mode_required'),
      );
    const scope = { merchantId: command.merchantId, mode: command.mode };
    const record = await tokens.get(scope, command.tokenId);
    if (!record) return refuse(ports, command, 'token_not_found', new NotFoundError('token'));
    if (record.status === 'deleted' || !record.pan_ciphertext) return refuse(ports, command, 'token_deleted', new TokenDeleted());

    const cipher = cipherOf(keys, record);
    const code = await readSecurityCode(ttl, clock, cipher, record.id, record.security_code_stored_at);
    const auditId = newId();
    await transaction((uow) => {
      audit.insert(uow, auditDraft(clock, command, auditId, 'granted', code.status));
      uow.publish(
        domainEvent(tokenDetokenizedV1, {
          scope,
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
  };
}

export type AuditRefusedDetokenize = (command: DetokenizeCommand) => Promise<void>;

/** Records a refused attempt (wrong caller or scope) before the edge answers 403. */
export function auditRefusedDetokenize({ audit, transaction, clock }: AuditPorts): AuditRefusedDetokenize {
  return async (command) => {
    await transaction((uow) => audit.insert(uow, auditDraft(clock, command, newId(), 'insufficient_scope', null)));
  };
}

async function refuse({ audit, transaction, clock }: AuditPorts, command: DetokenizeCommand, outcome: DetokenizeOutcome, error: AppError): Promise<never> {
  await transaction((uow) => audit.insert(uow, auditDraft(clock, command, newId(), outcome, null)));
  throw error;
}

function auditDraft(clock: Clock, command: DetokenizeCommand, id: string, outcome: DetokenizeOutcome, codeStatus: SecurityCodeStatus | null) {
  return {
    id,
    merchant_id: SYSTEM_SCOPE,
    token_id: command.tokenId,
    token_merchant_id: command.merchantId,
    ...(command.mode ? { token_mode: command.mode } : {}),
    caller: command.caller,
    purpose: command.purpose,
    outcome,
    security_code_status: codeStatus,
    request_id: command.requestId,
    client_request_id: command.clientRequestId,
    occurred_at: clock.now().toISOString(),
  };
}
