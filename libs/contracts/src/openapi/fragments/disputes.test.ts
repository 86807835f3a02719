import { buildOpenApiDocument } from '../document';
import { validateAgainstOpenApi, validateRequestAgainstOpenApi } from '../validate-response';

type Operation = {
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }>; description?: string }>;
};
const paths = buildOpenApiDocument().paths as Record<string, Record<string, Operation>>;

const ENDPOINTS: Array<[string, string]> = [
  ['get', '/disputes'],
  ['get', '/disputes/{dispute_id}'],
  ['get', '/payments/{payment_id}/disputes'],
  ['post', '/payments/{payment_id}/test/dispute'],
  ['post', '/disputes/{dispute_id}/accept'],
  ['post', '/disputes/{dispute_id}/evidence'],
  ['get', '/early-fraud-warnings'],
  ['get', '/early-fraud-warnings/{early_fraud_warning_id}'],
];

describe('the disputes part of the OpenAPI document', () => {
  it('when built, then every dispute endpoint is documented with an example that validates against its own schema', () => {
    for (const [method, path] of ENDPOINTS) {
      const operation = paths[path]?.[method];
      expect({ method, path, documented: Boolean(operation) }).toEqual({ method, path, documented: true });
      const [status, success] = Object.entries(operation!.responses).find(([code]) => code.startsWith('2'))!;
      const example = success.content?.['application/json']?.example;
      expect({ method, path, example: example !== undefined }).toEqual({ method, path, example: true });
      expect({ method, path, ...validateAgainstOpenApi(method, path, Number(status), example) }).toEqual({ method, path, valid: true, errors: [] });
      const requestExample = operation!.requestBody?.content['application/json']?.example;
      if (requestExample !== undefined)
        expect({ method, path, ...validateRequestAgainstOpenApi(method, path, requestExample) }).toEqual({ method, path, valid: true, errors: [] });
    }
  });

  it('when a dispute lacks livemode or shows an unknown status, then it does not validate', () => {
    const example = paths['/disputes/{dispute_id}']!.get!.responses['200']!.content!['application/json']!.example as Record<string, unknown>;
    const { livemode: _livemode, ...withoutLivemode } = example;
    expect(validateAgainstOpenApi('get', '/disputes/{dispute_id}', 200, withoutLivemode).valid).toBe(false);
    expect(validateAgainstOpenApi('get', '/disputes/{dispute_id}', 200, { ...example, status: 'pending' }).valid).toBe(false);
  });

  it('when evidence names a field Stripe does not have, or a file without its data, then the request does not validate', () => {
    const example = paths['/disputes/{dispute_id}/evidence']!.post!.requestBody!.content['application/json']!.example as { evidence: Record<string, unknown> };
    expect(
      validateRequestAgainstOpenApi('post', '/disputes/{dispute_id}/evidence', { ...example, evidence: { ...example.evidence, favourite_colour: 'blue' } })
        .valid,
    ).toBe(false);
    expect(
      validateRequestAgainstOpenApi('post', '/disputes/{dispute_id}/evidence', {
        evidence: { receipt: { filename: 'r.pdf', content_type: 'application/pdf' } },
      }).valid,
    ).toBe(false);
  });

  it('when the problem codes are looked for, then dispute_not_found, dispute_not_allowed and test_mode_only are documented', () => {
    const described = JSON.stringify(ENDPOINTS.map(([method, path]) => paths[path]![method]));
    for (const code of [
      'dispute_not_found',
      'dispute_not_allowed',
      'test_mode_only',
      'dispute_closed',
      'dispute_under_review',
      'evidence_deadline_passed',
      'evidence_not_supported',
      'dispute_action_refused',
      'processor_unavailable',
      'early_fraud_warning_not_found',
    ]) {
      expect({ code, named: described.includes(code) }).toEqual({ code, named: true });
    }
  });
});
