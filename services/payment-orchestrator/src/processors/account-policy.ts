import type { ProcessorAccountPolicy } from '../domain/processor-accounts/processor-account-ports';
import { maskedHint } from '../domain/processor-accounts/processor-account';
import type { ProcessorPlugins } from './processor-plugin';

/** What the registered plugins say of their accounts: credentials, the secret the hint shows, settings, where payments go under a base URL. */
export function accountPolicy(plugins: ProcessorPlugins): ProcessorAccountPolicy {
  const pluginOf = (processor: string) => {
    const plugin = plugins[processor];
    if (!plugin) throw new Error(`no processor plugin ${processor}`);
    return plugin;
  };
  return {
    processors: () => Object.keys(plugins),
    validateCredentials(processor, credentials) {
      const { account } = pluginOf(processor);
      const parsed = account.credentials.safeParse(credentials);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
        const field = key ? `credentials.${key}` : 'credentials';
        // The message names the rule, never the value given (it may be a secret).
        const detail = issue.code === 'unrecognized_keys' ? `${field} is not a ${processor} credential.` : `${field}: ${issue.message}`;
        const code = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : undefined;
        return code ? { ok: false, field, detail, code } : { ok: false, field, detail };
      }
      const secret = account.secretField ? parsed.data[account.secretField] : undefined;
      return { ok: true, hint: maskedHint(typeof secret === 'string' ? secret : undefined) };
    },
    validateSettings(processor, settings) {
      const { account, displayName } = pluginOf(processor);
      const extra = (Object.keys(settings) as Array<keyof typeof settings>).find((key) => key !== 'base_url' && settings[key] !== undefined && !(account.settings ?? []).includes(key));
      return extra ? { ok: false, field: `settings.${extra}`, detail: `${displayName} accounts do not take settings.${extra}.` } : { ok: true };
    },
    settingsView(processor, settings) {
      return plugins[processor]?.account.settingsView?.(settings) ?? settings;
    },
    paymentsUrl(processor, baseUrl) {
      return `${baseUrl.replace(/\/+$/, '')}${pluginOf(processor).account.paymentsPath}`;
    },
  };
}
