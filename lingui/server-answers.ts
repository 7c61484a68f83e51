import type { ExtractorType } from '@lingui/conf';
import { parse } from '@babel/parser';

/**
 * The server's own fixed English answers (apps/server/src) into the web app's catalogs, each
 * under its own words as its id, as lingui/contract-messages.ts does for the contract's: the
 * web app shows an answer's `message` through `serverText` (apps/web/src/lib/server-text.ts).
 * Found where the server answers, not in every literal:
 *
 * - a refusal's message: AppError's 2nd argument; the 1st of badRequest, conflict, forbidden,
 *   unauthorized and tooManyRequests; the 3rd of assertNotOwnRole and throttle; and the values
 *   of the field errors given with it (`badRequest(text, { field: text })`) or set one by one
 *   (`fileErrors[name] ??= text`);
 * - every property named `message` (`reply.send({ message })`, `return { message }`), and a
 *   findings check's `note`; a `message` parameter's default (`unauthorized(message = '...')`).
 *
 * Such a text counts when it is a string, a template without `${...}`, either branch of a
 * conditional or of `??` and `||`, or a `const` of the file holding one (by its name in
 * scope; `messages.key` and `messages[key]` of a const object of them). A text built at run
 * time (`${...}`) is not found: it must be a coded refusal instead (`coded`, the contract's
 * serverMessages). Log calls (`request.log.*`, `app.log.*`, `console.*`) are not answers.
 *
 * The server's own catalog (its mails, the prescription PDF) is the babel extractor's: those two
 * files are not matched here, and lingui.config.ts keeps them out of the web app's catalog.
 */

type Node = { type: string; [key: string]: unknown };
type Found = { text: string; line: number };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

const serverCatalogSources = [
  /apps\/server\/src\/mail\/templates\.ts$/,
  /apps\/server\/src\/services\/prescription\/pdf-messages\.ts$/,
];

/** Which argument of each refusal maker is its message (the next one, if an object, its field errors). */
const refusalMessageArgument: Record<string, number> = {
  AppError: 1,
  badRequest: 0,
  conflict: 0,
  forbidden: 0,
  unauthorized: 0,
  tooManyRequests: 0,
  assertNotOwnRole: 2,
  throttle: 2,
};

/** Properties whose text the web app shows through `serverText`. */
const answerProperties = new Set(['message', 'note']);

const logObjects = new Set(['console', 'log', 'logger']);

/** A text a person reads: it has a letter, is no ICU (braces), and is not a route's name. */
function isWords(text: string): boolean {
  const trimmed = text.trim();
  return /[A-Za-z]/.test(trimmed) && !/[{}]/.test(trimmed) && !/^Route [A-Z]+ \//.test(trimmed);
}

const nameOf = (node: unknown): string | undefined => {
  if (!isNode(node)) return undefined;
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'StringLiteral') return node.value as string;
  return undefined;
};

const isMember = (node: Node) => node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression';

/** `request.log.info(...)`, `app.log.warn(...)`, `log.error(...)`, `console.error(...)`. */
function isLogCall(node: Node): boolean {
  const callee = node.callee as Node;
  if (!isMember(callee)) return false;
  const object = callee.object as Node;
  return logObjects.has(nameOf(object) ?? '') || (isMember(object) && logObjects.has(nameOf(object.property) ?? ''));
}

// TypeScript's wrappers around a value: `'Saved' as const`, `x satisfies T`, `value!`.
const expressionsInTypes = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression']);
const unwrap = (node: unknown): unknown =>
  isNode(node) && expressionsInTypes.has(node.type) ? unwrap(node.expression) : node;

const functionTypes = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

/** The `const`s declared directly in a block (a program, a function's body), by name. */
function constsOf(statements: Node[]): Map<string, Node | null> {
  const scope = new Map<string, Node | null>();
  for (const statement of statements) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const id = declarator.id as Node;
      if (id.type !== 'Identifier') continue;
      // A `let` or `var` shadows an outer const with a value that may change: not a fixed text.
      scope.set(id.name as string, declaration.kind === 'const' && isNode(declarator.init) ? declarator.init : null);
    }
  }
  return scope;
}

