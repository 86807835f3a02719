import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

/**
 * The Helm chart (deploy/helm/vaultline) as Helm renders it: Helm built from its Go module by scripts/helm
 * (once per machine, cached), `helm template` for one release, and scripts/helm --render (Helm's own install and
 * upgrade actions, deploy/helm/render) for a release and its upgrades. Without Go and without a cached build
 * the suites say so in one line and skip; with CI=true they fail instead.
 */
export const ROOT = resolve(__dirname, '../..');
export const CHART = join(ROOT, 'deploy/helm/vaultline');
const SCRIPT = join(ROOT, 'scripts/helm');
/** The Kubernetes release the documents are checked against (kubernetes-models 5.1's schemas; the chart needs ≥ 1.27). */
export const KUBE_VERSION = '1.34.0';
export const RELEASE = 'vaultline';
export const NAMESPACE = 'vaultline';

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
};

function run(args: string[]): SpawnSyncReturns<string> {
  // Building Helm takes minutes on a loaded 2-core machine, once; rendering takes well under a second.
  return spawnSync(SCRIPT, args, { cwd: ROOT, encoding: 'utf8', timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
}

/** Whether Helm is there (built now if Go is): the reason when not. */
export function helmUnavailable(): string | undefined {
  const built = run(['--build']);
  if (built.status === 0) return undefined;
  const reason = `scripts/helm could not build Helm: ${(built.stderr || String(built.error)).trim().split('\n').slice(-2).join(' ')}`;
  if (process.env.CI === 'true') throw new Error(reason);
  return reason;
}

export function helm(...args: string[]): { status: number | null; output: string } {
  const result = run(args);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

export const parseManifests = (text: string): Manifest[] =>
  parseAllDocuments(text)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);

function withValuesFile<T>(values: object, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-helm-'));
  try {
    const file = join(dir, 'values.yaml');
    writeFileSync(file, stringify(values));
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `helm template` of one release (hooks included) with these values on the chart's defaults. */
export function renderChart(values: object = {}): Manifest[] {
  return withValuesFile(values, (file) => {
    const result = run(['template', RELEASE, CHART, '--namespace', NAMESPACE, '--kube-version', KUBE_VERSION, '--values', file]);
    if (result.status !== 0) throw new Error(`helm template failed: ${result.stderr}`);
    return parseManifests(result.stdout);
  });
}

/** What `helm template` refuses these values with (its error), or undefined when it renders. */
export function renderError(values: object): string | undefined {
  return withValuesFile(values, (file) => {
    const result = run(['template', RELEASE, CHART, '--namespace', NAMESPACE, '--kube-version', KUBE_VERSION, '--values', file]);
    return result.status === 0 ? undefined : result.stderr;
  });
}

export interface RenderedRelease {
  revision: number;
  /** The release's resources, then its hooks. */
  manifests: Manifest[];
  hooks: Array<{ name: string; kind: string; events: string[] }>;
}

/** helm install with the first values, then helm upgrade with each next: revisions 1, 2 … as Helm's own actions make them. */
export function renderReleases(...releases: object[]): RenderedRelease[] {
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-helm-'));
  try {
    const files = releases.map((values, index) => {
      const file = join(dir, `values-${index + 1}.yaml`);
      writeFileSync(file, stringify(values));
      return file;
    });
    const result = run(['--render', CHART, NAMESPACE, RELEASE, ...files]);
    if (result.status !== 0) throw new Error(`scripts/helm --render failed: ${result.stderr}`);
    const parsed = JSON.parse(result.stdout) as Array<{
      revision: number;
      manifest: string;
      hooks: Array<{ name: string; kind: string; events: string[]; manifest: string }>;
    }>;
    return parsed.map((release) => ({
      revision: release.revision,
      manifests: [...parseManifests(release.manifest), ...release.hooks.flatMap((hook) => parseManifests(hook.manifest))],
      hooks: release.hooks.map(({ name, kind, events }) => ({ name, kind, events })),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The strict schema check (test-e2e/support/validate-k8s.mjs) of every document: [{ kind, name, errors }]. */
export function validateStrictly(manifests: readonly object[]): Array<{ kind: string; name: string; errors: string[] }> {
  const result = spawnSync(process.execPath, [join(__dirname, 'validate-k8s.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(manifests),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`validate-k8s.mjs failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Array<{ kind: string; name: string; errors: string[] }>;
}

export type Labels = Record<string, string>;
export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** Kubernetes label-selector semantics (matchLabels and In/NotIn/Exists/DoesNotExist expressions, ANDed). */
export function selects(selector: LabelSelector, labels: Labels): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return key in labels && values.includes(labels[key]!);
    if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]!);
    if (operator === 'Exists') return key in labels;
    if (operator === 'DoesNotExist') return !(key in labels);
    throw new Error(`unknown operator ${operator}`);
  });
  return byLabels && byExpressions;
}

export interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
export interface PolicyRule {
  from?: Peer[];
  to?: Peer[];
  ports?: Array<{ protocol?: string; port?: number | string }>;
}
export type NetworkPolicy = Manifest & { spec: { podSelector: LabelSelector; policyTypes: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] } };
