import { join } from 'node:path';
import {
  SDKS,
  installSdkTestDeps,
  logWorthy,
  merchantRouteCount,
  run,
  startContractService,
  type CommandResult,
  type ContractService,
} from './support/sdk-polyglot';

/**
 * The Go SDK (sdks/go) in CI: go vet, then go test ./... against the embedded service: the shared vectors
 * (webhooks, errors, retries), the net/http example, and the contract test, which calls every merchant route
 * of the OpenAPI document through the SDK and prints how many answered 2xx.
 */
describe('the Go SDK', () => {
  let service: ContractService;
  let vet: CommandResult;
  let tests: CommandResult;

  beforeAll(async () => {
    await installSdkTestDeps();
    const goDir = join(SDKS, 'go');
    vet = await run('go', ['vet', './...'], { cwd: goDir, minutes: 10 });
    service = await startContractService('vaultline-sdk-go-');
    tests = await run('go', ['test', '-count=1', '-v', './...'], { cwd: goDir, env: service.env, minutes: 10 });
    console.log(logWorthy(tests.output, /route coverage|^(ok|FAIL)\s|--- FAIL/));
  }, 15 * 60_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('passes go vet', () => {
    expect(vet).toEqual({ code: 0, output: '' });
  });

  it('passes go test ./... against the embedded service (vectors, example, contract)', () => {
    expect({ code: tests.code, output: tests.code === 0 ? '' : tests.output.slice(-20_000) }).toEqual({ code: 0, output: '' });
  });

  it('calls every merchant route of the OpenAPI document with a 2xx answer, and says so', () => {
    const routes = merchantRouteCount();
    expect(tests.output).toContain(`Go SDK route coverage: ${routes} of ${routes} merchant routes called through the SDK with a 2xx answer`);
  });
});
