import { InvalidArgumentError, type Command } from 'commander';
import { Vaultline, VaultlineAdmin, type ClientOptions } from '@vaultline/node';
import { UsageError } from './exit-codes';
import { stdoutOutput, type Output } from './output';

/** The options every command has (program.ts declares them), after the environment filled the gaps. */
interface GlobalOptions {
  apiKey?: string;
  adminKey?: string;
  baseUrl?: string;
  json?: boolean;
}

/** What a command needs: its clients, built on demand from the options and the environment, and its output. */
export interface CommandContext {
  merchant(): Vaultline;
  admin(): VaultlineAdmin;
  output: Output;
}

export function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const options = command.optsWithGlobals<GlobalOptions>();
  const baseUrl = options.baseUrl ?? env.VAULTLINE_BASE_URL;
  const clientOptions: ClientOptions = { ...(baseUrl ? { baseUrl } : {}), userAgent: 'vaultline-cli/0.1.0' };
  return {
    merchant: () => {
      const apiKey = options.apiKey ?? env.VAULTLINE_API_KEY;
      if (!apiKey) throw new UsageError('No API key: pass --api-key or set VAULTLINE_API_KEY (sk_test_… or sk_live_…).');
      if (!/^sk_(test|live)_/.test(apiKey)) throw new UsageError('The API key must start with sk_test_ or sk_live_.');
      return new Vaultline(apiKey, clientOptions);
    },
    admin: () => {
      const adminKey = options.adminKey ?? env.VAULTLINE_ADMIN_KEY;
      if (!adminKey) throw new UsageError('No admin key: pass --admin-key or set VAULTLINE_ADMIN_KEY (an operator key, X-Admin-Key).');
      return new VaultlineAdmin(adminKey, clientOptions);
    },
    output: stdoutOutput(options.json ?? false),
  };
}

/** Parses a whole-number option for commander (a wrong value is a usage error, exit 2). */
export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Not a whole number.');
  return Number(value);
}
