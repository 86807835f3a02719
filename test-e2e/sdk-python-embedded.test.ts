import { join } from 'node:path';
import {
  SDK_VENV,
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
 * The Python SDK (sdks/python) in CI: pytest runs its whole suite against the embedded service: the shared
 * vectors (webhooks, errors, retries, sync and async), the Flask example, mypy --strict, the wheel built and
 * installed in a fresh virtualenv, and the contract test, which calls every merchant route of the OpenAPI
 * document through the SDK and prints how many answered 2xx.
 */
describe('the Python SDK', () => {
  let service: ContractService;
  let pytest: CommandResult;

  beforeAll(async () => {
    await installSdkTestDeps();
    service = await startContractService('vaultline-sdk-python-');
    pytest = await run(join(SDK_VENV, 'bin/python'), ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
      cwd: join(SDKS, 'python'),
      env: service.env,
      minutes: 10,
    });
    console.log(logWorthy(pytest.output, /route coverage|passed|failed|FAILED|ERROR/));
  }, 15 * 60_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('passes its whole pytest suite against the embedded service (vectors, example, types, packaging, contract)', () => {
    expect({ code: pytest.code, output: pytest.code === 0 ? '' : pytest.output.slice(-20_000) }).toEqual({ code: 0, output: '' });
  });

  it('calls every merchant route of the OpenAPI document with a 2xx answer, and says so', () => {
    const routes = merchantRouteCount();
    expect(pytest.output).toContain(`Python SDK route coverage: ${routes} of ${routes} merchant routes called through the SDK with a 2xx answer`);
  });
});
