import { paymentsPathOf } from '@vaultline/contracts';
import type { ProcessorAccountPolicy } from '../domain/processor-accounts/processor-account-ports';
import { maskedHint } from '../domain/processor-accounts/processor-account';
import type { ProcessorPlugins } from './processor-plugin';

/** What the registered plugins say of their accounts (their manifests and credentials schemas): credentials, the secret the hint shows, settings, where payments go under a base URL. */
export function accountPolicy(plugins: ProcessorPlugins): ProcessorAccountPolicy {
  const pluginOf = (processor: string) => {
    const plugin = plugins[processor];
    if (!plugin) throw new Error(`no processor plugin ${processor}`);
    return plugin;
  };
  return {
    processors: () => Object.keys(plugins),
    validateCredentials(processor, credentials) {
      const plugin = pluginOf(processor);
      const parsed = plugin.credentials.safeParse(credentials);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
        const field = key ? `credentials.${key}` : 'credentials';
        // The message names the rule, never the value given (it may be a secret).
        const detail = issue.code === 'unrecognized_keys' ? `${field} is not a ${processor} credential.` : `${field}: ${issue.message}`;
        const code = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : undefined;
        return code ? { ok: false, field, detail, code } : { ok: false, field, detail };
      }
      const secretField = plugin.manifest.credentials.secret_field;
      const secret = secretField ? parsed.data[secretField] : undefined;
      return { ok: true, hint: maskedHint(typeof secret === 'string' ? secret : undefined) };
    },
    validateSettings(processor, settings) {
      const { manifest, extraSettings } = pluginOf(processor);
      const taken = (key: string) => manifest.settings.some((setting) => setting.name === key) || (extraSettings !== undefined && key in extraSettings);
      const extra = (Object.keys(settings) as Array<keyof typeof settings>).find((key) => key !== 'base_url' && settings[key] !== undefined && !taken(key));
      return extra ? { ok: false, field: `settings.${extra}`, detail: `${manifest.display_name} accounts do not take settings.${extra}.` } : { ok: true };
    },
    settingsView(processor, settings) {
      // The settings its manifest lists (and its plugin's extra ones), each with its default when the account has none.
      const defaults = {
        ...Object.fromEntries((plugins[processor]?.manifest.settings ?? []).map((setting) => [setting.name, setting.default])),
        ...plugins[processor]?.extraSettings,
      };
      return { ...defaults, ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) } as typeof settings;
    },
    paymentsUrl(processor, baseUrl) {
      return `${baseUrl.replace(/\/+$/, '')}${paymentsPathOf(pluginOf(processor).manifest) ?? ''}`;
    },
  };
}
