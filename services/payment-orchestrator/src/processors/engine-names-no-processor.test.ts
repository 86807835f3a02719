import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { processorPlugins } from './registry';

const SRC = join(__dirname, '..');

/**
 * The engine is every source file of the service outside a processor's own folder and the registry.
 * The built-in simulator is the engine's own test processor (its default flows, the live-mode refusal
 * `simulator_not_allowed_in_live_mode`, the test-mode dispute), so it is the one id the engine may name.
 */
const NAMED = Object.values(processorPlugins).filter((plugin) => plugin.opens === 'per_account');

function engineFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // A processor's own folder is its plugin: processors/<id>/ is skipped, processors/ itself is engine.
    if (entry.isDirectory()) return relative(SRC, path).startsWith('processors/') ? [] : engineFiles(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return relative(SRC, path) === 'processors/registry.ts' ? [] : [path];
  });
}

/** Where the code (comments left out) names a processor: its id as a string or an identifier, its name in a string, its folder in an import. */
export function processorNamesIn(code: string, plugins: ReadonlyArray<{ id: string; displayName: string }>): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isText = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node);
    for (const { id, displayName } of plugins) {
      if (ts.isIdentifier(node) && node.text.toLowerCase() === id) found.push(node.text);
      if (isText && (node.text === id || new RegExp(`(^|/)processors/${id}(/|$)`).test(node.text) || new RegExp(`\\b${displayName.replace('.', '\\.')}\\b`).test(node.text))) found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('engine.ts', code, ts.ScriptTarget.Latest, true));
  return found;
}

describe('no processor name in the engine', () => {
  it('when engine code names a processor (a string, an identifier, an import of its folder), then the check finds it; comments may mention one', () => {
    const plugins = [{ id: 'acme', displayName: 'Acme Pay' }];
    expect(processorNamesIn("if (account.processor === 'acme') {}", plugins)).toEqual(['acme']);
    expect(processorNamesIn("import { acme } from '../processors/acme';", plugins)).toEqual(['acme', '../processors/acme']);
    expect(processorNamesIn('throw new Error(`Acme Pay refused ${x}`);', plugins)).toEqual(['Acme Pay refused ']);
    expect(processorNamesIn('// Acme Pay answers 202 here\nconst acmePayments = 1;', plugins)).toEqual([]);
  });

  it('when the engine\'s source files are read, then none names a registered processor outside its folder and the registry', () => {
    const files = engineFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const named = files.flatMap((file) => processorNamesIn(readFileSync(file, 'utf8'), NAMED).map((name) => `${relative(SRC, file)}: ${name}`));
    expect(named).toEqual([]);
  });
});
