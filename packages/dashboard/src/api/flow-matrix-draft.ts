// The flow matrix editor's draft: the JSON typed, read into the body PUT /flow-matrix takes. What only the
// text can tell (not JSON, not the matrix's shape) is said here; the rest the server says (explain with the
// draft validates it as a save would).
import type { FlowMatrix } from './types';

export interface Draft {
  default_flow: string;
  rules: FlowMatrix['rules'];
}

/** The draft's text as a matrix, or why it is not one (the parts the server cannot see: JSON and shape). */
export function parseDraft(text: string): Draft | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `Not JSON: ${(error as Error).message}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'The matrix is an object: { "default_flow": …, "rules": [ … ] }.';
  const draft = parsed as Partial<Draft>;
  if (typeof draft.default_flow !== 'string') return 'default_flow names a flow (a string).';
  if (!Array.isArray(draft.rules)) return 'rules is a list of { "name", "when", "flow" }.';
  return draft as Draft;
}
