import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '@vaultline/contracts';
import { goOperationsTest, goServices, goTypes, goVersion } from './go';
import { buildModel } from './model';
import { pythonResources, pythonTypes, pythonVersion } from './python';

// Generates the Python and Go SDKs' code from the merchant OpenAPI document (libs/contracts/src/openapi,
// what /openapi.json serves):
//
//   pnpm exec tsx sdks/generator/generate.ts          writes the files; commit what changed
//   pnpm exec tsx sdks/generator/generate.ts --check  exits 1 naming each file generation would change
//                                                     (the drift check; sdks/generator/generated-files.test.ts runs it)
//
// Go's files go through gofmt (Go is on every machine of the project's kind).
const sdksDir = join(__dirname, '..');

export function generatedFiles(): Record<string, string> {
  const model = buildModel(buildOpenApiDocument({ audience: 'merchant' }));
  const go = {
    'go/zz_generated_types.go': goTypes(model),
    'go/zz_generated_services.go': goServices(model),
    'go/zz_generated_operations_test.go': goOperationsTest(model),
    'go/zz_generated_version.go': goVersion(model),
  };
  return {
    'python/src/vaultline/types.py': pythonTypes(model),
    'python/src/vaultline/_resources.py': pythonResources(model),
    'python/src/vaultline/_version.py': pythonVersion(model),
    ...Object.fromEntries(Object.entries(go).map(([path, text]) => [path, gofmt(text, path)])),
  };
}

function gofmt(source: string, path: string): string {
  const result = spawnSync('gofmt', [], { input: source, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`gofmt could not run (is Go installed?): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`gofmt refused the generated ${path}:\n${result.stderr}`);
  return result.stdout;
}

function main(): void {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [path, text] of Object.entries(generatedFiles())) {
    const target = join(sdksDir, path);
    if (check) {
      if (readFileSync(target, { encoding: 'utf8', flag: 'a+' }) !== text) stale.push(`sdks/${path}`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    process.stdout.write(`wrote sdks/${path}\n`);
  }
  if (stale.length > 0) {
    process.stderr.write(
      `The SDKs' generated files differ from the OpenAPI document: ${stale.join(', ')}\nRun: pnpm exec tsx sdks/generator/generate.ts, then commit.\n`,
    );
    process.exitCode = 1;
  } else if (check) {
    process.stdout.write("The SDKs' generated files match the OpenAPI document.\n");
  }
}

if (require.main === module) main();
