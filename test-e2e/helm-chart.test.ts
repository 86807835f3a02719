import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SERVICE_NAMES, type ServiceName } from '../libs/runtime/src/service-runtime';
import { SECRET_FILES, SECRETS_DIR, secretFileEnv, secretVariablesOf } from '../deploy/launcher/src/deploy-secrets';
import { SECRET_VARIABLES } from '../libs/runtime/src/secret-files';
import { kafkaNamingOf, loadRuntimeConfig } from '../libs/runtime/src/runtime-config';
import { productionGaps } from '../libs/runtime/src/production-security';
import {
  CHART,
  helm,
  helmUnavailable,
  RELEASE,
  renderChart,
  renderError,
  ROOT,
  selects,
  validateStrictly,
  type LabelSelector,
  type Manifest,
} from './support/helm-chart';

/**
 * deploy/helm/vaultline as `helm template` renders it with the chart's defaults (ServiceMonitor and
 * PrometheusRule included), checked document by document: against the Kubernetes API schemas with unknown
 * fields refused, and against what the code expects (variables, secret files, probes, the shutdown sequence).
 */
const unavailable = helmUnavailable();
if (unavailable) process.stdout.write(`[skipped] Helm chart (helm lint, helm template): ${unavailable}\n`);

interface Container {
  image: string;
  ports: Array<{ name: string; containerPort: number }>;
  args?: string[];
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  envFrom?: Array<{ configMapRef: { name: string } }>;
  env?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: Record<'requests' | 'limits', { cpu?: string; memory?: string }>;
  securityContext: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
}
interface Volume {
  name: string;
  secret?: { secretName: string };
  projected?: { sources: Array<{ secret?: { name: string; items?: Array<{ key: string; path: string }> } }> };
}
interface PodSpec {
  containers: Container[];
  volumes: Volume[];
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
  securityContext: { runAsNonRoot?: boolean; runAsUser?: number };
  topologySpreadConstraints?: Array<{ topologyKey: string; labelSelector: LabelSelector; maxSkew: number }>;
}
interface Spec {
  selector: LabelSelector & Record<string, string>;
  replicas?: number;
  template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  ports: Array<{ name: string; port: number; targetPort: string }>;
  scaleTargetRef: unknown;
}
type Typed = Manifest & { spec: Spec; data?: Record<string, string> };

