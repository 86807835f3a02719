#!/usr/bin/env node
import { CommanderError } from 'commander';
import { VaultlineConnectionError, VaultlineError } from '@vaultline/node';
import { EXIT, UsageError } from './exit-codes';
import { buildProgram } from './program';

/** Runs one command line and answers its exit code (README.md, "Exit codes"). */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, successfully; commander has printed what it had to.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof VaultlineError) {
      if (json) process.stderr.write(`${JSON.stringify(error.problem ?? { status: error.status, code: error.code, detail: error.detail })}\n`);
      else
        process.stderr.write(
          `error: ${error.status} ${error.code}: ${error.detail}${error.field ? ` (field: ${error.field})` : ''}${error.requestId ? ` [request id ${error.requestId}]` : ''}\n`,
        );
      return EXIT.apiError;
    }
    if (error instanceof VaultlineConnectionError) {
      process.stderr.write(`error: the API could not be reached: ${error.message}\n`);
      return EXIT.unreachable;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`vaultline: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
