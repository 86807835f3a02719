import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * The problem codes the code base can answer, read from its TypeScript source: the code argument of every
 * AppError construction (`new AppError('code', …)`, `super('code', …)` in a subclass, the code parameter of
 * the shared error classes, `new NotFoundError('payment')` → payment_not_found), the codes a subclass passes
 * through from its own constructor (`new PaymentNotAllowed('refund_not_allowed')`), and the codes zod
 * schemas choose (`params: { code: 'x' }`). A code built from a template (`destination_not_allowed_in_${mode}_mode`)
 * is given as a pattern with `*` where the template has a value. Test files and test doubles are not read.
 */
export function thrownErrorCodes(roots: string[]): Map<string, string[]> {
  const files = roots.flatMap((root) => sourceFiles(root));
  const sources = files.map((file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true));

  // Where each error class takes its code: the argument position of its constructor, or a fixed code.
  const codeArgument = new Map<string, number>(BASE_CODE_ARGUMENT);
  const parents = new Map<string, string>();
  for (const source of sources) {
    visit(source, (node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const parent = node.heritageClauses?.flatMap((clause) => clause.types).map((type) => type.expression.getText(source))[0];
      if (parent) parents.set(node.name.text, parent);
    });
  }
  // A subclass whose constructor hands one of its parameters to super() as the code takes its code there.
  let changed = true;
  while (changed) {
    changed = false;
    for (const source of sources) {
      visit(source, (node) => {
        if (!ts.isClassDeclaration(node) || !node.name || codeArgument.has(node.name.text)) return;
        const parentPosition = codeArgument.get(parents.get(node.name.text) ?? '');
        const constructor = node.members.find(ts.isConstructorDeclaration);
        if (parentPosition === undefined || !constructor?.body) return;
        visit(constructor.body, (inner) => {
          if (!ts.isCallExpression(inner) || inner.expression.kind !== ts.SyntaxKind.SuperKeyword) return;
          const argument = inner.arguments[parentPosition];
          const index = argument && ts.isIdentifier(argument) ? constructor.parameters.findIndex((p) => p.name.getText(source) === argument.text) : -1;
          if (index >= 0) {
            codeArgument.set(node.name!.text, index);
            changed = true;
          }
        });
      });
    }
  }

  const found = new Map<string, string[]>();
  const add = (code: string, where: string) => found.set(code, [...(found.get(code) ?? []), where]);
  for (const source of sources) {
    const where = (node: ts.Node) => `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const helpers = codeParameterOfHelpers(source);
    visit(source, (node) => {
      // A helper of the file that builds the error (`fail(detail, code)`, `ruleError(…, code)`): its `code` argument.
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const position = helpers.get(node.expression.text);
        const helped = codeOf(position === undefined ? undefined : node.arguments[position]);
        if (helped) add(helped, where(node));
      }
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const name = node.expression.text;
        const position = codeArgument.get(name);
        const argument = position === undefined ? undefined : node.arguments?.[position];
        const constructed = codeOf(argument);
        if (constructed) add(constructed, where(node));
        const resource = node.arguments?.[0];
        if (name === 'NotFoundError' && node.arguments?.length === 1 && resource && ts.isStringLiteralLike(resource))
          add(`${resource.text}_not_found`, where(node));
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) {
        const owner = enclosingClass(node);
        const position = owner?.name ? codeArgument.get(parents.get(owner.name.text) ?? '') : undefined;
        const argument = position === undefined ? undefined : node.arguments[position];
        const passed = codeOf(argument);
        if (passed) add(passed, where(node));
        const resource = node.arguments[0];
        if (owner?.name && parents.get(owner.name.text) === 'NotFoundError' && node.arguments.length === 1 && resource && ts.isStringLiteralLike(resource))
          add(`${resource.text}_not_found`, where(node));
      }
      // zod: `params: { code: 'x' }` on a refinement or a custom issue (parseInput answers 422 with it).
      if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'params' && ts.isObjectLiteralExpression(node.initializer)) {
        for (const property of node.initializer.properties) {
          if (ts.isPropertyAssignment(property) && property.name.getText(source) === 'code' && ts.isStringLiteralLike(property.initializer))
            add(property.initializer.text, where(property));
        }
      }
    });
  }
  for (const code of DEFAULT_CODES) if (!found.has(code)) add(code, 'libs/core/src/errors.ts (default code)');
  return found;
}

/** The shared error classes of libs/core and the position of their code argument. */
const BASE_CODE_ARGUMENT: Array<[string, number]> = [
  ['AppError', 0],
  ['ValidationError', 2],
  ['BadRequestError', 1],
  ['NotFoundError', 1],
  ['ConflictError', 0],
  ['UnauthorizedError', 1],
  ['ForbiddenError', 1],
  ['UnavailableError', 1],
];

/** Codes the shared classes answer when none is given, and the opaque 500. */
const DEFAULT_CODES = ['validation_failed', 'bad_request', 'unauthorized', 'forbidden', 'service_unavailable', 'internal_error'];

/** The functions of a file (declared, assigned, or typed parameters) that take a parameter named `code`, and its position. */
function codeParameterOfHelpers(source: ts.SourceFile): Map<string, number> {
  const helpers = new Map<string, number>();
  const note = (name: ts.Node, parameters: ts.NodeArray<ts.ParameterDeclaration>) => {
    const index = parameters.findIndex((parameter) => parameter.name.getText(source) === 'code');
    if (index >= 0 && ts.isIdentifier(name)) helpers.set(name.text, index);
  };
  visit(source, (node) => {
    if (ts.isFunctionDeclaration(node) && node.name) note(node.name, node.parameters);
    if (ts.isVariableDeclaration(node) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)))
      note(node.name, node.initializer.parameters);
    if (ts.isParameter(node) && node.type && ts.isFunctionTypeNode(node.type)) note(node.name, node.type.parameters);
  });
  return helpers;
}

/** A string literal's text, or a template's text with `*` for each of its values. */
function codeOf(argument: ts.Expression | undefined): string | undefined {
  if (!argument) return undefined;
  if (ts.isStringLiteralLike(argument)) return argument.text;
  if (ts.isTemplateExpression(argument)) return argument.head.text + argument.templateSpans.map((span) => `*${span.literal.text}`).join('');
  return undefined;
}

function enclosingClass(node: ts.Node): ts.ClassDeclaration | undefined {
  let current: ts.Node | undefined = node.parent;
  while (current && !ts.isClassDeclaration(current)) current = current.parent;
  return current;
}

function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  ts.forEachChild(node, (child) => visit(child, each));
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'test', 'dev', 'testing', 'public']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
