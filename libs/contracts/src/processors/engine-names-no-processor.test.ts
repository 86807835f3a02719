import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { PROCESSOR_MANIFESTS } from './processor-destinations';

const ROOT = join(__dirname, '../../../..');
const PROCESSORS = 'services/payment-orchestrator/src/processors';

/**
 * A processor is one folder: nothing outside it names the processor. The built-in simulator is the
 * engine's own test processor (its default flows, the live-mode refusal
 * `simulator_not_allowed_in_live_mode`, the test-mode dispute), so it is the one id code may name.
 */
const NAMED = PROCESSOR_MANIFESTS.filter((manifest) => manifest.id !== 'simulator').map((manifest) => ({
  id: manifest.id,
  displayName: manifest.display_name,
}));

/** Where code lives: every service, library, package and example, the launcher, the bench and the scripts. */
const SCANNED = ['services', 'libs', 'packages', 'examples', 'deploy/launcher', 'bench', 'scripts'];

/**
 * What may name a processor, and why:
 * - the processors' own folders (their plugin, manifest, stand-in, contract cases, README) and the
 *   registry, which holds one line per processor;
 * - tests (`*.test.ts`, `test/` folders, test-e2e/ is not scanned) and `dev/` folders: they run stand-ins
 *   of third parties, the processors' among them;
 * - documentation: the OpenAPI document's prose (`description` and `summary` texts) and any text marked
 *   `prose(…)` (libs/contracts prose.ts: an event's or an error's explanation), and the gateway's
 *   documentation pages (services/gateway/src/http/docs/), like the READMEs and docs/, which are not code
 *   (their test cards come from the manifests all the same);
 * - generated files: the SDK's types are generated from the OpenAPI document.
 */
const EXEMPT_FILES = [
  /\.test\.tsx?$/,
  /(^|\/)(test|dev|generated)\//,
  /^services\/gateway\/src\/http\/docs\//,
  /^services\/payment-orchestrator\/src\/processors\/registry\.ts$/,
];

/**
 * An id that is also a word of the product: `checkout` is the hosted checkout page too, which the vault
 * serves (its sessions, routes and settings, the token source `checkout`), its events describe and the
 * CLI links to. There the id itself may be written; the processor's display name may not.
 */
const HOMONYMS: Record<string, RegExp> = { checkout: /^(services\/vault\/|packages\/cli\/|libs\/contracts\/src\/events\/)/ };
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-output']);
const PROSE_KEYS = new Set(['description', 'summary']);

const isProcessorFolder = (path: string): boolean => NAMED.some(({ id }) => path === `${PROCESSORS}/${id}`);

function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || isProcessorFolder(path) ? [] : codeFiles(path);
    return SOURCE.test(entry.name) && !EXEMPT_FILES.some((pattern) => pattern.test(path)) ? [path] : [];
  });
}

/** Whether a text node is prose: the value (or a piece of a `+` chain that is the value) of a description or summary, or of prose(…). */
function isProse(node: ts.Node): boolean {
  let current = node;
  while (
    ts.isBinaryExpression(current.parent) ||
    ts.isParenthesizedExpression(current.parent) ||
    ts.isTemplateSpan(current.parent) ||
    ts.isTemplateExpression(current.parent)
  )
    current = current.parent;
  const { parent } = current;
  if (ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'prose') return true;
  return ts.isPropertyAssignment(parent) && parent.initializer === current && PROSE_KEYS.has(parent.name.getText().replace(/['"]/g, ''));
}

/** Where the code (comments left out) names a processor: its id as a string or an identifier, its name in a string or page text, its folder in an import. */
function processorNamesIn(code: string, processors: ReadonlyArray<{ id: string; displayName: string }>, fileName = 'engine.ts'): string[] {
  const found: string[] = [];
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const visit = (node: ts.Node): void => {
    const isText =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node);
    for (const { id, displayName } of processors) {
      const idMayBeWritten = HOMONYMS[id]?.test(fileName) ?? false;
      if (!idMayBeWritten && ts.isIdentifier(node) && node.text.toLowerCase() === id) found.push(node.text);
      if (
        isText &&
        !isProse(node) &&
        ((!idMayBeWritten && node.text === id) ||
          new RegExp(`(^|/)processors/${id}(/|$)`).test(node.text) ||
          new RegExp(`\\b${displayName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(node.text))
      )
        found.push(node.text.trim());
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, kind));
  return found;
}

describe('a processor is named only in its folder', () => {
  it('when code names a processor (a string, an identifier, page text, an import of its folder), then the check finds it; comments and OpenAPI prose may mention one', () => {
    const processors = [{ id: 'acme', displayName: 'Acme Pay' }];
    expect(processorNamesIn("if (account.processor === 'acme') {}", processors)).toEqual(['acme']);
    expect(processorNamesIn("import { acme } from '../processors/acme';", processors)).toEqual(['acme', '../processors/acme']);
    expect(processorNamesIn('throw new Error(`Acme Pay refused ${x}`);', processors)).toEqual(['Acme Pay refused']);
    expect(processorNamesIn('// Acme Pay answers 202 here\nconst acmePayments = 1;', processors)).toEqual([]);
    expect(processorNamesIn('const page = () => <p>Pay with Acme Pay</p>;', processors, 'page.tsx')).toEqual(['Pay with Acme Pay']);
    expect(
      processorNamesIn("const op = { summary: 'Acme Pay notifies', description: 'Signed by ' + 'Acme Pay.', example: { processor: 'acme' } };", processors),
    ).toEqual(['acme']);
    expect(processorNamesIn("e(422, prose('Acme Pay takes no cents'), 'Acme Pay: round it');", processors)).toEqual(['Acme Pay: round it']);
  });

  it("when the repository's code is read (services, libraries, packages, launcher, bench, scripts), then none names a registered processor outside its folder and the registry", () => {
    const files = SCANNED.flatMap(codeFiles);
    expect(files.length).toBeGreaterThan(500);
    expect(files).toEqual(
      expect.arrayContaining([
        'services/forwarder/src/app.ts',
        'services/gateway/src/domain/routing.ts',
        'services/payment-orchestrator/src/app.ts',
        'packages/dashboard/src/pages/merchant/processor-accounts.tsx',
        'bench/payments.bench.ts',
        'libs/contracts/src/openapi/fragments/processor-accounts.ts',
      ]),
    );
    const named = files.flatMap((file) =>
      processorNamesIn(readFileSync(join(ROOT, file), 'utf8'), NAMED, file).map((name) => `${relative(ROOT, join(ROOT, file))}: ${name}`),
    );
    expect(named).toEqual([]);
  });
});
