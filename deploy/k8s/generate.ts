/**
 * Kubernetes manifests for the six services, one file per service plus the network policies:
 *
 *   pnpm exec tsx deploy/k8s/generate.ts      rewrites deploy/k8s/*.yaml (committed; a test fails on drift)
 *
 * Plain manifests rather than a chart: nothing to install to render them, and what a platform team applies
 * is what is reviewed. Everything a cluster decides (the data stores' addresses, the public URL, image
 * names, sizes) is in PLATFORM and SIZES below: change it here and regenerate, or patch the output with
 * kustomize. Secrets are referenced, never written: deploy/README.md ("First deployment") creates them from
 * the files `generate-keys.ts` writes, one Secret per service, so a pod mounts only its own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SERVICE_NAMES, type ServiceName } from '../../libs/runtime/src/service-runtime';
import { SERVICE_SECRET_VARIABLES } from '../launcher/src/deploy-secrets';

export const PART_OF = 'vaultline';
export const HTTP_PORT = 8080;
/** The gateway's internal listener (import keys for the importer): never behind the ingress. */
export const GATEWAY_INTERNAL_PORT = 8081;
/** /metrics, apart from the API port (METRICS_PORT, the observability work's default). */
export const METRICS_PORT = 9464;
/** Pods that may call the vault's API: the only ones that handle card data on its behalf. */
export const VAULT_CALLERS: readonly ServiceName[] = ['gateway', 'forwarder', 'importer'];
/** Pods that reach the internet: processors, merchants' destinations, import providers and webhook endpoints. */
export const INTERNET_EGRESS: readonly ServiceName[] = ['forwarder', 'importer', 'notifier', 'payment-orchestrator'];
/** The namespace Prometheus runs in: it alone reaches the metrics port of the pods that restrict ingress. */
export const MONITORING_NAMESPACE = 'monitoring';
const SECRETS_DIR = '/run/secrets/vaultline';

/** What the cluster provides. The defaults match docker-compose.yml's names. */
const PLATFORM = {
  image: (service: ServiceName) => `vaultline/${service}:0.1.0`,
  BUS_URL: 'kafka://kafka:9092',
  STORE_URL: 'mongodb://mongo:27017/vaultline_{service}?replicaSet=rs0',
  TTL_URL: 'redis://redis:6379',
  PUBLIC_BASE_URL: 'https://payments.example.com',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
  LOG_LEVEL: 'info',
};

interface Size {
  cpu: [request: string, limit: string];
  memory: [request: string, limit: string];
  replicas: [min: number, max: number];
}
const SIZES: Record<ServiceName, Size> = {
  gateway: { cpu: ['250m', '1'], memory: ['256Mi', '512Mi'], replicas: [2, 10] },
  vault: { cpu: ['250m', '1'], memory: ['256Mi', '512Mi'], replicas: [2, 6] },
  forwarder: { cpu: ['250m', '1'], memory: ['256Mi', '512Mi'], replicas: [2, 10] },
  importer: { cpu: ['250m', '1'], memory: ['384Mi', '1Gi'], replicas: [2, 4] },
  'payment-orchestrator': { cpu: ['250m', '1'], memory: ['256Mi', '512Mi'], replicas: [2, 8] },
  notifier: { cpu: ['100m', '500m'], memory: ['256Mi', '512Mi'], replicas: [2, 6] },
};

export type Manifest = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [key: string]: unknown };

const podLabels = (service: ServiceName) => ({ 'app.kubernetes.io/name': service, 'app.kubernetes.io/part-of': PART_OF });
const labels = (service: ServiceName) => ({ ...podLabels(service), 'app.kubernetes.io/component': 'service' });
const selectorOf = (service: ServiceName) => ({ matchLabels: { 'app.kubernetes.io/name': service } });
const tcp = (port: number) => ({ protocol: 'TCP', port });

/** The Kubernetes Secret holding a service's symmetric secrets (keys: the variable names), if it has any. */
export const envSecretName = (service: ServiceName) => `${service}-secrets`;
/** The Kubernetes Secret holding a service's ES256 private key for internal JWTs (key: private-key.pem). */
export const jwtSecretName = (service: ServiceName) => `${service}-internal-jwt`;
export const PUBLIC_KEYS_SECRET = 'vaultline-internal-jwt-public-keys';

