import type { JsonObject } from './openapi-fragment';

/**
 * The components (`schemas/Name`, `responses/Name`…) reachable from `root` through local $refs, followed
 * transitively, plus the security schemes its security requirements name.
 */
export function referencedComponents(root: JsonObject, components: Record<string, Record<string, JsonObject>>): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/')) {
        const name = item.slice('#/components/'.length);
        if (found.has(name)) continue;
        found.add(name);
        const [kind, component] = name.split('/') as [string, string];
        visit(components[kind]?.[component]);
      } else if (key === 'security' && Array.isArray(item)) {
        for (const requirement of item as Array<Record<string, unknown>>) for (const scheme of Object.keys(requirement)) found.add(`securitySchemes/${scheme}`);
      } else {
        visit(item);
      }
    }
  };
  visit(root);
  return found;
}
