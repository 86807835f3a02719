import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssignerProtocol, Kafka, logLevel, type Admin } from 'kafkajs';
import { Webhook } from 'standardwebhooks';
import { waitFor } from '@vaultline/core';
import { startKafkaProfile, type KafkaProfileSystem } from '@vaultline/launcher';
import { describeWithKafka, kafkaTestPrefix } from '@vaultline/testing';
import { CONSUMER_GROUPS, topicsOf } from '../deploy/kafka/kafka-topology';
import { provisionTopics } from '../deploy/kafka/provision';
import { ADMIN_API_KEY, MERCHANT_API_KEY, MerchantApi } from './support/merchant-api';
import { registerWebhookEndpoint } from './support/import-scenario';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { PAYMENT_ENV } from './support/payment-scenario';

/**
 * `pnpm start:kafka` as a platform team runs it, on the broker of KAFKA_BROKERS: the topics provisioned from
 * deploy/kafka/topics.yaml, the services allowed to create none (KAFKA_CREATE_TOPICS=false), every name under
 * the run's prefix. Payments through this profile: payments.test.ts (its Kafka profile); faults:
 * kafka-faults.test.ts.
 */
describeWithKafka('the Kafka profile (pnpm start:kafka) on provisioned topics', 'Kafka profile e2e', (brokers) => {
  const prefix = kafkaTestPrefix('profile');
  let dataDir: string;
  let system: KafkaProfileSystem | undefined;
  let receiver: WebhookReceiver;
  let admin: Admin;
  let merchant: MerchantApi;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vaultline-kafka-profile-'));
    admin = new Kafka({ clientId: 'e2e-admin', brokers: brokers().split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const { created } = await provisionTopics({ brokers: brokers().split(','), prefix, fit: true });
    expect(created.length).toBeGreaterThan(0);
    receiver = await startWebhookReceiver();
    system = await startKafkaProfile({
      dataDir,
      port: 0,
      stdio: 'files',
      brokers: brokers(),
      env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, ADMIN_API_KEY, LOG_LEVEL: 'warn', KAFKA_TOPIC_PREFIX: prefix, KAFKA_CREATE_TOPICS: 'false', ...PAYMENT_ENV },
    });
    merchant = new MerchantApi(system.baseUrl, MERCHANT_API_KEY);
  }, 180_000);
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
    await admin?.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}-keys`, { recursive: true, force: true });
  });

  it('when tokens are created through the gateway, then each token.created reaches the merchant event log and the merchant’s endpoint once, signed', async () => {
    const { secret } = await registerWebhookEndpoint(merchant, receiver.url, ['token.created']);
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++)
      tokens.push((await merchant.createToken({ number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' }, `kafka-${i}`)).id);

    await waitFor(async () => (await merchant.events<{ token_id: string }>('token.created')).length >= tokens.length, 60_000, 200);
    await waitFor(() => receiver.received.length >= tokens.length, 60_000, 100);

    expect((await merchant.events<{ token_id: string }>('token.created')).map((event) => event.data.token_id).sort()).toEqual([...tokens].sort());
    const delivered = receiver.received.map((webhook) => new Webhook(secret).verify(webhook.body, signatureHeaders(webhook)) as { data: { token_id: string } });
    expect(delivered.map((payload) => payload.data.token_id).sort()).toEqual([...tokens].sort());
    expect(new Set(receiver.received.map((webhook) => webhook.headers['webhook-id'])).size).toBe(tokens.length);
  });

  it('when the services consume, then the broker has one group per consumer of deploy/kafka/kafka-topology.ts, under the prefix, each member subscribed to exactly the group’s topics and named after its service', async () => {
    const groupIds = CONSUMER_GROUPS.map((group) => `${prefix}${group.group}`);
    const { groups } = await admin.describeGroups(groupIds);

    for (const group of CONSUMER_GROUPS) {
      const described = groups.find((entry) => entry.groupId === `${prefix}${group.group}`);
      const members = (described?.members ?? []).map((member) => ({
        clientId: member.clientId,
        topics: [...(AssignerProtocol.MemberMetadata.decode(member.memberMetadata)?.topics ?? [])].sort(),
      }));
      expect({ group: group.group, state: described?.state, members }).toEqual({
        group: group.group,
        state: 'Stable',
        members: [{ clientId: group.service, topics: topicsOf(group).map((topic) => `${prefix}${topic}`) }],
      });
    }
  });

  it('when the notifier’s /metrics is scraped, then it shows its group’s lag on every topic it reads, measured from the broker (a scrape during an outage: kafka-outage.test.ts)', async () => {
    const scrape = async () => (await fetch(system!.metricsUrls.notifier)).text();
    await scrape(); // the first scrape starts the first measurement
    let last = await scrape();
    await waitFor(
      async () => (last = await scrape()).includes('vaultline_bus_consumer_lag{service="notifier",group="notifier.merchant-events",topic="vault.tokens"}'),
      60_000,
      500,
    );

    expect(last).toMatch(/vaultline_bus_consumer_lag\{service="notifier",group="notifier\.merchant-events",topic="payments\.payments"\} \d+/);
  });

  it('when a topic is missing and the services may not create topics, then a service refuses to start and names the missing topics', async () => {
    const unprovisioned = kafkaTestPrefix('unprovisioned');
    const otherDir = mkdtempSync(join(tmpdir(), 'vaultline-kafka-missing-'));
    try {
      const start = startKafkaProfile({
        dataDir: otherDir,
        port: 0,
        stdio: 'files',
        brokers: brokers(),
        env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, ADMIN_API_KEY, LOG_LEVEL: 'warn', KAFKA_TOPIC_PREFIX: unprovisioned, KAFKA_CREATE_TOPICS: 'false' },
      });

      await expect(start).rejects.toThrow(new RegExp(`exited with code 1 during start[\\s\\S]*Kafka topics missing: ${unprovisioned.replace(/\./g, '\\.')}`));
      expect((await admin.listTopics()).filter((topic) => topic.startsWith(unprovisioned))).toEqual([]);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
      rmSync(`${otherDir}-keys`, { recursive: true, force: true });
    }
  }, 120_000);
});