function configMap(service: ServiceName): Manifest {
  const urls = Object.fromEntries(
    SERVICE_NAMES.map((other) => [`${other.toUpperCase().replace(/-/g, '_')}_URL`, other === 'gateway' ? `http://gateway:${GATEWAY_INTERNAL_PORT}` : `http://${other}:${HTTP_PORT}`]),
  );
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${service}-config`, labels: labels(service) },
    data: {
      BUS_URL: PLATFORM.BUS_URL,
      STORE_URL: PLATFORM.STORE_URL,
      TTL_URL: PLATFORM.TTL_URL,
      PORT: String(HTTP_PORT),
      HOST: '0.0.0.0',
      ...(service === 'gateway' ? { GATEWAY_INTERNAL_HOST: '0.0.0.0', GATEWAY_INTERNAL_PORT: String(GATEWAY_INTERNAL_PORT) } : {}),
      PUBLIC_BASE_URL: PLATFORM.PUBLIC_BASE_URL,
      ...urls,
      INTERNAL_JWT_PRIVATE_KEY_FILE: `${SECRETS_DIR}/private-key.pem`,
      INTERNAL_JWT_PUBLIC_KEYS_FILE: `${SECRETS_DIR}/public-keys.json`,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: PLATFORM.OTEL_EXPORTER_OTLP_ENDPOINT,
      METRICS_PORT: String(METRICS_PORT),
      LOG_LEVEL: PLATFORM.LOG_LEVEL,
    },
  };
}

function deployment(service: ServiceName): Manifest {
  const size = SIZES[service];
  const secretVariables: readonly string[] = (SERVICE_SECRET_VARIABLES as Partial<Record<ServiceName, readonly string[]>>)[service] ?? [];
  const ports = [
    { name: 'http', containerPort: HTTP_PORT, protocol: 'TCP' },
    ...(service === 'gateway' ? [{ name: 'internal', containerPort: GATEWAY_INTERNAL_PORT, protocol: 'TCP' }] : []),
    { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
  ];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: service, labels: labels(service) },
    spec: {
      // The HorizontalPodAutoscaler owns the count; this is the count before it first acts.
      replicas: size.replicas[0],
      revisionHistoryLimit: 5,
      selector: selectorOf(service),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: {
          labels: podLabels(service),
          annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(METRICS_PORT), 'prometheus.io/path': '/metrics' },
        },
        spec: {
          automountServiceAccountToken: false,
          // Longer than the service's own drain (SIGTERM: stop accepting, finish in-flight work, flush the outbox).
          terminationGracePeriodSeconds: 45,
          securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selectorOf(service) }],
          containers: [
            {
              name: service,
              image: PLATFORM.image(service),
              imagePullPolicy: 'IfNotPresent',
              ports,
              envFrom: [{ configMapRef: { name: `${service}-config` } }],
              env: secretVariables.map((name) => ({ name, valueFrom: { secretKeyRef: { name: envSecretName(service), key: name } } })),
              // /health: the process answers (restart it if not); /ready: its store and bus subscriptions work (send it traffic).
              startupProbe: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 2, failureThreshold: 30 },
              livenessProbe: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
              readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 2 },
              resources: { requests: { cpu: size.cpu[0], memory: size.memory[0] }, limits: { cpu: size.cpu[1], memory: size.memory[1] } },
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [
                { name: 'secrets', mountPath: SECRETS_DIR, readOnly: true },
                { name: 'data', mountPath: '/app/data' },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            {
              name: 'secrets',
              projected: {
                // Readable by the image's user (uid 1000, group 1000 via fsGroup), by nobody else.
                defaultMode: 0o440,
                sources: [
                  { secret: { name: jwtSecretName(service), items: [{ key: 'private-key.pem', path: 'private-key.pem' }] } },
                  { secret: { name: PUBLIC_KEYS_SECRET, items: [{ key: 'public-keys.json', path: 'public-keys.json' }] } },
                ],
              },
            },
            { name: 'data', emptyDir: {} },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
  };
}

function service(name: ServiceName): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: labels(name) },
    spec: {
      type: 'ClusterIP',
      selector: podLabels(name),
      ports: [
        { name: 'http', port: HTTP_PORT, targetPort: 'http', protocol: 'TCP' },
        ...(name === 'gateway' ? [{ name: 'internal', port: GATEWAY_INTERNAL_PORT, targetPort: 'internal', protocol: 'TCP' }] : []),
        { name: 'metrics', port: METRICS_PORT, targetPort: 'metrics', protocol: 'TCP' },
      ],
    },
  };
}

function autoscaler(name: ServiceName): Manifest {
  const [minReplicas, maxReplicas] = SIZES[name].replicas;
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, labels: labels(name) },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas,
      maxReplicas,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      // Scale in slowly: a pod that stops drains its requests and hands its consumer partitions over.
      behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
    },
  };
}

function disruptionBudget(name: ServiceName): Manifest {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, labels: labels(name) }, spec: { maxUnavailable: 1, selector: selectorOf(name) } };
}

const pods = (...services: readonly ServiceName[]) => services.map((name) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/name': name } } }));
const monitoring = [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': MONITORING_NAMESPACE } } }];
const policy = (name: string, spec: Record<string, unknown>): Manifest => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name, labels: { 'app.kubernetes.io/part-of': PART_OF } },
  spec,
});

function networkPolicies(): Manifest[] {
  return [
    policy('vault-ingress', {
      podSelector: selectorOf('vault'),
      policyTypes: ['Ingress'],
      ingress: [
        { from: pods(...VAULT_CALLERS), ports: [tcp(HTTP_PORT)] },
        { from: monitoring, ports: [tcp(METRICS_PORT)] },
      ],
    }),
    policy('gateway-ingress', {
      podSelector: selectorOf('gateway'),
      policyTypes: ['Ingress'],
      ingress: [
        // The merchant edge: from the ingress controller and the load balancer, wherever they run.
        { ports: [tcp(HTTP_PORT)] },
        { from: pods('importer'), ports: [tcp(GATEWAY_INTERNAL_PORT)] },
        { from: monitoring, ports: [tcp(METRICS_PORT)] },
      ],
    }),
    // Every Vaultline pod: other pods of the cluster (services, Kafka, MongoDB, Redis, the collector) and DNS.
    // A data store outside the cluster (a managed Kafka or MongoDB) needs an ipBlock rule added here.
    policy('vaultline-egress-cluster', {
      podSelector: { matchLabels: { 'app.kubernetes.io/part-of': PART_OF } },
      policyTypes: ['Egress'],
      egress: [{ to: [{ namespaceSelector: {} }] }, { ports: [{ protocol: 'UDP', port: 53 }, tcp(53)] }],
    }),
    // Public addresses only: no private ranges (a destination URL cannot reach into the network) and no
    // link-local (the cloud metadata endpoint). Policies add up: these pods keep the cluster rule too.
    policy('vaultline-egress-internet', {
      podSelector: { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: [...INTERNET_EGRESS] }] },
      policyTypes: ['Egress'],
      egress: [
        {
          to: [
            { ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8'] } },
            { ipBlock: { cidr: '::/0', except: ['fc00::/7', 'fe80::/10', '::1/128'] } },
          ],
        },
      ],
    }),
  ];
}

/** File name (in deploy/k8s/) → the manifests it holds. */
export function renderManifests(): Record<string, Manifest[]> {
  const files: Record<string, Manifest[]> = {};
  for (const name of SERVICE_NAMES) files[`${name}.yaml`] = [configMap(name), deployment(name), service(name), autoscaler(name), disruptionBudget(name)];
  files['network-policies.yaml'] = networkPolicies();
  return files;
}

export function toYaml(manifests: Manifest[]): string {
  const header = '# Generated by deploy/k8s/generate.ts: edit that file and run `pnpm exec tsx deploy/k8s/generate.ts`.\n';
  return header + manifests.map((manifest) => stringify(manifest, { lineWidth: 0 })).join('---\n');
}

if (require.main === module) {
  for (const [file, manifests] of Object.entries(renderManifests())) writeFileSync(join(__dirname, file), toYaml(manifests));
}
