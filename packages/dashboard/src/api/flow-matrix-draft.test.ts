import { parseDraft } from './flow-matrix-draft';

describe('the flow matrix draft as typed', () => {
  it('when the text is a matrix, then it is read as the body of PUT /flow-matrix', () => {
    expect(parseDraft('{ "default_flow": "a", "rules": [{ "name": "r", "when": {}, "flow": "b" }] }')).toEqual({
      default_flow: 'a',
      rules: [{ name: 'r', when: {}, flow: 'b' }],
    });
  });

  it('when the text is not JSON or not a matrix, then it says what is wrong instead', () => {
    expect(parseDraft('{ "default_flow": ')).toMatch(/^Not JSON/);
    expect(parseDraft('[]')).toMatch(/is an object/);
    expect(parseDraft('{ "rules": [] }')).toMatch(/default_flow/);
    expect(parseDraft('{ "default_flow": "a", "rules": {} }')).toMatch(/rules is a list/);
  });
});
