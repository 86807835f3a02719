import { ConfigError } from '@vaultline/config';
import type { ProcessorConnection, Processors } from '../domain/processor-port/processor-port';
import type { BuiltInProcessorPlugin, ProcessorContext, ProcessorPlugin, ProcessorPlugins } from './processor-plugin';
import { adyen } from './adyen';
import { checkout } from './checkout';
import { simulator } from './simulator';
import { stripe } from './stripe';
import { withAmounts } from './processor-directory';

/** Every processor: adding one is its folder and one line here. */
export const processorPlugins = {
  simulator,
  adyen,
  checkout,
  stripe,
} satisfies Record<string, ProcessorPlugin>;

/** A processor's id: the registry's keys. */
export type ProcessorId = keyof typeof processorPlugins;

/** Options by processor id, as configuration read them (PROCESSOR_<ID>_* variables), for the processors opened at start. */
export type ProcessorOptions = Partial<Record<ProcessorId, unknown>>;

/** Validates the options of every plugin opened at start (a bad one stops the start, naming the plugin) and opens their connections. */
export function openProcessors(plugins: ProcessorPlugins, options: Readonly<Record<string, unknown>>, context: ProcessorContext): Processors {
  const connections = new Map<string, ProcessorConnection>();
  for (const plugin of Object.values(plugins).filter((candidate): candidate is BuiltInProcessorPlugin => candidate.opens === 'at_start')) {
    const { id } = plugin.manifest;
    const parsed = plugin.optionsSchema.safeParse(options[id] ?? {});
    if (!parsed.success) {
      throw new ConfigError(parsed.error.issues.map((issue) => ({ variable: `processor ${id} ${issue.path.join('.') || 'options'}`, reason: issue.message })));
    }
    connections.set(id, withAmounts(plugin.open(parsed.data, context), plugin.amounts));
  }
  const ids = [...connections.keys()];
  return { get: (id) => connections.get(id), ids: () => ids };
}
