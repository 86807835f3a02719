import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_NAMES, type ServiceName } from '../libs/runtime/src/service-runtime';
import { SECRET_FILES, secretFileEnv } from '../deploy/launcher/src/deploy-secrets';
import { SECRET_VARIABLES } from '../libs/runtime/src/secret-files';
import { kafkaNamingOf, loadRuntimeConfig } from '../libs/runtime/src/runtime-config';
import {
  envSecretName,
  INTERNET_EGRESS,
  jwtSecretName,
  PRESTOP_SLEEP_SECONDS,
  PUBLIC_KEYS_SECRET,
  renderManifests,
  SHUTDOWN_DELAY_SECONDS,
  SHUTDOWN_GRACE_MS,
  tlsSecretName,
  toYaml,
  VAULT_CALLERS,
  type Manifest,
} from '../deploy/k8s/generate';

const ROOT = resolve(__dirname, '..');
const K8S = join(ROOT, 'deploy/k8s');

/** What the manifests hold, as a platform team applies them: the committed files. */
const files = Object.fromEntries(
  readdirSync(K8S)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => [file, parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((document) => document.toJS() as Manifest)]),
);
const all = Object.values(files).flat();
const ofKind = (kind: string) => all.filter((manifest) => manifest.kind === kind);
/** The fields of the workload kinds the checks read (the schema check covers the rest). */
interface Container {
  ports: Array<{ name: string; containerPort: number }>;
  args?: string[];
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  envFrom: unknown;
  env?: Array<{ name: string; valueFrom: { secretKeyRef: { name: string; key: string } } }>;
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: Record<'requests' | 'limits', { cpu?: string; memory?: string }>;
  securityContext: { allowPrivilegeEscalation?: boolean };
}
interface Volume {
  secret?: { secretName: string };
  projected?: { sources: Array<{ secret?: { name: string; items?: Array<{ key: string; path: string }> } }> };
}
interface Spec {
  selector: LabelSelector & Labels;
  replicas?: number;
  template: { metadata: { labels: Labels }; spec: { containers: Container[]; volumes: Volume[]; terminationGracePeriodSeconds?: number; securityContext: { runAsNonRoot?: boolean; runAsUser?: number } } };
  ports: Array<{ targetPort: string }>;
  scaleTargetRef: unknown;
}
const named = (kind: string, name: string) => {
  const found = ofKind(kind).filter((manifest) => manifest.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0] as Manifest & { spec: Spec; data?: Record<string, string> };
};

type Labels = Record<string, string>;
interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}
/** Kubernetes label-selector semantics (matchLabels and In/NotIn/Exists/DoesNotExist expressions, ANDed). */
function selects(selector: LabelSelector, labels: Labels): boolean {
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
const podLabelsOf = (name: ServiceName): Labels => named('Deployment', name).spec.template.metadata.labels;
/** The services whose pods a selector (of this namespace) selects. */
const selectedServices = (selector: LabelSelector) => SERVICE_NAMES.filter((name) => selects(selector, podLabelsOf(name))).sort();

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: Array<{ protocol?: string; port?: number | string }>;
}
const policies = () => ofKind('NetworkPolicy') as Array<Manifest & { spec: { podSelector: LabelSelector; policyTypes: string[]; ingress?: Rule[]; egress?: Rule[] } }>;

