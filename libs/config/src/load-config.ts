import { z } from 'zod';

/** Thrown at start when the environment does not satisfy the service's schema. */
export class ConfigError extends Error {
  readonly problems: { variable: string; reason: string }[];
  constructor(problems: { variable: string; reason: string }[]) {
    super(`invalid configuration: ${problems.map((p) => `${p.variable}: ${p.reason}`).join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses the environment once with the service's zod object schema (keys are variable names).
 * Empty strings count as unset so that `FOO=` in a .env file falls back to the default.
 * The error names every invalid variable and why, never its value (it may be a secret).
 */
export function loadConfig<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({
    variable: issue.path.length > 0 ? issue.path.map(String).join('.') : '(environment)',
    reason: describeIssue(issue, cleaned),
  }));
  throw new ConfigError(problems);
}

function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string>): string {
  const variable = issue.path[0];
  if (issue.code === 'invalid_type' && typeof variable === 'string' && !(variable in env)) return 'is required';
  return issue.message;
}
