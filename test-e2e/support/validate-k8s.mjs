// Validates Kubernetes manifests against the JSON schemas of the Kubernetes API (kubernetes-models, generated
// from the API's OpenAPI document of a current release), strictly: a field the schema does not declare is an
// error, as `kubectl apply --validate=strict` (server-side field validation) makes it.
//
// kubernetes-models ships its schemas as compiled validators that ignore undeclared fields. A compiled
// validator reads every field its schema declares (`data.readinessProbe` …) and enumerates the keys of maps
// (labels, ConfigMap data). So each manifest is validated through proxies that record the reads: a key of
// a non-map object that the validator never read is a field the schema does not know.
// A separate process: kubernetes-models is an ES module, which jest's CommonJS runtime does not load.
//   node test-e2e/support/validate-k8s.mjs < manifests.json   prints [{ kind, name, errors }] for each manifest
import { readFileSync } from 'node:fs';
import { validate as configMap } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap';
import { validate as service } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Service';
import { validate as deployment } from 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment';
import { validate as job } from 'kubernetes-models/_schemas/IoK8sApiBatchV1Job';
import { validate as autoscaler } from 'kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscaler';
import { validate as disruptionBudget } from 'kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget';
import { validate as networkPolicy } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1NetworkPolicy';
import { validate as serviceAccount } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ServiceAccount';
import { validate as ingress } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1Ingress';

// The Prometheus Operator's custom resources, from its CRDs' schemas (compiled validators of the same kind; the
// package exports only its models, so the schema files are imported by their path, beside the model's).
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
const operatorSchema = async (name) =>
  (
    await import(
      new URL(
        `../../_schemas/ComGithubPrometheusOperatorPrometheusOperatorPkgApisMonitoringV1${name}.js`,
        import.meta.resolve('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor'),
      ).href
    )
  ).validate;
const serviceMonitor = await operatorSchema('ServiceMonitor');
const prometheusRule = await operatorSchema('PrometheusRule');

const SCHEMAS = {
  ConfigMap: ['v1', configMap],
  Service: ['v1', service],
  Deployment: ['apps/v1', deployment],
  Job: ['batch/v1', job],
  HorizontalPodAutoscaler: ['autoscaling/v2', autoscaler],
  PodDisruptionBudget: ['policy/v1', disruptionBudget],
  NetworkPolicy: ['networking.k8s.io/v1', networkPolicy],
  ServiceAccount: ['v1', serviceAccount],
  Ingress: ['networking.k8s.io/v1', ingress],
  ServiceMonitor: [ServiceMonitor.apiVersion, serviceMonitor],
  PrometheusRule: [ServiceMonitor.apiVersion, prometheusRule],
};

/** A view of `value` whose objects record which keys were read (`reads`) and which were enumerated (maps). */
function tracked(value, reads, enumerated) {
  if (value === null || typeof value !== 'object') return value;
  reads.set(value, reads.get(value) ?? new Set());
  return new Proxy(value, {
    get(target, key) {
      if (typeof key === 'string') reads.get(target).add(key);
      return tracked(Reflect.get(target, key), reads, enumerated);
    },
    has(target, key) {
      if (typeof key === 'string') reads.get(target).add(key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      enumerated.add(target);
      return Reflect.ownKeys(target);
    },
  });
}

/** Keys of non-map objects the validator never read, as JSON pointers. */
function unknownFields(value, reads, enumerated, path = '') {
  if (value === null || typeof value !== 'object') return [];
  const found = [];
  for (const [key, child] of Object.entries(value)) {
    const pointer = `${path}/${key}`;
    if (!Array.isArray(value) && !enumerated.has(value) && !reads.get(value)?.has(key))
      found.push(`${pointer} is not a field of the Kubernetes API (unknown field)`);
    else found.push(...unknownFields(child, reads, enumerated, pointer));
  }
  return found;
}

const manifests = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const manifest of manifests) {
  const name = manifest.metadata?.name;
  const schema = SCHEMAS[manifest.kind];
  if (!schema) {
    results.push({ kind: manifest.kind, name, errors: [`no schema for kind ${manifest.kind}`] });
    continue;
  }
  const [apiVersion, validate] = schema;
  if (manifest.apiVersion !== apiVersion) {
    results.push({ kind: manifest.kind, name, errors: [`apiVersion ${manifest.apiVersion}, expected ${apiVersion}`] });
    continue;
  }
  const reads = new Map();
  const enumerated = new Set();
  const valid = validate(tracked(manifest, reads, enumerated));
  const errors = valid ? [] : validate.errors.map((e) => `${e.instancePath} must ${describe(e)}`);
  results.push({ kind: manifest.kind, name, errors: [...errors, ...unknownFields(manifest, reads, enumerated)] });
}
process.stdout.write(JSON.stringify(results));

function describe(error) {
  const { keyword, params } = error;
  if (keyword === 'type') return `be ${params.type}`;
  if (keyword === 'required') return `have required property '${params.missingProperty}'`;
  if (keyword === 'enum') return `be equal to one of the allowed values`;
  if (keyword === 'format') return `match format "${params.format}"`;
  return `satisfy ${keyword} ${JSON.stringify(params)}`;
}
