// Validates Kubernetes manifests against the JSON schemas of the Kubernetes API (kubernetes-models, generated
// from the API's OpenAPI document of a current release). A separate process: kubernetes-models is an ES
// module, which jest's CommonJS runtime does not load.
//   node test-e2e/support/validate-k8s.mjs < manifests.json   prints [{ kind, name, errors }] for each manifest
import { readFileSync } from 'node:fs';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';

const MODELS = { ConfigMap, Service, Deployment, HorizontalPodAutoscaler, PodDisruptionBudget, NetworkPolicy };

const manifests = JSON.parse(readFileSync(0, 'utf8'));
const results = manifests.map((manifest) => {
  const Model = MODELS[manifest.kind];
  const name = manifest.metadata?.name;
  if (!Model) return { kind: manifest.kind, name, errors: [`no schema for kind ${manifest.kind}`] };
  if (manifest.apiVersion !== Model.apiVersion) return { kind: manifest.kind, name, errors: [`apiVersion ${manifest.apiVersion}, expected ${Model.apiVersion}`] };
  try {
    new Model(manifest).validate();
    return { kind: manifest.kind, name, errors: [] };
  } catch (error) {
    const details = error.errors?.map((e) => `${e.instancePath} ${e.message}`) ?? [error.message];
    return { kind: manifest.kind, name, errors: details };
  }
});
process.stdout.write(JSON.stringify(results));
