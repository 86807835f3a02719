import { SERVICE_NAMES } from '../libs/runtime/src/service-runtime';
import { helmUnavailable, RELEASE, renderReleases, validateStrictly, type Manifest, type RenderedRelease } from './support/helm-chart';

/**
 * Release N, N+1 and N+2 of the chart as Helm's own install and upgrade actions make them (scripts/helm --render:
 * .Release.Revision and .Release.IsUpgrade as a cluster's `helm upgrade` sets them). An upgrade must change no
 * field Kubernetes refuses to change — the cause of "field is immutable" and of pods crash-looping on missing
 * indexes when the migrate Job could not be recreated — and must roll only what changed.
 */
const unavailable = helmUnavailable();
if (unavailable) process.stdout.write(`[skipped] Helm chart upgrades (scripts/helm --render): ${unavailable}\n`);

/** N: the defaults, the notifier at a fixed count. N+1: a new vault image, four notifiers. N+2: the same values again. */
const RELEASE_N = { services: { notifier: { autoscaling: { enabled: false }, replicas: 2 } } };
const RELEASE_N1 = { services: { vault: { image: { tag: '0.2.0' } }, notifier: { autoscaling: { enabled: false }, replicas: 4 } } };

type Doc = Manifest & { spec?: Record<string, unknown> };
const key = (manifest: Manifest) => `${manifest.kind}/${manifest.metadata.name}`;
const byKey = (release: RenderedRelease) => new Map(release.manifests.map((manifest) => [key(manifest), manifest as Doc]));
const at = (value: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, step) => (node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>)[step]), value);

/** Fields the API server refuses to change on an existing object, by kind (what a cluster's apply would hit). */
const IMMUTABLE: Record<string, string[][]> = {
  Deployment: [['spec', 'selector']],
  StatefulSet: [
    ['spec', 'selector'],
    ['spec', 'serviceName'],
    ['spec', 'volumeClaimTemplates'],
    ['spec', 'podManagementPolicy'],
  ],
  DaemonSet: [['spec', 'selector']],
  Service: [
    ['spec', 'clusterIP'],
    ['spec', 'clusterIPs'],
    ['spec', 'ipFamilies'],
    ['spec', 'selector'],
  ],
  Job: [
    ['spec', 'selector'],
    ['spec', 'template'],
    ['spec', 'completions'],
    ['spec', 'completionMode'],
  ],
  PersistentVolumeClaim: [
    ['spec', 'storageClassName'],
    ['spec', 'accessModes'],
    ['spec', 'volumeName'],
  ],
  ConfigMap: [['immutable']],
  Secret: [['immutable'], ['type']],
};

/** Each `kind/name field` an object of both releases holds with a different value where Kubernetes refuses a change. */
function immutableChanges(from: RenderedRelease, to: RenderedRelease): string[] {
  const before = byKey(from);
  return [...byKey(to)].flatMap(([name, after]) => {
    const previous = before.get(name);
    if (!previous) return [];
    return (IMMUTABLE[after.kind] ?? [])
      .filter((path) => JSON.stringify(at(after, path)) !== JSON.stringify(at(previous, path)))
      .map((path) => `${name} ${path.join('.')}`);
  });
}

/** Every `kind/name field` the comparison looked at. */
const comparedFields = (from: RenderedRelease, to: RenderedRelease): string[] => {
  const before = byKey(from);
  return [...byKey(to)].flatMap(([name, after]) => (before.has(name) ? (IMMUTABLE[after.kind] ?? []).map((path) => `${name} ${path.join('.')}`) : []));
};

