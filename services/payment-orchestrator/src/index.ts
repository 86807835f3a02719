export { createApp, type PaymentOrchestratorApp } from './app';
export * from './config';
