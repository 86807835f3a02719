// Lints both OpenAPI documents the gateway serves (/openapi.json and /admin/openapi.json) with Redocly's
// recommended rules (redocly.yaml) and fails on any error or warning. pnpm lint runs it; it needs no
// network: the documents are built from the source and written to a temporary folder first.
//
//   pnpm exec tsx scripts/lint-openapi.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@vaultline/contracts';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { source: { ref: string }; pointer: string }[];
}

const root = join(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'vaultline-openapi-'));
const documents = { 'openapi.json': buildOpenApiDocument({ audience: 'merchant' }), 'admin-openapi.json': buildOpenApiDocument({ audience: 'admin' }) };
let failed = false;
try {
  for (const [name, document] of Object.entries(documents)) {
    const file = join(folder, name);
    writeFileSync(file, JSON.stringify(document, null, 2));
    const output = lintOutput(file);
    const problems = (JSON.parse(output) as { problems: LintProblem[] }).problems;
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    for (const p of problems) console.log(`${name} ${p.location[0]?.pointer ?? ''} ${p.severity} ${p.ruleId}: ${p.message}`);
    console.log(`${name}: ${errors} errors, ${warnings} warnings (Redocly recommended)`);
    if (problems.length > 0) failed = true;
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function lintOutput(file: string): string {
  try {
    return execFileSync(
      join(root, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '10000'],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ).toString();
  } catch (error) {
    // redocly exits 1 when the document has errors; the JSON report on stdout says which.
    const stdout = (error as { stdout?: Buffer }).stdout;
    if (!stdout || stdout.length === 0) throw error;
    return stdout.toString();
  }
}