(unavailable ? describe.skip : describe)('deploy/helm/vaultline: the Helm chart', () => {
  const DIGEST = `sha256:${'a'.repeat(64)}`;
  /** Release values other than the defaults, in one render (each render costs a Helm process): Kafka naming, a disabled service, a registry and a digest. */
  const VARIANT = {
    image: { registry: 'registry.example.com/' },
    kafka: { groupPrefix: 'team-payments.', createTopics: true },
    services: { notifier: { kafkaClientId: 'payments-notifier' }, importer: { enabled: false }, vault: { image: { digest: DIGEST } } },
  };
  let all: Manifest[] = [];
  let variant: Manifest[] = [];
  beforeAll(() => {
    all = renderChart();
    variant = renderChart(VARIANT);
  });
  const ofKind = (kind: string, manifests = all) => manifests.filter((manifest) => manifest.kind === kind) as Typed[];
  const named = (kind: string, name: string, manifests = all): Typed => {
    const found = ofKind(kind, manifests).filter((manifest) => manifest.metadata.name === name);
    if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
    return found[0]!;
  };
  const podLabelsOf = (name: ServiceName) => named('Deployment', name).spec.template.metadata.labels;
  const selectedServices = (selector: LabelSelector) => SERVICE_NAMES.filter((name) => selects(selector, podLabelsOf(name))).sort();
  const migrateJobOf = (name: ServiceName, manifests = all) =>
    ofKind('Job', manifests).find((job) => job.metadata.labels?.['app.kubernetes.io/name'] === `${name}-migrate`)!;

  it('when helm lint checks the chart strictly, then it passes', () => {
    const { status, output } = helm('lint', CHART, '--strict', '--kube-version', '1.34.0');

    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('1 chart(s) linted, 0 chart(s) failed') });
  });

  it('when every rendered document (hooks included) is checked against the Kubernetes API schemas, unknown fields refused, then none has an error', () => {
    const results = validateStrictly(all);

    expect(results).toHaveLength(all.length);
    expect(results.filter((result) => result.errors.length > 0)).toEqual([]);
    expect([...new Set(all.map((manifest) => manifest.kind))].sort()).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Ingress',
        'Job',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'PrometheusRule',
        'Service',
        'ServiceAccount',
        'ServiceMonitor',
      ].sort(),
    );
  });

  it('when a field is misspelt (readinesProbe) or of the wrong type anywhere, then the strict check refuses it, naming the field (the check can fail)', () => {
    const deployment = structuredClone(named('Deployment', 'vault'));
    const container = deployment.spec.template.spec.containers[0]! as unknown as Record<string, unknown>;
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    const service = structuredClone(named('Service', 'vault')) as unknown as { spec: Record<string, unknown> };
    service.spec.clusterIp = 'None';
    const monitor = structuredClone(ofKind('ServiceMonitor')[0]!) as unknown as { spec: { endpoints: Array<Record<string, unknown>> } };
    monitor.spec.endpoints[0]!.honourLabels = true;
    const job = structuredClone(migrateJobOf('vault'));
    (job.spec.template.spec.containers[0]!.env![0] as { value: unknown }).value = 5;

    expect(validateStrictly([deployment, service, monitor, job])).toEqual([
      { kind: 'Deployment', name: 'vault', errors: ['/spec/template/spec/containers/0/readinesProbe is not a field of the Kubernetes API (unknown field)'] },
      { kind: 'Service', name: 'vault', errors: ['/spec/clusterIp is not a field of the Kubernetes API (unknown field)'] },
      { kind: 'ServiceMonitor', name: 'vaultline', errors: ['/spec/endpoints/0/honourLabels is not a field of the Kubernetes API (unknown field)'] },
      { kind: 'Job', name: job.metadata.name, errors: ['/spec/template/spec/containers/0/env/0/value must be string'] },
    ]);
  });

  it('when the services are listed, then each has a ConfigMap, a ServiceAccount, a Deployment, a Service, an autoscaler, a disruption budget, its network policies and a migrate hook', () => {
    for (const name of SERVICE_NAMES) {
      const mine = all
        .filter((manifest) => manifest.metadata.labels?.['app.kubernetes.io/name'] === name)
        .map((manifest) => `${manifest.kind}/${manifest.metadata.name}`);
      // The merchant edge: the gateway alone is published.
      const edge = name === 'gateway' ? ['Ingress/gateway'] : [];

      expect({ name, mine: mine.sort() }).toEqual({
        name,
        mine: [
          `ConfigMap/${name}-config`,
          `ServiceAccount/${name}`,
          `Deployment/${name}`,
          `Service/${name}`,
          `HorizontalPodAutoscaler/${name}`,
          `PodDisruptionBudget/${name}`,
          `NetworkPolicy/${name}-ingress`,
          `NetworkPolicy/${name}-egress`,
          ...edge,
        ].sort(),
      });
      expect(migrateJobOf(name).metadata.name).toBe(`${RELEASE}-${name}-migrate-1`);
    }
  });

  it('when a Deployment runs, then its selector matches its pods, it probes /health and /ready on the metrics port, sets requests and limits, runs as a non-root user under its own ServiceAccount with no API token', () => {
    for (const name of SERVICE_NAMES) {
      const { spec } = named('Deployment', name);
      const pod = spec.template.spec;
      const container = pod.containers[0]!;

      expect(selects(spec.selector, spec.template.metadata.labels)).toBe(true);
      expect({ name, liveness: container.livenessProbe.httpGet, readiness: container.readinessProbe.httpGet }).toEqual({
        name,
        liveness: { path: '/health', port: 'metrics' },
        readiness: { path: '/ready', port: 'metrics' },
      });
      expect(container.ports.map((port) => port.name)).toContain('metrics');
      for (const bound of ['requests', 'limits'] as const)
        expect({ name, bound, cpu: typeof container.resources[bound].cpu, memory: typeof container.resources[bound].memory }).toEqual({
          name,
          bound,
          cpu: 'string',
          memory: 'string',
        });
      expect({
        name,
        nonRoot: pod.securityContext.runAsNonRoot,
        uid: pod.securityContext.runAsUser,
        escalation: container.securityContext.allowPrivilegeEscalation,
        readOnly: container.securityContext.readOnlyRootFilesystem,
      }).toEqual({ name, nonRoot: true, uid: 1000, escalation: false, readOnly: true });
      expect({
        name,
        account: pod.serviceAccountName,
        token: pod.automountServiceAccountToken,
        accountToken: (named('ServiceAccount', name) as unknown as { automountServiceAccountToken: boolean }).automountServiceAccountToken,
      }).toEqual({ name, account: name, token: false, accountToken: false });
    }
  });

  it("when pods are scheduled, then each service's pods are spread across zones and nodes, by a selector of that service's pods only", () => {
    for (const name of SERVICE_NAMES) {
      const constraints = named('Deployment', name).spec.template.spec.topologySpreadConstraints ?? [];

      expect({ name, keys: constraints.map((constraint) => constraint.topologyKey) }).toEqual({
        name,
        keys: ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'],
      });
      for (const constraint of constraints)
        expect({ name, spreads: selectedServices(constraint.labelSelector), skew: constraint.maxSkew }).toEqual({ name, spreads: [name], skew: 1 });
    }
  });

  it('when a Service, autoscaler or disruption budget points at a service, then it selects exactly that service pods, on the ports its container declares', () => {
    for (const name of SERVICE_NAMES) {
      expect({ name, service: selectedServices({ matchLabels: named('Service', name).spec.selector }) }).toEqual({ name, service: [name] });
      expect({ name, budget: selectedServices(named('PodDisruptionBudget', name).spec.selector) }).toEqual({ name, budget: [name] });
      expect({ name, target: named('HorizontalPodAutoscaler', name).spec.scaleTargetRef }).toEqual({
        name,
        target: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      });
      expect({ name, servicePorts: named('Service', name).spec.ports.map((port) => port.targetPort) }).toEqual({
        name,
        servicePorts: named('Deployment', name).spec.template.spec.containers[0]!.ports.map((port) => port.name),
      });
    }
  });

  it('when a pod starts, then it reads its ConfigMap and mounts only its own Secrets (and the shared public keys) in the layout compose mounts; the gateway its edge certificate too; no environment value comes from a Secret', () => {
    for (const name of SERVICE_NAMES) {
      const pod = named('Deployment', name).spec.template.spec;
      const container = pod.containers[0]!;
      const mountedSecrets = pod.volumes
        .flatMap((volume) => (volume.projected?.sources ?? []).map((source) => source.secret?.name))
        .filter(Boolean)
        .sort();
      const projectedPaths = pod.volumes
        .flatMap((volume) => (volume.projected?.sources ?? []).flatMap((source) => (source.secret?.items ?? []).map((item) => item.path)))
        .sort();
      const edge = name === 'gateway' ? ['gateway-edge-tls'] : [];

      expect({ name, envFrom: container.envFrom, env: container.env }).toEqual({
        name,
        envFrom: [{ configMapRef: { name: `${name}-config` } }],
        env: undefined,
      });
      expect({ name, mountedSecrets }).toEqual({
        name,
        mountedSecrets: [`${name}-secrets`, `${name}-internal-jwt`, `${name}-internal-tls`, 'vaultline-internal-jwt-public-keys', ...edge].sort(),
      });
      expect({ name, projectedPaths }).toEqual({
        name,
        projectedPaths: [...Object.values(SECRET_FILES), ...(edge.length ? ['edge/tls.crt', 'edge/tls.key'] : [])].sort(),
      });
    }
  });

  it('when a ConfigMap is read, then it holds no secret (each only as *_FILE naming its mounted file), every internal URL is https://, and VAULTLINE_ENV is production', () => {
    for (const name of SERVICE_NAMES) {
      const data = named('ConfigMap', `${name}-config`).data!;
      const inlineSecrets = Object.entries(data).filter(
        ([variable, value]) => (SECRET_VARIABLES as readonly string[]).includes(variable) && !(variable === 'BUS_URL' && !value.includes('@')),
      );
      const plainHttp = Object.entries(data).filter(([, value]) => /^http:\/\//.test(value));

      expect({ name, inlineSecrets, plainHttp }).toEqual({ name, inlineSecrets: [], plainHttp: [] });
      expect(data).toMatchObject({ ...secretFileEnv(name), VAULTLINE_ENV: 'production', VAULT_URL: 'https://vault:8080', GATEWAY_URL: 'https://gateway:8081' });
      expect(Object.values(data).filter((value) => /:\/\/[^/@]+:[^/@]+@/.test(value))).toEqual([]);
    }
  });

  it('when a pod starts with the Secrets README.md describes, then the production check finds every link encrypted (the gateway: HTTPS on its merchant port from gateway-edge-tls)', () => {
    const secretsOf = (name: ServiceName): Record<string, string> => ({
      MONGO_URL: `mongodb://${name}:pw@mongo-1.mongodb:27017/vaultline_${name.replace(/-/g, '_')}?replicaSet=rs0&authSource=admin&tls=true&tlsCAFile=${SECRETS_DIR}/${SECRET_FILES.ca}`,
      REDIS_URL: `rediss://${name}:pw@redis.redis:6379`,
      KAFKA_SASL_USERNAME: name,
      KAFKA_SASL_PASSWORD: 'pw',
    });
    for (const name of SERVICE_NAMES) {
      const data = named('ConfigMap', `${name}-config`).data!;
      // The *_FILE variables as withSecretFiles reads them; the service's own keys play no part in the check.
      const fileVariables = Object.keys(data).filter(
        (variable) => variable.endsWith('_FILE') && (SECRET_VARIABLES as readonly string[]).includes(variable.slice(0, -5)),
      );
      const env: Record<string, string> = {
        ...Object.fromEntries(Object.entries(data).filter(([variable]) => !fileVariables.includes(variable))),
        ...secretsOf(name),
      };

      expect({ name, gaps: productionGaps(name, 'service', loadRuntimeConfig(env), env) }).toEqual({ name, gaps: [] });
    }
    expect(named('ConfigMap', 'gateway-config').data).toMatchObject({
      TLS_CERT_FILE: `${SECRETS_DIR}/edge/tls.crt`,
      TLS_KEY_FILE: `${SECRETS_DIR}/edge/tls.key`,
    });
  });

  it('when a rollout stops a pod, then preStop sleeps SHUTDOWN_DELAY_SECONDS, the grace period covers preStop, the delay and the drain, and no Deployment sets replicas beside its autoscaler', () => {
    for (const name of SERVICE_NAMES) {
      const { spec } = named('Deployment', name);
      const data = named('ConfigMap', `${name}-config`).data!;
      const delay = Number(data.SHUTDOWN_DELAY_SECONDS);

      expect({ name, replicas: spec.replicas }).toEqual({ name, replicas: undefined });
      expect(spec.template.spec.containers[0]!.lifecycle?.preStop?.exec?.command).toEqual(['sleep', String(delay)]);
      expect(spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(delay * 2 + Number(data.SHUTDOWN_GRACE_MS) / 1000);
    }
  });

  it('when a release is installed or upgraded, then each service migrates first: a pre-install,pre-upgrade hook Job running its image with `migrate`, named per release and revision, replaced (never patched) by the next, needing nothing the release creates', () => {
    for (const name of SERVICE_NAMES) {
      const job = migrateJobOf(name);
      const pod = job.spec.template.spec;
      const container = pod.containers[0]!;
      const account = all.find((manifest) => manifest.kind === 'ServiceAccount' && manifest.metadata.name === pod.serviceAccountName)!;

      expect({ name, annotations: job.metadata.annotations }).toEqual({
        name,
        annotations: { 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-weight': '0', 'helm.sh/hook-delete-policy': 'before-hook-creation' },
      });
      expect({ name, args: container.args, image: container.image }).toEqual({
        name,
        args: ['node', '--enable-source-maps', 'dist/main.js', 'migrate'],
        image: named('Deployment', name).spec.template.spec.containers[0]!.image,
      });
      // Its ServiceAccount is a hook of an earlier weight; no ConfigMap (created after the hook) is named.
      expect({ name, account: account.metadata.annotations }).toEqual({
        name,
        account: { 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-weight': '-10', 'helm.sh/hook-delete-policy': 'before-hook-creation' },
      });
      expect({ name, envFrom: container.envFrom }).toEqual({ name, envFrom: undefined });
    }
  });

  it('when a migrate Job runs, then it mounts only the store URL from its own Secret and the CA (no key-encryption key, JWT key or other credential), and its variables pass the production check', () => {
    for (const name of SERVICE_NAMES) {
      const pod = migrateJobOf(name).spec.template.spec;
      const items = pod.volumes.flatMap((volume) =>
        (volume.projected?.sources ?? []).flatMap((source) => (source.secret?.items ?? []).map((item) => `${source.secret!.name}:${item.key}→${item.path}`)),
      );
      const env = Object.fromEntries(pod.containers[0]!.env!.map((variable) => [variable.name, variable.value!]));

      expect({ name, items }).toEqual({ name, items: [`${name}-migrate-secrets:MONGO_URL→MONGO_URL`, `${name}-internal-tls:ca.crt→tls/ca.crt`] });
      expect({ name, secretVolumes: pod.volumes.filter((volume) => volume.secret).length }).toEqual({ name, secretVolumes: 0 });
      const resolved = { ...env, MONGO_URL_FILE: undefined, MONGO_URL: 'mongodb://migrate:pw@mongo:27017/db?tls=true' };
      expect({ name, gaps: productionGaps(name, 'migrate', loadRuntimeConfig(resolved), resolved) }).toEqual({ name, gaps: [] });
      expect(env.MONGO_URL_FILE).toBe(`${SECRETS_DIR}/MONGO_URL`);
    }
  });

  it('when a pod starts, then it gets the variables its docker-compose.yml container gets (which the compose test proves complete)', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { environment: Record<string, unknown> }>;
    };
    for (const name of SERVICE_NAMES) {
      const inPod = Object.keys(named('ConfigMap', `${name}-config`).data!).sort();
      const inCompose = Object.keys(compose.services[name]!.environment);
      // The gateway's internal port is set explicitly in the cluster (its Service names it), and the ingress controller is its trusted proxy.
      const clusterOnly = name === 'gateway' ? ['GATEWAY_INTERNAL_PORT', 'TRUST_PROXY'] : [];

      expect({ name, inPod }).toEqual({ name, inPod: [...new Set([...inCompose, ...clusterOnly])].sort() });
    }
  });

  it('when a pod starts, then it creates no Kafka topic (provisioned from deploy/kafka/topics.yaml), names topics and groups under the prefix, and its client after its service', () => {
    for (const name of SERVICE_NAMES) {
      const { KAFKA_SASL_MECHANISM: _mechanism, ...withoutSasl } = named('ConfigMap', `${name}-config`).data!;

      expect({ name, kafka: kafkaNamingOf(loadRuntimeConfig(withoutSasl), name) }).toEqual({
        name,
        kafka: { topicPrefix: 'vaultline.', groupPrefix: 'vaultline.', clientId: name, createTopics: false },
      });
    }
  });

  it('when the Kafka values change (group prefix, a client id, topic creation), then the ConfigMaps carry them', () => {
    const manifests = variant;
    const naming = (name: ServiceName) => {
      const { KAFKA_SASL_MECHANISM: _mechanism, ...withoutSasl } = named('ConfigMap', `${name}-config`, manifests).data!;
      return kafkaNamingOf(loadRuntimeConfig(withoutSasl), name);
    };

    expect(naming('notifier')).toEqual({ topicPrefix: 'vaultline.', groupPrefix: 'team-payments.', clientId: 'payments-notifier', createTopics: true });
    expect(naming('vault')).toEqual({ topicPrefix: 'vaultline.', groupPrefix: 'team-payments.', clientId: 'vault', createTopics: true });
  });

  it('when a service is disabled, then nothing of it is rendered: no workload, no policy naming it, no alert about it', () => {
    const manifests = variant;
    const text = JSON.stringify(manifests.filter((manifest) => manifest.kind !== 'ConfigMap'));
    const rules = (
      ofKind('PrometheusRule', manifests)[0]!.spec as unknown as { groups: Array<{ rules: Array<{ alert: string; labels?: { service?: string } }> }> }
    ).groups.flatMap((group) => group.rules);

    expect(manifests.filter((manifest) => manifest.metadata.labels?.['app.kubernetes.io/name']?.startsWith('importer'))).toEqual([]);
    expect(text).not.toContain('"app.kubernetes.io/name":"importer"');
    expect(rules.filter((rule) => rule.labels?.service === 'importer')).toEqual([]);
    expect(rules.filter((rule) => rule.alert === 'VaultlineServiceAbsent').map((rule) => rule.labels?.service)).toEqual([
      'gateway',
      'vault',
      'forwarder',
      'payment-orchestrator',
      'notifier',
    ]);
  });

  it('when a service values give an image digest, then that service runs its image by digest and the others by tag', () => {
    const [digest, manifests] = [DIGEST, variant];
    const imageOf = (name: ServiceName) => named('Deployment', name, manifests).spec.template.spec.containers[0]!.image;

    expect(imageOf('vault')).toBe(`registry.example.com/vaultline/vault@${digest}`);
    expect(migrateJobOf('vault', manifests).spec.template.spec.containers[0]!.image).toBe(`registry.example.com/vaultline/vault@${digest}`);
    expect(imageOf('gateway')).toBe('registry.example.com/vaultline/gateway:0.1.0');
  });

  it('when a value is misspelt or of the wrong kind (values.schema.json), then Helm refuses to render, naming it, instead of ignoring it (a digest that is not sha256 too)', () => {
    // Helm lists every violation at once.
    const error = renderError({
      services: { vault: { autoscalling: { enabled: false }, image: { digest: 'latest' } } },
      edge: { tls: { mode: 'none' } },
      networkPolicy: { platform: { kafka: { peers: [{ namespaceSelecter: {} }], ports: [9092] } } },
    });

    expect(error).toContain(`at '/services/vault': additional properties 'autoscalling' not allowed`);
    expect(error).toContain(`at '/services/vault/image/digest': 'latest' does not match pattern`);
    expect(error).toContain(`at '/edge/tls/mode'`);
    expect(error).toContain(`additional properties 'namespaceSelecter' not allowed`);
  });

  it('when the merchant edge is published, then the Ingress serves the public host over TLS to the gateway merchant port only, re-encrypting to its HTTPS', () => {
    const ingress = ofKind('Ingress')[0]! as unknown as {
      metadata: { annotations: Record<string, string> };
      spec: { tls: unknown; rules: Array<{ host: string; http: { paths: Array<{ backend: unknown }> } }> };
    };

    expect(ingress.spec.tls).toEqual([{ hosts: ['payments.example.com'], secretName: 'payments-example-com-tls' }]);
    expect(ingress.spec.rules.flatMap((rule) => rule.http.paths.map((path) => path.backend))).toEqual([
      { service: { name: 'gateway', port: { name: 'http' } } },
    ]);
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/backend-protocol']).toBe('HTTPS');
  });

  it('when a proxy terminates the edge TLS instead, then the gateway says so (EDGE_TLS_TERMINATED_BY_PROXY, TRUST_PROXY) and mounts no edge certificate; without a trusted proxy the render stops', () => {
    const manifests = renderChart({ edge: { tls: { mode: 'proxy' }, trustProxy: '10.0.0.0/8' } });
    const data = named('ConfigMap', 'gateway-config', manifests).data!;
    const sources = named('Deployment', 'gateway', manifests).spec.template.spec.volumes.flatMap((volume) =>
      (volume.projected?.sources ?? []).map((source) => source.secret?.name),
    );

    expect({ proxy: data.EDGE_TLS_TERMINATED_BY_PROXY, trust: data.TRUST_PROXY, cert: data.TLS_CERT_FILE }).toEqual({
      proxy: 'true',
      trust: '10.0.0.0/8',
      cert: undefined,
    });
    expect(sources).not.toContain('gateway-edge-tls');
    expect(renderError({ edge: { tls: { mode: 'proxy' }, trustProxy: '' } })).toContain('edge.tls.mode proxy needs edge.trustProxy');
  });

  it('when Prometheus discovers the services, then one ServiceMonitor scrapes every Service of the release on its metrics port, labelling targets with their service, keeping the services own labels', () => {
    const monitor = ofKind('ServiceMonitor')[0]! as unknown as {
      spec: {
        selector: LabelSelector;
        endpoints: Array<{ port: string; honorLabels: boolean; relabelings: Array<{ sourceLabels: string[]; targetLabel: string }> }>;
      };
    };
    const servicesSelected = ofKind('Service')
      .filter((service) => selects(monitor.spec.selector, service.metadata.labels!))
      .map((service) => service.metadata.name)
      .sort();

    expect(servicesSelected).toEqual([...SERVICE_NAMES].sort());
    expect(monitor.spec.endpoints).toEqual([
      expect.objectContaining({
        port: 'metrics',
        path: '/metrics',
        honorLabels: true,
        relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'], targetLabel: 'service', action: 'replace' }],
      }),
    ]);
  });

  it('when the alerts are installed, then the PrometheusRule holds deploy/prometheus/alerts.yml (the chart copy is identical)', () => {
    const source = readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8');
    const rule = ofKind('PrometheusRule')[0]! as unknown as { spec: unknown };

    expect(readFileSync(join(CHART, 'files/alerts.yml'), 'utf8')).toBe(source);
    expect(rule.spec).toEqual(parse(source, { merge: true }));
  });

  it('when the chart is rendered into its namespace, then every secret a pod names is one the chart README documents', () => {
    const readme = readFileSync(join(CHART, 'README.md'), 'utf8');
    const named_ = new Set(
      all.flatMap((manifest) => {
        const pod = (manifest as Typed).spec?.template?.spec;
        return (pod?.volumes ?? []).flatMap((volume) => (volume.projected?.sources ?? []).map((source) => source.secret!.name));
      }),
    );
    const documented = [...named_].map((secret) =>
      secret === 'gateway-edge-tls' ? secret : secret.replace(/^(gateway|vault|forwarder|importer|payment-orchestrator|notifier)-/, '<service>-'),
    );

    expect([...new Set(documented)].filter((secret) => !readme.includes(`\`${secret}\``))).toEqual([]);
    expect(documented).toEqual(
      expect.arrayContaining([
        '<service>-secrets',
        '<service>-migrate-secrets',
        '<service>-internal-jwt',
        '<service>-internal-tls',
        'vaultline-internal-jwt-public-keys',
        'gateway-edge-tls',
      ]),
    );
    for (const name of SERVICE_NAMES)
      for (const variable of secretVariablesOf(name)) expect({ variable, documented: readme.includes(variable) }).toEqual({ variable, documented: true });
  });
});