describe('deploy/k8s: the Kubernetes manifests', () => {
  it('when the generator runs, then it writes exactly the committed files (no hand edit, no stale file)', () => {
    const rendered = renderManifests();

    expect(Object.keys(files).sort()).toEqual(Object.keys(rendered).sort());
    for (const [file, manifests] of Object.entries(rendered)) expect({ file, text: readFileSync(join(K8S, file), 'utf8') }).toEqual({ file, text: toYaml(manifests) });
  });

  it('when each manifest is checked against the Kubernetes API schemas (kubernetes-models), then none has an error', () => {
    const output = execFileSync(process.execPath, [join(__dirname, 'support/validate-k8s.mjs')], { cwd: ROOT, input: JSON.stringify(all), encoding: 'utf8' });
    const results = JSON.parse(output) as Array<{ kind: string; name: string; errors: string[] }>;

    expect(results).toHaveLength(all.length);
    expect(results.filter((result) => result.errors.length > 0)).toEqual([]);
  });

  it('when a field is misspelt (readinesProbe) or unknown anywhere in a manifest, then the strict schema check refuses it, naming the field', () => {
    const deployment = structuredClone(named('Deployment', 'vault'));
    const container = deployment.spec.template.spec.containers[0]! as unknown as Record<string, unknown>;
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    const service = structuredClone(named('Service', 'vault')) as unknown as { spec: Record<string, unknown> };
    service.spec.clusterIp = 'None';
    const output = execFileSync(process.execPath, [join(__dirname, 'support/validate-k8s.mjs')], { cwd: ROOT, input: JSON.stringify([deployment, service]), encoding: 'utf8' });

    expect(JSON.parse(output)).toEqual([
      { kind: 'Deployment', name: 'vault', errors: ['/spec/template/spec/containers/0/readinesProbe is not a field of the Kubernetes API (unknown field)'] },
      { kind: 'Service', name: 'vault', errors: ['/spec/clusterIp is not a field of the Kubernetes API (unknown field)'] },
    ]);
  });

  it('when a manifest is malformed, then the schema check names the field (the check can fail)', () => {
    const deployment = structuredClone(named('Deployment', 'vault'));
    (deployment.spec.template.spec.containers[0]!.ports[0] as { containerPort: unknown }).containerPort = 'http';
    const output = execFileSync(process.execPath, [join(__dirname, 'support/validate-k8s.mjs')], { cwd: ROOT, input: JSON.stringify([deployment]), encoding: 'utf8' });

    expect(JSON.parse(output)).toEqual([{ kind: 'Deployment', name: 'vault', errors: ['/spec/template/spec/containers/0/ports/0/containerPort must be integer'] }]);
  });

  it('when the services are listed, then each has a ConfigMap, a migrate Job, a Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget, each with apiVersion, kind, metadata and spec (or data)', () => {
    for (const manifest of all) expect({ kind: manifest.kind, apiVersion: typeof manifest.apiVersion, name: typeof manifest.metadata?.name, body: 'spec' in manifest || 'data' in manifest }).toEqual({ kind: manifest.kind, apiVersion: 'string', name: 'string', body: true });
    for (const name of SERVICE_NAMES) {
      expect(files[`${name}.yaml`]!.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`)).toEqual([
        `ConfigMap/${name}-config`,
        `Job/${name}-migrate`,
        `Deployment/${name}`,
        `Service/${name}`,
        `HorizontalPodAutoscaler/${name}`,
        `PodDisruptionBudget/${name}`,
      ]);
    }
  });

  it('when a Deployment runs, then its selector matches its pods, it probes /health (liveness) and /ready (readiness) on a declared port, sets requests and limits, and runs as a non-root user', () => {
    for (const name of SERVICE_NAMES) {
      const { spec } = named('Deployment', name);
      const container = spec.template.spec.containers[0]!;
      const portNames = container.ports.map((port) => port.name);

      expect(selects(spec.selector, spec.template.metadata.labels)).toBe(true);
      expect({ name, liveness: container.livenessProbe.httpGet.path, readiness: container.readinessProbe.httpGet.path }).toEqual({ name, liveness: '/health', readiness: '/ready' });
      expect(portNames).toEqual(expect.arrayContaining([container.livenessProbe.httpGet.port, container.readinessProbe.httpGet.port, 'metrics']));
      for (const bound of ['requests', 'limits'] as const) expect({ name, bound, cpu: typeof container.resources[bound].cpu, memory: typeof container.resources[bound].memory }).toEqual({ name, bound, cpu: 'string', memory: 'string' });
      expect({ name, nonRoot: spec.template.spec.securityContext.runAsNonRoot, uid: spec.template.spec.securityContext.runAsUser, escalation: container.securityContext.allowPrivilegeEscalation }).toEqual({ name, nonRoot: true, uid: 1000, escalation: false });
    }
  });

  it('when a Service, autoscaler or disruption budget points at a service, then it selects exactly that service pods', () => {
    for (const name of SERVICE_NAMES) {
      expect({ name, service: selectedServices({ matchLabels: named('Service', name).spec.selector }) }).toEqual({ name, service: [name] });
      expect({ name, budget: selectedServices(named('PodDisruptionBudget', name).spec.selector) }).toEqual({ name, budget: [name] });
      expect({ name, target: named('HorizontalPodAutoscaler', name).spec.scaleTargetRef }).toEqual({ name, target: { apiVersion: 'apps/v1', kind: 'Deployment', name } });
      const servicePorts = named('Service', name).spec.ports.map((port) => port.targetPort);
      const containerPorts = named('Deployment', name).spec.template.spec.containers[0]!.ports.map((port) => port.name);
      expect({ name, servicePorts }).toEqual({ name, servicePorts: containerPorts });
    }
  });

  it('when a pod (or its migrate job) starts, then it reads its ConfigMap and mounts only its own Secrets (variables, private key, certificate) and the shared public keys, in the layout compose mounts; no environment value comes from a Secret', () => {
    for (const name of SERVICE_NAMES) {
      for (const pod of [named('Deployment', name).spec.template.spec, named('Job', `${name}-migrate`).spec.template.spec]) {
        const container = pod.containers[0]!;
        const mountedSecrets = pod.volumes.flatMap((volume) => [volume.secret?.secretName, ...(volume.projected?.sources ?? []).map((source) => source.secret?.name)]).filter(Boolean).sort();
        const projectedPaths = pod.volumes.flatMap((volume) => (volume.projected?.sources ?? []).flatMap((source) => (source.secret?.items ?? []).map((item) => item.path))).sort();

        expect({ name, envFrom: container.envFrom, env: container.env }).toEqual({ name, envFrom: [{ configMapRef: { name: `${name}-config` } }], env: undefined });
        expect({ name, mountedSecrets }).toEqual({ name, mountedSecrets: [envSecretName(name), jwtSecretName(name), tlsSecretName(name), PUBLIC_KEYS_SECRET].sort() });
        expect(projectedPaths).toEqual(Object.values(SECRET_FILES).sort());
      }
    }
  });

  it('when a ConfigMap is read, then it holds no secret (every secret variable only as *_FILE, naming the mounted file), and every internal URL is https://', () => {
    for (const name of SERVICE_NAMES) {
      const data = named('ConfigMap', `${name}-config`).data!;
      const inlineSecrets = Object.entries(data).filter(([variable, value]) => (SECRET_VARIABLES as readonly string[]).includes(variable) && !(variable === 'BUS_URL' && !value.includes('@')));
      const plainHttp = Object.entries(data).filter(([, value]) => /^http:\/\//.test(value));

      expect({ name, inlineSecrets, plainHttp }).toEqual({ name, inlineSecrets: [], plainHttp: [] });
      expect(data).toMatchObject(secretFileEnv(name));
      expect(Object.values(data).filter((value) => /:\/\/[^/@]+:[^/@]+@/.test(value))).toEqual([]);
      expect(data.VAULT_URL).toBe('https://vault:8080');
    }
  });

  it('when a rollout stops a pod, then a preStop hook sleeps as long as SHUTDOWN_DELAY_SECONDS, the grace period covers preStop, the delay and the drain, probes go to the plain metrics port, and no Deployment sets replicas beside its autoscaler', () => {
    for (const name of SERVICE_NAMES) {
      const { spec } = named('Deployment', name);
      const container = spec.template.spec.containers[0]!;
      const data = named('ConfigMap', `${name}-config`).data!;

      expect({ name, replicas: spec.replicas, autoscaled: named('HorizontalPodAutoscaler', name).spec.scaleTargetRef }).toEqual({ name, replicas: undefined, autoscaled: { apiVersion: 'apps/v1', kind: 'Deployment', name } });
      expect(container.lifecycle?.preStop?.exec?.command).toEqual(['sleep', String(PRESTOP_SLEEP_SECONDS)]);
      expect({ delay: data.SHUTDOWN_DELAY_SECONDS, grace: data.SHUTDOWN_GRACE_MS }).toEqual({ delay: String(SHUTDOWN_DELAY_SECONDS), grace: String(SHUTDOWN_GRACE_MS) });
      expect(spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(PRESTOP_SLEEP_SECONDS + SHUTDOWN_DELAY_SECONDS + SHUTDOWN_GRACE_MS / 1000);
      expect({ name, probes: [container.livenessProbe.httpGet.port, container.readinessProbe.httpGet.port] }).toEqual({ name, probes: ['metrics', 'metrics'] });
    }
  });

  it('when a release is applied, then each service has a migrate Job running its image with `migrate` (the Deployment no longer builds indexes at start)', () => {
    for (const name of SERVICE_NAMES) {
      const job = named('Job', `${name}-migrate`).spec.template.spec.containers[0]! as Container & { image: string };
      const deployment = named('Deployment', name).spec.template.spec.containers[0]! as Container & { image: string };

      expect({ name, args: job.args, image: job.image }).toEqual({ name, args: ['node', '--enable-source-maps', 'dist/main.js', 'migrate'], image: deployment.image });
    }
  });

  it('when a pod starts, then it gets the same variables as its docker-compose.yml container (which the compose test proves complete)', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, { environment: Record<string, unknown> }> };
    for (const name of SERVICE_NAMES) {
      const inPod = Object.keys(named('ConfigMap', `${name}-config`).data!).sort();
      const inCompose = Object.keys(compose.services[name]!.environment);
      // The gateway's internal port is set explicitly in the cluster (its Service names it); compose relies on the default.
      const clusterOnly = name === 'gateway' ? ['GATEWAY_INTERNAL_PORT'] : [];

      expect({ name, inPod }).toEqual({ name, inPod: [...new Set([...inCompose, ...clusterOnly])].sort() });
    }
  });

  it('when a pod starts, then it creates no Kafka topic (they are provisioned from deploy/kafka/topics.yaml), names its topics and groups under the environment prefix, and its client after its service', () => {
    for (const name of SERVICE_NAMES) {
      const data = named('ConfigMap', `${name}-config`).data!;
      // The SASL user and password come from the pod's Secret files; the naming does not depend on them.
      const { KAFKA_SASL_MECHANISM: _mechanism, ...withoutSasl } = data;
      const runtime = loadRuntimeConfig(withoutSasl);

      expect({ name, kafka: kafkaNamingOf(runtime, name) }).toEqual({ name, kafka: { topicPrefix: 'vaultline.', groupPrefix: 'vaultline.', clientId: name, createTopics: false } });
    }
  });

  it('when the network policies apply, then each of their pod selectors selects existing pods', () => {
    for (const { metadata, spec } of policies()) {
      expect({ policy: metadata.name, selects: selectedServices(spec.podSelector).length > 0 }).toEqual({ policy: metadata.name, selects: true });
      const peers = [...(spec.ingress ?? []).flatMap((rule) => rule.from ?? []), ...(spec.egress ?? []).flatMap((rule) => rule.to ?? [])];
      for (const peer of peers.filter((candidate) => candidate.podSelector && !candidate.namespaceSelector)) {
        expect({ policy: metadata.name, peer: peer.podSelector, selects: selectedServices(peer.podSelector!).length > 0 }).toEqual({ policy: metadata.name, peer: peer.podSelector, selects: true });
      }
    }
  });

  it('when a pod calls the vault API port, then only the gateway, the forwarder and the importer are allowed (Prometheus reaches only the metrics port)', () => {
    const vaultLabels = podLabelsOf('vault');
    const onVault = policies().filter(({ spec }) => spec.policyTypes.includes('Ingress') && selects(spec.podSelector, vaultLabels));
    const rules = onVault.flatMap(({ spec }) => spec.ingress ?? []);
    const apiRules = rules.filter((rule) => !rule.ports || rule.ports.some((port) => port.port === 8080 || port.port === 'http'));
    const apiPeers = apiRules.flatMap((rule) => rule.from ?? [{}]);

    expect(onVault.length).toBeGreaterThan(0);
    expect(apiPeers.every((peer) => peer.podSelector && !peer.namespaceSelector && !peer.ipBlock)).toBe(true);
    expect([...new Set(apiPeers.flatMap((peer) => selectedServices(peer.podSelector!)))].sort()).toEqual([...VAULT_CALLERS].sort());
    expect(['forwarder', 'importer', 'gateway'].sort()).toEqual([...VAULT_CALLERS].sort());
    const otherRules = rules.filter((rule) => !apiRules.includes(rule));
    expect(otherRules.flatMap((rule) => rule.ports ?? [{}]).map((port) => port.port)).toEqual([9464]);
  });

  it('when a pod sends traffic out, then only the forwarder, the importer, the notifier and the payment orchestrator may reach public addresses; every pod is held to cluster addresses and DNS otherwise', () => {
    const egressPolicies = policies().filter(({ spec }) => spec.policyTypes.includes('Egress'));
    const reachesBeyondCluster = (rule: Rule) => (rule.to ?? [{}]).some((peer) => peer.ipBlock || (!peer.podSelector && !peer.namespaceSelector && !(rule.ports ?? []).every((port) => port.port === 53)));
    const internet = SERVICE_NAMES.filter((name) => egressPolicies.some(({ spec }) => selects(spec.podSelector, podLabelsOf(name)) && (spec.egress ?? []).some(reachesBeyondCluster)));
    const restricted = SERVICE_NAMES.filter((name) => egressPolicies.some(({ spec }) => selects(spec.podSelector, podLabelsOf(name))));

    expect(internet.sort()).toEqual(['forwarder', 'importer', 'notifier', 'payment-orchestrator']);
    expect([...INTERNET_EGRESS].sort()).toEqual(internet);
    expect(restricted).toEqual([...SERVICE_NAMES]);
    const publicBlocks = egressPolicies.flatMap(({ spec }) => (spec.egress ?? []).flatMap((rule) => rule.to ?? [])).filter((peer) => peer.ipBlock);
    for (const { ipBlock } of publicBlocks) expect(ipBlock!.except).toEqual(expect.arrayContaining(ipBlock!.cidr === '0.0.0.0/0' ? ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'] : ['fc00::/7', 'fe80::/10']));
  });
});
