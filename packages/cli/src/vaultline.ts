#!/usr/bin/env node
// The `vaultline` bin: Node's compile cache on (Node 22.1 and later; a no-op before), then the CLI
// bundle. The cache keeps the bundle's compiled code between runs, so a command after the first starts
// without compiling it again.
import * as nodeModule from 'node:module';
import { join } from 'node:path';

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// A path built at run time: the bundle stays a file of its own (it is built from src/main.ts).
nodeModule.createRequire(__filename)(join(__dirname, 'main.js'));
