/** The exit codes of `vaultline` (README.md, "Exit codes"): scripts branch on them. */
export const EXIT = {
  ok: 0,
  /** The API answered with an error (a problem: status, code, detail). */
  apiError: 1,
  /** The command line was wrong: unknown command or option, missing argument, no API key, unreadable file. */
  usage: 2,
  /** The API could not be reached (refused, reset or timed out, after the retries). */
  unreachable: 3,
} as const;

/** A mistake in what the user typed or gave (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
