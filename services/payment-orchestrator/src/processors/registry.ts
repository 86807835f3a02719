import { ConfigError } from '@vaultline/config';
import type { ProcessorConnection, ProcessorId, Processors } from '../domain/ports';
import type { ProcessorContext, ProcessorPlugin } from './processor-plugin';
import { simulator } from './simulator';

/**
 * The processors opened once at start from configuration: adding one is a folder and a line here. Real
 * processors (adyen, checkout) are opened per processor account, with the account's credentials.
 */
// Each plugin has its own options type; the registry only needs them to agree with their own schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const processorPlugins = { simulator } satisfies Partial<Record<ProcessorId, ProcessorPlugin<any>>>;

/** Options by processor id, as configuration read them (PROCESSOR_<ID>_* variables). */
export type ProcessorOptions = Partial<Record<ProcessorId, unknown>>;

/** Validates every plugin's options (a bad one stops the start, naming the plugin) and opens the connections. */
export function openProcessors(options: ProcessorOptions, context: ProcessorContext): Processors {
  const connections = new Map<string, ProcessorConnection>();
  for (const [id, plugin] of Object.entries(processorPlugins) as Array<[ProcessorId, ProcessorPlugin]>) {
    const parsed = plugin.optionsSchema.safeParse(options[id] ?? {});
    if (!parsed.success) {
      throw new ConfigError(parsed.error.issues.map((issue) => ({ variable: `processor ${id} ${issue.path.join('.') || 'options'}`, reason: issue.message })));
    }
    connections.set(id, plugin.open(parsed.data, context));
  }
  const ids = [...connections.keys()];
  return { get: (id) => connections.get(id), ids: () => ids };
}
