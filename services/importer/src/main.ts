import { runStandalone } from '@vaultline/runtime';
import { createApp } from './app';
import { loadImporterConfig } from './config';
import { importCollections } from './data/import-job.repository';

void runStandalone('importer', (runtime, env) => createApp(runtime, loadImporterConfig(env)), process.env, async () => undefined, { collections: async () => importCollections });