(unavailable ? describe.skip : describe)('deploy/helm/vaultline: release N to N+1 (helm upgrade)', () => {
  let releases: RenderedRelease[] = [];
  beforeAll(() => {
    releases = renderReleases(RELEASE_N, RELEASE_N1, RELEASE_N1);
  });

  it('when the chart is installed and upgraded twice, then Helm makes revisions 1, 2 and 3, each passing the strict schema check', () => {
    expect(releases.map((release) => release.revision)).toEqual([1, 2, 3]);
    for (const release of releases) expect(validateStrictly(release.manifests).filter((result) => result.errors.length > 0)).toEqual([]);
  });

  it('when a release is upgraded, then each migrate Job is a new one named after the revision (pre-install and pre-upgrade hooks), so no Job template is ever patched', () => {
    for (const release of releases) {
      const jobs = release.hooks.filter((hook) => hook.kind === 'Job');

      expect({ revision: release.revision, jobs: jobs.map((job) => job.name).sort() }).toEqual({
        revision: release.revision,
        jobs: SERVICE_NAMES.map((name) => `${RELEASE}-${name}-migrate-${release.revision}`).sort(),
      });
      for (const job of jobs) expect(job.events).toEqual(['pre-install', 'pre-upgrade']);
    }
    const [n, n1] = releases.map(byKey);
    expect([...n!.keys()].filter((name) => name.startsWith('Job/') && n1!.has(name))).toEqual([]);
  });

  it('when N+1 changes an image and a replica count, then no field Kubernetes holds immutable changes on any object both releases hold', () => {
    expect(immutableChanges(releases[0]!, releases[1]!)).toEqual([]);
    expect(immutableChanges(releases[1]!, releases[2]!)).toEqual([]);
    expect(comparedFields(releases[0]!, releases[1]!)).toEqual(
      expect.arrayContaining(['Deployment/vault spec.selector', 'Service/vault spec.clusterIP', 'Service/vault spec.selector']),
    );
  });

  it('when N+1 changes the vault image and the notifier count, then the vault (and its migrate Job) runs the new image, the notifier has four replicas, and no other pod template changes (only they roll)', () => {
    const [n, n1] = releases.map(byKey);
    const template = (release: Map<string, Doc>, name: string) => at(release.get(`Deployment/${name}`), ['spec', 'template']);
    const imageOf = (release: Map<string, Doc>, name: string) =>
      (at(release.get(`Deployment/${name}`), ['spec', 'template', 'spec', 'containers']) as Array<{ image: string }>)[0]!.image;

    expect([imageOf(n!, 'vault'), imageOf(n1!, 'vault')]).toEqual(['vaultline/vault:0.1.0', 'vaultline/vault:0.2.0']);
    expect((at(n1!.get(`Job/${RELEASE}-vault-migrate-2`), ['spec', 'template', 'spec', 'containers']) as Array<{ image: string }>)[0]!.image).toBe(
      'vaultline/vault:0.2.0',
    );
    expect([at(n!.get('Deployment/notifier'), ['spec', 'replicas']), at(n1!.get('Deployment/notifier'), ['spec', 'replicas'])]).toEqual([2, 4]);
    expect(SERVICE_NAMES.filter((name) => JSON.stringify(template(n!, name)) !== JSON.stringify(template(n1!, name)))).toEqual(['vault']);
    // Autoscaled Deployments carry no count: an upgrade never resets the autoscaler's choice.
    expect(at(n1!.get('Deployment/vault'), ['spec', 'replicas'])).toBeUndefined();
  });

  it('when a release would change a selector or a Job template under the same name, then the comparison names each (the check can fail)', () => {
    const changed = structuredClone(releases[1]!);
    const deployment = changed.manifests.find((manifest) => key(manifest) === 'Deployment/vault')!;
    (at(deployment, ['spec', 'selector', 'matchLabels']) as Record<string, string>)['app.kubernetes.io/version'] = '0.2.0';
    const job = changed.manifests.find((manifest) => key(manifest) === `Job/${RELEASE}-vault-migrate-2`)!;
    const sameNamedJob = { ...structuredClone(job), metadata: { ...job.metadata, name: `${RELEASE}-vault-migrate-1` } };

    expect(immutableChanges(releases[0]!, { ...changed, manifests: [...changed.manifests, sameNamedJob] })).toEqual([
      'Deployment/vault spec.selector',
      `Job/${RELEASE}-vault-migrate-1 spec.template`,
    ]);
  });
});
