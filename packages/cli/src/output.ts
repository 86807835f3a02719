import { majorUnits } from '@vaultline/node';

/** A column of a table: its heading and how a row shows in it. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
}

/** Where a command writes: tables for people, JSON with --json for scripts. */
export interface Output {
  json: boolean;
  write(text: string): void;
}

export const stdoutOutput = (json: boolean): Output => ({ json, write: (text) => process.stdout.write(text) });

/** Rows as an aligned text table, or as a JSON array with --json. */
export function printList<Row>(output: Output, rows: Row[], columns: Array<Column<Row>>): void {
  if (output.json) return output.write(`${JSON.stringify(rows, null, 2)}\n`);
  if (rows.length === 0) return output.write('(none)\n');
  output.write(table(rows, columns));
}

/** One resource as "field  value" lines, or as JSON with --json. */
export function printOne(output: Output, resource: unknown, fields?: Array<Column<never>>): void {
  if (output.json) return output.write(`${JSON.stringify(resource, null, 2)}\n`);
  const record = (resource ?? {}) as Record<string, unknown>;
  const lines: Array<[string, string]> = fields
    ? fields.map((field) => [field.header, cell(field.value(record as never))])
    : Object.entries(record).map(([key, value]) => [key, cell(value)]);
  const width = Math.max(...lines.map(([key]) => key.length));
  output.write(lines.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join('\n') + '\n');
}

export function table<Row>(rows: Row[], columns: Array<Column<Row>>): string {
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))));
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((line) => line[index]!.length)));
  const line = (values: string[]) =>
    values
      .map((value, index) => (index === values.length - 1 ? value : value.padEnd(widths[index]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
}

/** A value as a table shows it: objects compact JSON, null and undefined as "-". */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Minor units as the currency writes them, by the API's ISO 4217 table (never Intl's digits): 1999 EUR → "19.99 EUR", 150000 HUF → "1500.00 HUF". */
export function money(amount: number | undefined | null, currency: string | undefined | null): string {
  if (amount === undefined || amount === null) return '-';
  if (!currency) return String(amount);
  return `${majorUnits(amount, currency)} ${currency}`;
}
