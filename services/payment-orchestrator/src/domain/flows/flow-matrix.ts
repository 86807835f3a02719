import { ValidationError } from '@vaultline/core';
import { isCurrencyCode } from '@vaultline/contracts';
import type { UseCase } from '../payment-vocabulary/use-case';
import { DEFAULT_FLOW, type Flow, processorsOf } from './flow';
import type { ProcessorLookup } from '../processor-port/processor-lookup';

export interface RuleConditions {
  use_case?: UseCase[];
  currency_code?: string[];
  amount_gte?: number;
  amount_lte?: number;
  reference_prefix?: string;
  /** Upper case, as the vault reports schemes (VISA). Holds only once the card is known. */
  scheme?: string[];
  /** Every listed key equals the payment's metadata value. */
  metadata?: Record<string, string>;
}

export interface MatrixRule {
  name: string;
  when: RuleConditions;
  flow: string;
}

export interface FlowMatrix {
  version: number;
  default_flow: string;
  rules: MatrixRule[];
  updated_at: string | null;
}

/** What a merchant who set nothing has: every payment on simulator_auto_capture. */
export const EMPTY_MATRIX: FlowMatrix = { version: 0, default_flow: DEFAULT_FLOW, rules: [], updated_at: null };

/** The payment data rules look at. */
export interface PaymentFacts {
  use_case: UseCase;
  currency_code: string;
  amount: number;
  reference: string | null;
  /** null until the consumer entered the card. */
  scheme: string | null;
  metadata: Record<string, string> | null;
}

export interface FlowChoice {
  flow: string;
  rule: string | null;
  matrix_version: number;
}

const CONDITION_KEYS = ['use_case', 'currency_code', 'amount_gte', 'amount_lte', 'reference_prefix', 'scheme', 'metadata'] as const;
const USE_CASES: readonly string[] = ['ONE_OFF', 'RECURRING', 'UNSCHEDULED', 'SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'];

function holds(when: RuleConditions, facts: PaymentFacts): boolean {
  if (when.use_case !== undefined && !when.use_case.includes(facts.use_case)) return false;
  if (when.currency_code !== undefined && !when.currency_code.includes(facts.currency_code)) return false;
  if (when.amount_gte !== undefined && facts.amount < when.amount_gte) return false;
  if (when.amount_lte !== undefined && facts.amount > when.amount_lte) return false;
  if (when.reference_prefix !== undefined && (facts.reference === null || !facts.reference.startsWith(when.reference_prefix))) return false;
  if (when.scheme !== undefined && (facts.scheme === null || !when.scheme.includes(facts.scheme.toUpperCase()))) return false;
  if (when.metadata !== undefined) {
    const metadata = facts.metadata;
    if (metadata === null) return false;
    for (const key in when.metadata) if (metadata[key] !== when.metadata[key]) return false;
  }
  return true;
}

/** Pure: rules in order, the first whose every condition holds wins; else the default flow. */
export function chooseFlow(matrix: FlowMatrix, facts: PaymentFacts): FlowChoice {
  const rules = matrix.rules;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (holds(rule.when, facts)) return { flow: rule.flow, rule: rule.name, matrix_version: matrix.version };
  }
  return { flow: matrix.default_flow, rule: null, matrix_version: matrix.version };
}

function ruleError(index: number, rule: string, field: string, detail: string, code: string): ValidationError {
  const error = new ValidationError(`rules[${index}]${field ? `.${field}` : ''}`, `Rule "${rule}": ${detail}`, code);
  Object.assign(error.extensions, { rule });
  return error;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v.length > 0);
const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Checks a matrix a merchant sent (shape already parsed): every rule named once, known condition keys
 * with values of their type, known flows made of known processors. Problems name the rule.
 */
export function validateFlowMatrix(
  input: { default_flow: string; rules: Array<{ name: string; when: Record<string, unknown>; flow: string }> },
  flowNamed: (name: string) => Flow | undefined,
  processors: ProcessorLookup,
): Omit<FlowMatrix, 'version' | 'updated_at'> {
  const checkFlow = (name: string, fail: (detail: string, code: string) => ValidationError): void => {
    const flow = flowNamed(name);
    if (!flow) throw fail(`no flow named ${name}.`, 'unknown_flow');
    const unknown = processorsOf(flow).find((id) => !processors.get(id));
    if (unknown) throw fail(`the flow ${name} uses the unknown processor ${unknown}.`, 'unknown_processor');
  };
  checkFlow(input.default_flow, (detail, code) => new ValidationError('default_flow', `default_flow: ${detail}`, code));
  const seen = new Set<string>();
  const rules = input.rules.map((rule, index): MatrixRule => {
    if (seen.has(rule.name)) throw ruleError(index, rule.name, 'name', 'another rule has the same name.', 'duplicate_rule_name');
    seen.add(rule.name);
    const when: RuleConditions = {};
    for (const [key, value] of Object.entries(rule.when)) {
      const bad = (what: string) => ruleError(index, rule.name, `when.${key}`, `${key} must be ${what}.`, 'invalid_condition');
      switch (key) {
        case 'use_case':
          if (!isStringList(value) || !value.every((v) => USE_CASES.includes(v))) throw bad(`a non-empty list of ${USE_CASES.join(', ')}`);
          when.use_case = value as UseCase[];
          break;
        case 'currency_code':
          if (!isStringList(value) || !value.every(isCurrencyCode)) throw bad('a non-empty list of ISO 4217 currency codes');
          when.currency_code = value;
          break;
        case 'amount_gte':
        case 'amount_lte':
          if (!isAmount(value)) throw bad('a non-negative integer in minor units');
          when[key] = value;
          break;
        case 'reference_prefix':
          if (typeof value !== 'string' || value.length === 0) throw bad('a non-empty string');
          when.reference_prefix = value;
          break;
        case 'scheme':
          if (!isStringList(value)) throw bad('a non-empty list of card schemes');
          when.scheme = value.map((v) => v.toUpperCase());
          break;
        case 'metadata':
          if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
            throw bad('an object of string values');
          }
          when.metadata = { ...(value as Record<string, string>) };
          break;
        default:
          throw ruleError(index, rule.name, `when.${key}`, `${key} is not a condition; use ${CONDITION_KEYS.join(', ')}.`, 'unknown_condition');
      }
    }
    checkFlow(rule.flow, (detail, code) => ruleError(index, rule.name, 'flow', detail, code));
    return { name: rule.name, when, flow: rule.flow };
  });
  return { default_flow: input.default_flow, rules };
}
