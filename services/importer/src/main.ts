import { runStandalone } from '@vaultline/runtime';
import { createApp } from './app';
import { loadImporterConfig } from './config';

void runStandalone('importer', (runtime, env) => createApp(runtime, loadImporterConfig(env)));