/** Each fixed answer of one source file, with its line. */
export function serverAnswers(code: string): Found[] {
  const ast = parse(code, { sourceType: 'module', plugins: ['typescript'] });
  const found: Found[] = [];
  const lineOf = (node: Node) => (node.loc as { start: { line: number } } | undefined)?.start.line ?? 0;

  /** The fixed texts an expression can be, its names looked up in `scopes` (innermost last). */
  const texts = (value: unknown, scopes: Map<string, Node | null>[], seen: Set<string> = new Set()): Found[] => {
    const node = unwrap(value);
    if (!isNode(node)) return [];
    const bound = (name: string): Node | null | undefined => {
      for (let index = scopes.length - 1; index >= 0; index -= 1)
        if (scopes[index]!.has(name)) return scopes[index]!.get(name);
      return undefined;
    };
    const named = (name: string, at: Node): Found[] => {
      const init = bound(name);
      if (!init || seen.has(name)) return [];
      return texts(init, scopes, new Set([...seen, name])).map(({ text }) => ({ text, line: lineOf(at) }));
    };
    switch (node.type) {
      case 'StringLiteral':
        return [{ text: node.value as string, line: lineOf(node) }];
      case 'TemplateLiteral': {
        if ((node.expressions as unknown[]).length > 0) return [];
        return [{ text: ((node.quasis as Node[])[0]!.value as { cooked: string }).cooked, line: lineOf(node) }];
      }
      case 'ConditionalExpression':
        return [...texts(node.consequent, scopes, seen), ...texts(node.alternate, scopes, seen)];
      case 'LogicalExpression':
        return ['??', '||'].includes(node.operator as string)
          ? [...texts(node.left, scopes, seen), ...texts(node.right, scopes, seen)]
          : [];
      case 'Identifier':
        return named(node.name as string, node);
      case 'MemberExpression':
      case 'OptionalMemberExpression': {
        // `messages.key` or `messages[key]` of a const object of texts in this file.
        const objectName = nameOf(unwrap(node.object));
        const object = objectName === undefined ? undefined : unwrap(bound(objectName));
        if (!isNode(object) || object.type !== 'ObjectExpression' || seen.has(objectName!)) return [];
        const key = node.computed ? undefined : nameOf(node.property);
        const inner = new Set([...seen, objectName!]);
        return (object.properties as Node[])
          .filter(
            (property) => property.type === 'ObjectProperty' && (key === undefined || nameOf(property.key) === key),
          )
          .flatMap((property) => texts(property.value, scopes, inner))
          .map(({ text }) => ({ text, line: lineOf(node) }));
      }
      default:
        return [];
    }
  };

  const visit = (node: Node, scopes: Map<string, Node | null>[]) => {
    if (node.type.startsWith('TS') && !expressionsInTypes.has(node.type)) return;
    if (node.type === 'ImportDeclaration') return;
    if ((node.type === 'CallExpression' || node.type === 'OptionalCallExpression') && isLogCall(node)) return;

    // A block's consts (and a function's parameters, which shadow outer names) are in scope inside it.
    let inner = scopes;
    if (node.type === 'Program' || node.type === 'BlockStatement') inner = [...scopes, constsOf(node.body as Node[])];
    else if (functionTypes.has(node.type)) {
      const params = new Map<string, Node | null>();
      for (const param of node.params as Node[]) {
        const id = param.type === 'AssignmentPattern' ? (param.left as Node) : param;
        if (id.type === 'Identifier') params.set(id.name as string, null);
      }
      inner = [...scopes, params];
    }
    const take = (value: unknown) => {
      for (const answer of texts(value, inner)) if (isWords(answer.text)) found.push(answer);
    };
    const takeFieldErrors = (value: unknown) => {
      const object = unwrap(value);
      if (!isNode(object) || object.type !== 'ObjectExpression') return;
      for (const property of object.properties as Node[]) if (property.type === 'ObjectProperty') take(property.value);
    };

    if (node.type === 'CallExpression' || node.type === 'NewExpression') {
      const index = refusalMessageArgument[nameOf(node.callee) ?? ''];
      if (index !== undefined) {
        const args = node.arguments as Node[];
        take(args[index]);
        takeFieldErrors(args[index + 1]);
      }
    }
    if (node.type === 'ObjectProperty' && !node.computed && answerProperties.has(nameOf(node.key) ?? ''))
      take(node.value);
    // A `message` parameter's default: `(message = 'Please sign in again.') => ...`.
    if (node.type === 'AssignmentPattern' && nameOf(node.left) === 'message') take(node.right);
    // A field error set one by one: `fieldErrors[name] ??= 'Upload not found'`.
    if (node.type === 'AssignmentExpression' && isMember(node.left as Node)) {
      const target = (node.left as Node).object as Node;
      const holder = isMember(target) ? nameOf(target.property) : nameOf(target);
      if (holder?.endsWith('Errors')) take(node.right);
    }

    for (const [key, value] of Object.entries(node)) {
      if (['loc', 'leadingComments', 'trailingComments', 'innerComments'].includes(key)) continue;
      if (Array.isArray(value)) value.forEach((child) => isNode(child) && visit(child, inner));
      else if (isNode(value)) visit(value, inner);
    }
  };
  visit(ast.program as unknown as Node, []);
  return found;
}

export const serverAnswersExtractor: ExtractorType = {
  match: (filename) => {
    const file = filename.replaceAll('\\', '/');
    return (
      /apps\/server\/src\/.+\.ts$/.test(file) &&
      !/\.test\.ts$/.test(file) &&
      !serverCatalogSources.some((source) => source.test(file))
    );
  },
  extract(filename, code, onMessageExtracted) {
    for (const { text, line } of serverAnswers(code))
      onMessageExtracted({ id: text, message: text, origin: [filename, line] });
  },
};
