import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * domain/payment/ is the payment's life (create, authenticate, authorize, capture, cancel), not the hub
 * of everything after it: refunds (running them, their processor notifications), reports, disputes and
 * early fraud warnings depend on the payment, never the reverse. More generally the folders are layered
 * (services/payment-orchestrator/README.md, "Domain folders"): a folder imports only folders below it, so
 * the folder graph, type imports included, has no cycle.
 */
const DOMAIN = join(__dirname, '..', 'src', 'domain');
const AFTER_THE_PAYMENT = ['refunds', 'reports', 'disputes', 'fraud-warnings'];

const sourceFiles = (folder: string): string[] => readdirSync(join(DOMAIN, folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

const importsOf = (folder: string, file: string): string[] =>
  [...readFileSync(join(DOMAIN, folder, file), 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map((match) => match[1]!);

/** Every path a source file names another folder by: import and export ... from (type-only included), import('…'). */
const folderImportsOf = (source: string): string[] => [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)'\.\.\/([\w-]+)\/[^']*'/g)].map((match) => match[1]!);

type FolderGraph = Map<string, Map<string, string>>;

/** Which folder imports which, each edge with one file that makes it (to name in a failure). */
function folderGraph(domain: string): FolderGraph {
  const folders = readdirSync(domain, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const graph: FolderGraph = new Map(folders.map((folder) => [folder, new Map<string, string>()]));
  for (const folder of folders)
    for (const file of readdirSync(join(domain, folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')))
      for (const target of folderImportsOf(readFileSync(join(domain, folder, file), 'utf8')))
        if (target !== folder && !graph.get(folder)!.has(target)) graph.get(folder)!.set(target, `${folder}/${file}`);
  return graph;
}

/** The cycles a depth-first walk meets, each as 'payment → flows → payment', followed by the files making its edges. */
function cyclesOf(graph: FolderGraph): string[] {
  const done = new Set<string>();
  const path: string[] = [];
  const cycles: string[] = [];
  const visit = (folder: string): void => {
    path.push(folder);
    for (const target of [...(graph.get(folder)?.keys() ?? [])].sort()) {
      const start = path.indexOf(target);
      if (start >= 0) {
        const cycle = [...path.slice(start), target];
        const files = cycle.slice(0, -1).map((from, index) => `${graph.get(from)!.get(cycle[index + 1]!)} imports ../${cycle[index + 1]}/`);
        cycles.push(`${cycle.join(' → ')} (${files.join('; ')})`);
      } else if (!done.has(target)) visit(target);
    }
    path.pop();
    done.add(folder);
  };
  for (const folder of [...graph.keys()].sort()) if (!done.has(folder)) visit(folder);
  return cycles;
}

describe('the orchestrator domain folders depend one way', () => {
  it('when the domain folders import each other (type imports included), then no folder reaches itself again', () => {
    const graph = folderGraph(DOMAIN);
    expect(graph.size).toBeGreaterThan(10);
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('when a folder imports one that imports it back, then the cycle is named folder by folder with the files that make it', () => {
    const graph: FolderGraph = new Map([
      ['declines', new Map()],
      ['flows', new Map([['payment', 'flows/flow-catalog.ts']])],
      [
        'payment',
        new Map([
          ['flows', 'payment/create-payment.ts'],
          ['declines', 'payment/payment.ts'],
        ]),
      ],
    ]);
    expect(cyclesOf(graph)).toEqual(['flows → payment → flows (flows/flow-catalog.ts imports ../payment/; payment/create-payment.ts imports ../flows/)']);
  });

  it('when a file imports a type, a value, re-exports or imports lazily from another folder, then each counts as an edge', () => {
    const source = [
      "import type { Flow } from '../flows/flow';",
      "import { decideRoute, type RoutingPorts } from '../routing/routing-ports';",
      "export type { Decline } from '../declines/decline';",
      "import {\n  type UseCase,\n} from '../payment-vocabulary/use-case';",
      "const later = () => import('../refunds/refund');",
      "import { local } from './payment';",
    ].join('\n');
    expect(folderImportsOf(source)).toEqual(['flows', 'routing', 'declines', 'payment-vocabulary', 'refunds']);
  });

  it('when a file of domain/payment imports, then never from refunds, reports, disputes or fraud-warnings', () => {
    const backwards = sourceFiles('payment').flatMap((file) =>
      importsOf('payment', file)
        .filter((path) => AFTER_THE_PAYMENT.some((folder) => path.startsWith(`../${folder}/`)))
        .map((path) => `payment/${file} imports ${path}`),
    );
    expect(backwards).toEqual([]);
  });

  it('when refund running and refund notifications are looked for, then they are in domain/refunds', () => {
    expect(sourceFiles('refunds')).toEqual(expect.arrayContaining(['after-sale-worker.ts', 'after-sale-notifications.ts', 'advance-refund.ts']));
    expect(sourceFiles('payment')).not.toEqual(expect.arrayContaining(['after-sale-worker.ts']));
  });
});
