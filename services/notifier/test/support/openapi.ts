import { validateAgainstOpenApi } from '@vaultline/contracts';

/** Fails the test with the schema errors when a real response does not match the documented one. */
export function expectDocumented(method: string, pathTemplate: string, response: { status: number; body: unknown }): void {
  const result = validateAgainstOpenApi(method, pathTemplate, response.status, response.body);
  if (!result.valid) throw new Error(`${method} ${pathTemplate} ${response.status} does not match the OpenAPI document: ${result.errors.join('; ')}`);
}
