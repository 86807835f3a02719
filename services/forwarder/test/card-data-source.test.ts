import { randomUUID } from 'node:crypto';
import { AppError } from '@vaultline/core';
import { generateInternalKeyPair, InternalTokenSigner } from '@vaultline/auth';
import { InternalClient } from '@vaultline/http';
import type { CardDataSource } from '../src/domain/card-data';
import { TokenDeletedError, TokenNotFoundError } from '../src/domain/forward-errors';
import { createVaultCardDataSource } from '../src/clients/vault-card-data.client';
import { createInProcessCardDataSource } from '../src/clients/vault-card-data.in-process';
// A real vault, started exactly as the vault's own tests start it.
import { ADMIN, aCard, MERCHANT, OTHER_MERCHANT, startVault, type VaultHarness } from '../../vault/test/vault-harness';

/** Our request id for the call and the merchant client's X-Request-Id, as the forward use case passes them. */
const ids = (requestId: string) => ({ requestId, clientRequestId: `client-${requestId}` });

interface Adapter {
  cards: CardDataSource;
  close(): Promise<void>;
}

/**
 * One contract for the CardDataSource port, run against both adapters and a real vault: over the
 * vault's internal HTTP route (local and production profiles) and through its in-process API
 * (embedded profile). Both must reveal the same wrapped card data and refuse the same way.
 */
const adapters: Array<[string, (vault: VaultHarness, issuer: string) => Adapter]> = [
  [
    'over internal HTTP',
    (vault, issuer) => {
      const client = new InternalClient({ signer: vault.signerFor(issuer), audience: 'vault', baseUrl: vault.baseUrl });
      return { cards: createVaultCardDataSource(client), close: () => client.close() };
    },
  ],
  ['in-process', (vault, issuer) => ({ cards: createInProcessCardDataSource(vault.app.exposedApis.vault, vault.signerFor(issuer)), close: async () => {} })],
];

describe.each(adapters)('the vault card data source %s', (_name, adapterFor) => {
  let vault: VaultHarness;
  let forwarder: Adapter;
  beforeAll(async () => {
    vault = await startVault();
    forwarder = adapterFor(vault, 'forwarder');
  });
  afterAll(async () => {
    await forwarder?.close();
    await vault?.stop();
  });

  const tokenize = async (card = aCard()) => String((await vault.call(MERCHANT, 'POST', '/tokens', { card })).body.id);
  const auditOf = async (tokenId: string) => (await vault.call(ADMIN, 'GET', `/admin/detokenize-audit?token_id=${tokenId}`)).body.data ?? [];

  it("when the forwarder reveals a token of its merchant, then every card field arrives wrapped, and the vault audits the grant with caller forwarder, purpose forward, our request id and the client's apart", async () => {
    const id = await tokenize();

    const card = await forwarder.cards.reveal({ merchantId: MERCHANT.merchantId, mode: 'test' }, id, ids('req-cards-1'));

    expect([card.tokenId, card.number.reveal(), card.expMonth.reveal(), card.expYear.reveal(), card.securityCode?.reveal(), card.securityCodeStatus]).toEqual([
      id,
      '4242424242424242',
      12,
      2034,
      '123',
      'available',
    ]);
    expect(JSON.stringify(card)).not.toMatch(/4242424242424242|"123"|2034/);
    expect(await auditOf(id)).toEqual([
      expect.objectContaining({
        caller: 'forwarder',
        purpose: 'forward',
        outcome: 'granted',
        request_id: 'req-cards-1',
        client_request_id: 'client-req-cards-1',
        merchant_id: MERCHANT.merchantId,
      }),
    ]);
  });

  it('when the security code is older than 15 minutes, then the card data comes without it and says expired', async () => {
    const id = await tokenize();
    vault.clock.advance(15 * 60_000 + 1);

    const card = await forwarder.cards.reveal({ merchantId: MERCHANT.merchantId, mode: 'test' }, id, ids('req-cards-2'));

    expect([card.securityCode, card.securityCodeStatus]).toEqual([null, 'expired']);
  });

  it('when the token belongs to another merchant or does not exist, then TokenNotFoundError', async () => {
    const id = await tokenize();

    await expect(forwarder.cards.reveal({ merchantId: OTHER_MERCHANT.merchantId, mode: 'test' }, id, ids('req-cards-3'))).rejects.toBeInstanceOf(
      TokenNotFoundError,
    );
    await expect(forwarder.cards.reveal({ merchantId: MERCHANT.merchantId, mode: 'test' }, randomUUID(), ids('req-cards-3'))).rejects.toBeInstanceOf(
      TokenNotFoundError,
    );
  });

  it('when the token was deleted, then TokenDeletedError', async () => {
    const id = await tokenize();
    await vault.call(MERCHANT, 'DELETE', `/tokens/${id}`);

    await expect(forwarder.cards.reveal({ merchantId: MERCHANT.merchantId, mode: 'test' }, id, ids('req-cards-4'))).rejects.toBeInstanceOf(TokenDeletedError);
  });

  it('when a service other than the forwarder signs the call, then the vault refuses and audits it, and the forward would answer 503 vault_unavailable', async () => {
    const id = await tokenize();
    const impostor = adapterFor(vault, 'gateway');

    const refused = impostor.cards.reveal({ merchantId: MERCHANT.merchantId, mode: 'test' }, id, ids('req-cards-5'));

    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ status: 503, code: 'vault_unavailable' });
    expect(await auditOf(id)).toEqual([expect.objectContaining({ caller: 'gateway', outcome: 'insufficient_scope' })]);
    await impostor.close();
  });
});

describe('the in-process vault card data source, when the vault fails unexpectedly', () => {
  it('when the vault throws an error of its own (not a refusal), then the forward would answer 503 vault_unavailable, as it does when the vault answers 500 over HTTP, with the cause kept for the log', async () => {
    const failure = new Error('disk I/O error');
    const failingVault = { detokenize: () => Promise.reject(failure) };
    const cards = createInProcessCardDataSource(failingVault, new InternalTokenSigner('forwarder', generateInternalKeyPair().privateKeyPem));

    const revealed = cards.reveal({ merchantId: MERCHANT.merchantId, mode: 'test' }, randomUUID(), ids('req-cards-6'));

    await expect(revealed).rejects.toMatchObject({ status: 503, code: 'vault_unavailable', cause: failure });
  });
});
