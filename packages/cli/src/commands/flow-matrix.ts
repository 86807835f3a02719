import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { contextOf, wholeNumber } from '../context';
import { UsageError } from '../exit-codes';
import { printList, printOne, type Column, type Output } from '../output';

type FlowMatrix = MerchantComponents['schemas']['FlowMatrix'];
type FlowMatrixInput = MerchantComponents['schemas']['FlowMatrixInput'];
type FlowRule = MerchantComponents['schemas']['FlowRule'];
type ExplainRequest = MerchantComponents['schemas']['FlowMatrixExplainRequest'];

const RULE_COLUMNS: Array<Column<FlowRule>> = [
  { header: 'rule', value: (r) => r.name },
  { header: 'when', value: (r) => r.when },
  { header: 'flow', value: (r) => r.flow },
];

/** A YAML or JSON file (JSON is YAML too), refused with a usage error when it cannot be read or parsed. */
export async function readDocumentFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  // Loaded when a file is read: most commands never need a YAML parser, and the CLI starts faster without it.
  const { parse: parseYaml } = await import('yaml');
  try {
    return parseYaml(text);
  } catch (error) {
    throw new UsageError(`${path} is neither YAML nor JSON: ${(error as Error).message}`);
  }
}

function printMatrix(output: Output, matrix: FlowMatrix): void {
  if (output.json) return printOne(output, matrix);
  output.write(`version ${matrix.version}, default flow ${matrix.default_flow}, updated ${matrix.updated_at ?? '-'}\n\n`);
  printList(output, matrix.rules, RULE_COLUMNS);
}

export function flowMatrixCommand(program: Command): void {
  const flowMatrix = program.command('flow-matrix').description('The rules that choose the flow of each payment: get, put, explain');

  flowMatrix
    .command('get')
    .description('Shows the flow matrix (default flow and rules, in order)')
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      printMatrix(context.output, await context.merchant().get('/flow-matrix'));
    });

  flowMatrix
    .command('put <file>')
    .description('Replaces the flow matrix with the one in a YAML or JSON file ({ default_flow, rules: [{ name, when, flow }] })')
    .action(async (file: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const matrix = (await readDocumentFile(file)) as FlowMatrixInput;
      printMatrix(context.output, await context.merchant().put('/flow-matrix', { body: matrix }));
    });

  flowMatrix
    .command('explain')
    .description('Says which flow (and rule) a payment would get, from options or a payment-shaped YAML/JSON file')
    .option('--amount <minor units>', 'the amount in minor units', wholeNumber)
    .option('--currency <code>', 'the currency', 'EUR')
    .option('--use-case <use case>', 'ONE_OFF, RECURRING, UNSCHEDULED, SUBSEQUENT_RECURRING or SUBSEQUENT_UNSCHEDULED')
    .option('--reference <text>', 'the payment reference')
    .option('--file <file>', 'a payment-shaped YAML or JSON file instead of the options')
    .action(
      async (options: { amount?: number; currency: string; useCase?: ExplainRequest['use_case']; reference?: string; file?: string }, command: Command) => {
        const context = contextOf(command);
        let payment: ExplainRequest;
        if (options.file) payment = (await readDocumentFile(options.file)) as ExplainRequest;
        else {
          if (options.amount === undefined) throw new UsageError('explain needs --amount (or --file).');
          payment = {
            amount: options.amount,
            currency_code: options.currency,
            ...(options.useCase ? { use_case: options.useCase } : {}),
            ...(options.reference ? { reference: options.reference } : {}),
          };
        }
        printOne(context.output, await context.merchant().post('/flow-matrix/explain', { body: payment }));
      },
    );
}
