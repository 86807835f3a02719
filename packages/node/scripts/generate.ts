import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedFiles } from './generated-files';

// Regenerates the OpenAPI documents and the types of the SDK from the API's document
// (libs/contracts/src/openapi):
//
//   pnpm --filter @vaultline/node generate          writes them; commit what changed
//   pnpm --filter @vaultline/node check-generated   exits 1 naming each file that generation would change
//                                                   (the drift check; test/generated-files.test.ts runs it)
//
// scripts/ is CommonJS, as the workspace libraries it imports are.
async function main(): Promise<void> {
  const packageDir = join(__dirname, '..');
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [path, text] of Object.entries(await generatedFiles())) {
    const target = join(packageDir, path);
    if (check) {
      if (readFileSync(target, { encoding: 'utf8', flag: 'a+' }) !== text) stale.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    process.stdout.write(`wrote ${path}\n`);
  }
  if (stale.length > 0) {
    process.stderr.write(
      `The SDK's generated files differ from the OpenAPI document: ${stale.join(', ')}\nRun: pnpm --filter @vaultline/node generate, then commit.\n`,
    );
    process.exitCode = 1;
  } else if (check) {
    process.stdout.write("The SDK's generated files match the OpenAPI document.\n");
  }
}

void main();
