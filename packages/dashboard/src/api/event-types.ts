// The event types a webhook endpoint can subscribe to and the event log can be filtered by: read from the
// API's own OpenAPI document (/openapi.json, served by the same gateway), so the dashboard never holds a list
// of its own that could fall behind the catalog.

let cached: Promise<string[]> | null = null;

/** The subscribable event types the document declares (CreateWebhookEndpointRequest.events), in its order. */
export function eventTypesOf(document: unknown): string[] {
  const schemas = (document as { components?: { schemas?: Record<string, { properties?: Record<string, { items?: { enum?: unknown } }> }> } }).components
    ?.schemas;
  const types = schemas?.CreateWebhookEndpointRequest?.properties?.events?.items?.enum;
  return Array.isArray(types) ? types.filter((type): type is string => typeof type === 'string') : [];
}

/** The event types, fetched once per page load. */
export function loadEventTypes(): Promise<string[]> {
  cached ??= fetch('/openapi.json', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then((response) => {
      if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
      return response.json() as Promise<unknown>;
    })
    .then(eventTypesOf)
    .catch((error: unknown) => {
      cached = null;
      throw error;
    });
  return cached;
}

/** Event types by their resource (payment, refund, dispute…): how the endpoint form groups its checkboxes. */
export function groupedEventTypes(types: string[]): Array<{ group: string; types: string[] }> {
  const groups = new Map<string, string[]>();
  for (const type of types) {
    const group = type.split('.')[0] ?? type;
    groups.set(group, [...(groups.get(group) ?? []), type]);
  }
  return [...groups].map(([group, members]) => ({ group, types: members }));
}
