/* eslint-disable no-console -- the shop's start tells the person who ran it where it is. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Vaultline } from '@vaultline/node';
import { createShopApp } from './app.js';
import { loadConfig } from './config.js';
import { OrderBook } from './orders.js';
import { ShopPayments } from './payments.js';

/** The composition root: configuration, the SDK client, the shop, and its webhook endpoint registered once it listens. */
async function main(): Promise<void> {
  const config = loadConfig();
  const vaultline = new Vaultline(config.apiKey, { baseUrl: config.vaultlineUrl, userAgent: 'example-shop/0.1.0' });
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  const shopUrl = config.shopUrl ?? `http://localhost:${(server.address() as AddressInfo).port}`;

  const payments = new ShopPayments(vaultline, shopUrl, config.webhookSecret);
  server.on('request', createShopApp({ orders: new OrderBook(), payments, vaultlineUrl: config.vaultlineUrl }));
  await payments.registerWebhookEndpoint();

  console.log(`Example shop (${vaultline.mode} mode) listening on ${shopUrl}`);
  console.log(
    config.webhookSecret
      ? `  payments through ${config.vaultlineUrl}; webhooks from vaultline listen at ${shopUrl}/webhooks/vaultline (no endpoint registered)`
      : `  payments and webhooks through ${config.vaultlineUrl}; webhook endpoint ${shopUrl}/webhooks/vaultline registered`,
  );
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
