export { createApp } from './app';
export * from './config';
export { importProviders, type ImportProviderId } from './providers/registry';
export type { ImportJobView } from './http/import-job.view';
