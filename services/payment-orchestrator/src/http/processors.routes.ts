import type { Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { requireScope } from '@vaultline/http';
import type { ProcessorPlugin, ProcessorPlugins } from '../processors/processor-plugin';

/**
 * What a merchant may know of a processor: its manifest's id, name, credential fields (which are secret,
 * which one the account's hint shows) and settings, whether it notifies, and what it can do. Not its
 * hosts: an account reaches them by itself (or through its base_url), and they are the operator's to
 * allow.
 */
function toProcessorView(plugin: ProcessorPlugin) {
  const { manifest, capabilities } = plugin;
  return {
    id: manifest.id,
    object: 'processor' as const,
    display_name: manifest.display_name,
    credentials: {
      secret_field: manifest.credentials.secret_field,
      fields: manifest.credentials.fields.map(({ name, label, secret, required, description }) => ({ name, label, secret, required, description })),
    },
    settings: manifest.settings.map(({ name, label, type, default: value, description }) => ({ name, label, type, default: value, description })),
    notifies: plugin.notifications !== undefined,
    capabilities: {
      modes: [...capabilities.modes],
      authorize: capabilities.authorize,
      capture: capabilities.capture,
      partial_capture: capabilities.partialCapture,
      multiple_captures: capabilities.multipleCaptures,
      authentication_3ds: capabilities.authentication3ds,
      authentication_3ri: capabilities.authentication3ri,
      risk: capabilities.risk,
      explicit_unscheduled: capabilities.explicitUnscheduledMit,
    },
  };
}

/** GET /processors: the registered processors (the same for every merchant and mode), for forms that add an account. */
export function processorRoutes(router: Router, plugins: ProcessorPlugins): void {
  const list = { object: 'list' as const, data: Object.values(plugins).map(toProcessorView) };
  router.get('/processors', requireScope(SCOPES.merchant), (_req, res) => {
    res.json(list);
  });
}
