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
import { SECRET_FILES, SECRETS_DIR, secretFileEnv } from '../launcher/src/deploy-secrets';

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
/** SIGTERM: unready and still serving this long (SHUTDOWN_DELAY_SECONDS), then draining for at most SHUTDOWN_GRACE_MS. */
export const SHUTDOWN_DELAY_SECONDS = 5;
export const SHUTDOWN_GRACE_MS = 20_000;
/** The preStop hook sleeps as long as the delay: endpoints drop the pod before the process even hears SIGTERM. */
export const PRESTOP_SLEEP_SECONDS = SHUTDOWN_DELAY_SECONDS;
/** preStop, then the delay, then the drain, plus a margin: what the kubelet waits before SIGKILL. */
export const TERMINATION_GRACE_SECONDS = PRESTOP_SLEEP_SECONDS + SHUTDOWN_DELAY_SECONDS + SHUTDOWN_GRACE_MS / 1000 + 10;

/** What the cluster provides. The defaults match docker-compose.yml's names. */
const PLATFORM = {
  image: (service: ServiceName) => `vaultline/${service}:0.1.0`,
  // Brokers only: the user and password are in the service's Secret (KAFKA_SASL_*_FILE), TLS to them always.
  BUS_URL: 'kafka://kafka:9092',
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  // Every topic and group under the environment's prefix; the topics are provisioned from deploy/kafka/topics.yaml
  // (deploy/kafka/provision.ts), so the services create none and stop at start when one is missing.
  KAFKA_TOPIC_PREFIX: 'vaultline.',
  KAFKA_CREATE_TOPICS: 'false',
  // MongoDB and Redis URLs carry credentials: they are in the service's Secret (MONGO_URL, REDIS_URL), not here.
  PUBLIC_BASE_URL: 'https://payments.example.com',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel-collector:4318',
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

/** The Kubernetes Secret holding a service's secret variables, one key (and file) each: MONGO_URL, REDIS_URL, KAFKA_SASL_*, its own keys. */
export const envSecretName = (service: ServiceName) => `${service}-secrets`;
/** The service's certificate for mutual TLS (kubernetes.io/tls: tls.crt, tls.key, ca.crt), as cert-manager writes it. */
export const tlsSecretName = (service: ServiceName) => `${service}-internal-tls`;
/** The Kubernetes Secret holding a service's ES256 private key for internal JWTs (key: private-key.pem). */
export const jwtSecretName = (service: ServiceName) => `${service}-internal-jwt`;
export const PUBLIC_KEYS_SECRET = 'vaultline-internal-jwt-public-keys';

function configMap(service: ServiceName): Manifest {
  // Mutual TLS between the services: every internal URL is https:// (the gateway's internal listener for the gateway).
  const urls = Object.fromEntries(
    SERVICE_NAMES.map((other) => [`${other.toUpperCase().replace(/-/g, '_')}_URL`, other === 'gateway' ? `https://gateway:${GATEWAY_INTERNAL_PORT}` : `https://${other}:${HTTP_PORT}`]),
  );
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${service}-config`, labels: labels(service) },
    data: {
      BUS_URL: PLATFORM.BUS_URL,
      KAFKA_SASL_MECHANISM: PLATFORM.KAFKA_SASL_MECHANISM,
      KAFKA_TOPIC_PREFIX: PLATFORM.KAFKA_TOPIC_PREFIX,
      KAFKA_CREATE_TOPICS: PLATFORM.KAFKA_CREATE_TOPICS,
      PORT: String(HTTP_PORT),
      HOST: '0.0.0.0',
      ...(service === 'gateway' ? { GATEWAY_INTERNAL_HOST: '0.0.0.0', GATEWAY_INTERNAL_PORT: String(GATEWAY_INTERNAL_PORT) } : {}),
      PUBLIC_BASE_URL: PLATFORM.PUBLIC_BASE_URL,
      ...urls,
      ...secretFileEnv(service),
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: PLATFORM.OTEL_EXPORTER_OTLP_ENDPOINT,
      METRICS_PORT: String(METRICS_PORT),
      SHUTDOWN_DELAY_SECONDS: String(SHUTDOWN_DELAY_SECONDS),
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      BUS_UNHEALTHY_AFTER_SECONDS: '30',
      PROCESSED_EVENTS_RETENTION_DAYS: '14',
      LOG_LEVEL: PLATFORM.LOG_LEVEL,
    },
  };
}

/** The pod's secrets, as files under SECRETS_DIR (the layout compose mounts from deploy/secrets/<service>/). */
function secretsVolume(service: ServiceName) {
  return {
    name: 'secrets',
    projected: {
      // Readable by the image's user (uid 1000, group 1000 via fsGroup), by nobody else.
      defaultMode: 0o440,
      sources: [
        { secret: { name: envSecretName(service) } },
        { secret: { name: jwtSecretName(service), items: [{ key: 'private-key.pem', path: SECRET_FILES.privateKey }] } },
        { secret: { name: PUBLIC_KEYS_SECRET, items: [{ key: 'public-keys.json', path: SECRET_FILES.publicKeys }] } },
        {
          secret: {
            name: tlsSecretName(service),
            items: [
              { key: 'tls.crt', path: SECRET_FILES.cert },
              { key: 'tls.key', path: SECRET_FILES.key },
              { key: 'ca.crt', path: SECRET_FILES.ca },
            ],
          },
        },
      ],
    },
  };
}

const podSecurityContext = { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } };
const containerSecurityContext = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
const mounts = [
  { name: 'secrets', mountPath: SECRETS_DIR, readOnly: true },
  { name: 'data', mountPath: '/app/data' },
  { name: 'tmp', mountPath: '/tmp' },
];

/**
 * `<service> migrate`: creates the service's collections and indexes (the services only check them), once
 * per release, before the Deployment's pods can start (they refuse to, naming the missing indexes).
 */
function migrateJob(service: ServiceName): Manifest {
  const jobLabels = { 'app.kubernetes.io/name': `${service}-migrate`, 'app.kubernetes.io/part-of': PART_OF, 'app.kubernetes.io/component': 'migrate' };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: `${service}-migrate`, labels: jobLabels },
    spec: {
      backoffLimit: 6,
      activeDeadlineSeconds: 600,
      // Gone a day after it finished: the next release's apply creates (and runs) it again.
      ttlSecondsAfterFinished: 86_400,
      template: {
        metadata: { labels: jobLabels },
        spec: {
          automountServiceAccountToken: false,
          restartPolicy: 'OnFailure',
          securityContext: podSecurityContext,
          containers: [
            {
              name: 'migrate',
              image: PLATFORM.image(service),
              imagePullPolicy: 'IfNotPresent',
              args: ['node', '--enable-source-maps', 'dist/main.js', 'migrate'],
              envFrom: [{ configMapRef: { name: `${service}-config` } }],
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
              securityContext: containerSecurityContext,
              volumeMounts: mounts,
            },
          ],
          volumes: [secretsVolume(service), { name: 'data', emptyDir: {} }, { name: 'tmp', emptyDir: {} }],
        },
      },
    },
  };
}

function deployment(service: ServiceName): Manifest {
  const size = SIZES[service];
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
      // No replicas: the HorizontalPodAutoscaler owns the count (a count here would reset it at every apply).
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
          // preStop, then SHUTDOWN_DELAY_SECONDS unready but serving, then the drain (SHUTDOWN_GRACE_MS), plus a margin.
          terminationGracePeriodSeconds: TERMINATION_GRACE_SECONDS,
          securityContext: podSecurityContext,
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selectorOf(service) }],
          containers: [
            {
              name: service,
              image: PLATFORM.image(service),
              imagePullPolicy: 'IfNotPresent',
              ports,
              // Every secret is a file (SECRETS_DIR, named by the ConfigMap's *_FILE): none is an environment value.
              envFrom: [{ configMapRef: { name: `${service}-config` } }],
              // On the metrics port (plain HTTP, no card data): the API port takes only mutual-TLS clients, and a
              // kubelet presents no certificate. /health: the process answers (restart it if not); /ready: its store
              // and bus subscriptions work (send it traffic). Indexes are the migrate Job's: a start is seconds.
              startupProbe: { httpGet: { path: '/health', port: 'metrics' }, periodSeconds: 2, failureThreshold: 30 },
              livenessProbe: { httpGet: { path: '/health', port: 'metrics' }, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
              readinessProbe: { httpGet: { path: '/ready', port: 'metrics' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 2 },
              lifecycle: { preStop: { exec: { command: ['sleep', String(PRESTOP_SLEEP_SECONDS)] } } },
              resources: { requests: { cpu: size.cpu[0], memory: size.memory[0] }, limits: { cpu: size.cpu[1], memory: size.memory[1] } },
              securityContext: containerSecurityContext,
              volumeMounts: mounts,
            },
          ],
          volumes: [secretsVolume(service), { name: 'data', emptyDir: {} }, { name: 'tmp', emptyDir: {} }],
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
  for (const name of SERVICE_NAMES) files[`${name}.yaml`] = [configMap(name), migrateJob(name), deployment(name), service(name), autoscaler(name), disruptionBudget(name)];
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
