#!/usr/bin/env node
// Fails on an import cycle between the source files of the services (and the dashboard) named below, type
// imports included: a cycle through ports.ts (ports naming the entities of use-case files that import the
// ports), or through the dashboard's routes.ts (the pages it imports taking their props type from it), means
// a file sits in the wrong place, and it grows. pnpm lint runs this.
//
//   node scripts/import-cycles.mjs                  checks the services listed in CHECKED
//   node scripts/import-cycles.mjs services/vault   reports the cycles under any folder, without failing
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
/** The folders kept free of cycles: every service, and the dashboard. */
const CHECKED = [
  'services/gateway/src',
  'services/forwarder/src',
  'services/payment-orchestrator/src',
  'services/vault/src',
  'services/importer/src',
  'services/notifier/src',
  'packages/dashboard/src',
];

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) ? [resolve(path)] : [];
  });
}

/** The files each file imports (relative imports only: a package is never part of a service's cycle). */
function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => resolve(dirname(file), fileName.replace(/\.js$/, '')))
      .map((base) => [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate)))
      .filter((target) => target !== undefined);
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan): each holds at least one cycle. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), index.get(target)));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const asked = process.argv.slice(2);
let failed = false;
for (const folder of asked.length > 0 ? asked : CHECKED) {
  for (const component of cycles(importGraph(sourceFiles(join(root, folder))))) {
    console.error(
      `import cycle in ${folder} (${component.length} files): ${component
        .map((file) => relative(join(root, folder), file))
        .sort()
        .join(', ')}`,
    );
    failed = asked.length === 0;
  }
}
if (failed) process.exit(1);
