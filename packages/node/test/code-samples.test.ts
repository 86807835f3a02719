import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { buildOpenApiDocument, validateRequestAgainstOpenApi, type CodeSample, type JsonObject } from '@vaultline/contracts';

/**
 * The request samples of the reference (`x-codeSamples`, issue 36): every operation of both documents has a
 * curl sample and a Node.js one. Each Node sample type-checks against this SDK (its path, params and body as
 * the SDK's types from the same document say); each curl sample calls a method and path the document has,
 * with the key the operation takes and a body its schema accepts.
 */
const SERVER = 'https://vaultline.example.com';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Sampled {
  audience: 'merchant' | 'admin';
  method: string;
  path: string;
  operation: JsonObject;
  samples: CodeSample[];
}

function sampledOperations(audience: 'merchant' | 'admin'): Sampled[] {
  const document = buildOpenApiDocument({ serverUrl: SERVER, audience, codeSamples: true });
  return Object.entries(document.paths as Record<string, Record<string, JsonObject>>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      audience,
      method,
      path,
      operation: item[method]!,
      samples: (item[method]!['x-codeSamples'] as CodeSample[] | undefined) ?? [],
    })),
  );
}

const operations = [...sampledOperations('merchant'), ...sampledOperations('admin')];
const sampleOf = (operation: Sampled, label: string): string => operation.samples.find((sample) => sample.label === label)?.source ?? '';

describe("the reference's request samples", () => {
  it('when the documents are built for the reference, then every operation has a curl and a Node.js sample', () => {
    expect(operations.length).toBeGreaterThan(80);
    const missing = operations.filter((o) => !sampleOf(o, 'curl') || !sampleOf(o, 'Node.js')).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(missing).toEqual([]);
  });

  it("when each curl sample is read back, then its method and path are the operation's, it sends the key the operation takes, and its body is one the document accepts", () => {
    const wrong: string[] = [];
    for (const operation of operations) {
      const curl = sampleOf(operation, 'curl');
      const call = /^curl -s -X (\w+) '([^']+)'/.exec(curl);
      const url = new URL(call?.[2] ?? 'invalid:');
      const pattern = new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`);
      const named = `${operation.method.toUpperCase()} ${operation.path}`;
      if (call?.[1] !== operation.method.toUpperCase() || url.origin !== SERVER || !pattern.test(url.pathname)) wrong.push(`${named}: ${curl.split('\n')[0]}`);
      const key = operation.audience === 'admin' ? 'X-Admin-Key' : 'X-API-Key';
      const security = operation.operation.security as unknown[] | undefined;
      if ((security === undefined || security.length > 0) && !curl.includes(`-H "${key}: `)) wrong.push(`${named}: no ${key}`);
      const data = /-d '(.*)'$/s.exec(curl)?.[1];
      if (data !== undefined) {
        const checked = validateRequestAgainstOpenApi(operation.method.toUpperCase(), operation.path, JSON.parse(data.replace(/'\\''/g, "'")));
        if (!checked.valid) wrong.push(`${named}: body refused: ${checked.errors.join('; ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("when every Node.js sample is compiled against the SDK, then it type-checks: the path, params and body match the SDK's types", () => {
    const dir = mkdtempSync(join(__dirname, '.samples-'));
    try {
      const files = operations.map((operation, index) => {
        const file = join(dir, `sample-${index}.mts`);
        writeFileSync(file, `// ${operation.method.toUpperCase()} ${operation.path}\n${sampleOf(operation, 'Node.js')}\nexport {};\n`);
        return file;
      });
      const program = ts.createProgram(files, {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        customConditions: ['vaultline-source'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['lib.es2023.d.ts'],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file && files.includes(d.file.fileName))
        .map((d) => `${d.file!.text.split('\n')[0]}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(diagnostics).toEqual([]);
      // The check can fail: a sample with a path the SDK does not know is refused.
      const wrongFile = join(dir, 'wrong.mts');
      writeFileSync(wrongFile, "import { Vaultline } from '@vaultline/node';\nawait new Vaultline('sk_test_x').get('/no-such-route', {});\nexport {};\n");
      const wrong = ts.createProgram([wrongFile], program.getCompilerOptions());
      const refusals = ts
        .getPreEmitDiagnostics(wrong)
        .filter((d) => d.file?.fileName === wrongFile)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(refusals).toEqual([expect.stringContaining('"/no-such-route"')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
