import { buildOpenApiDocument } from './document';
import { examplesOf, invalidExamples, operationsWithoutExamples } from './document-examples';
import type { JsonObject } from './openapi-fragment';

describe('the examples of the OpenAPI documents', () => {
  it.each(['merchant', 'admin'] as const)(
    'when every example of the %s document is validated against its schema (JSON Schema 2020-12), then none is invalid',
    (audience) => {
      const document = buildOpenApiDocument({ audience });
      expect(examplesOf(document).length).toBeGreaterThan(audience === 'merchant' ? 30 : 0);
      expect(invalidExamples(document)).toEqual([]);
    },
  );

  it.each(['merchant', 'admin'] as const)(
    'when the %s document is read, then every JSON request body and JSON success response shows an example',
    (audience) => {
      expect(operationsWithoutExamples(buildOpenApiDocument({ audience }))).toEqual([]);
    },
  );

  it('when an example of a media type, a parameter or a schema does not match, then it is reported with its place in the document', () => {
    const document: JsonObject = {
      paths: {
        '/things': {
          post: {
            parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' }, example: 'ten' }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, examples: { bad: { value: { size: 'big' } } } } } },
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, example: { size: 3 } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Thing: { type: 'object', required: ['size'], properties: { size: { type: 'integer', examples: [1, 'two'] }, examples: { type: 'string' } } },
        },
      },
    };
    expect(examplesOf(document).map((example) => example.pointer)).toEqual([
      '#/paths/~1things/post/parameters/0/example',
      '#/paths/~1things/post/requestBody/content/application~1json/examples/bad/value',
      '#/paths/~1things/post/responses/200/content/application~1json/example',
      '#/components/schemas/Thing/properties/size/examples/0',
      '#/components/schemas/Thing/properties/size/examples/1',
    ]);
    expect(invalidExamples(document).map((invalid) => invalid.pointer)).toEqual([
      '#/paths/~1things/post/parameters/0/example',
      '#/paths/~1things/post/requestBody/content/application~1json/examples/bad/value',
      '#/components/schemas/Thing/properties/size/examples/1',
    ]);
  });
});
