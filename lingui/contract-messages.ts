import { pathToFileURL } from 'node:url';
import type { ExtractorType } from '@lingui/conf';
import { parse } from '@babel/parser';

/**
 * The contract's English (packages/contract/src: its schemas' messages, `messages.*`, the
 * `*Messages` objects) into the web app's catalogs, each under its own words as its id: the
 * server sends these texts and the web app shows them through `serverText` (apps/web/src/lib/
 * server-text.ts). The contract has no macros (the server runs it as it is), so its texts are
 * found two ways: every sentence-like literal in its source, and every string its modules
 * export, evaluated (a message built from a constant, `At most ${maxMessageFiles} files`).
 */

type Node = { type: string; [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** A text a person reads: it has a letter and is not a key, route, type or pattern. */
function isWords(text: string): boolean {
  const trimmed = text.trim();
  if (!/[A-Za-z]/.test(trimmed)) return false;
  // ICU's braces would be read as placeholders: such a text is not a message.
  if (/[{}]/.test(trimmed)) return false;
  if (/^[a-z0-9_.\-/:*#@$]+$/i.test(trimmed) && !/^[A-Z][a-z]+$/.test(trimmed)) return false;
  if (/^(GET|POST|PUT|PATCH|DELETE) \//.test(trimmed) || trimmed.startsWith('/') || trimmed.startsWith('^'))
    return false;
  return !/^[a-z]+\/[a-z0-9.+-]+$/i.test(trimmed); // a MIME type
}

// Calls and properties whose strings are for the API's readers (the OpenAPI document), not
// for people using the portal.
const codeCalls = new Set(['describe', 'meta', 'regex', 'startsWith', 'endsWith', 'includes']);
const apiDocKeys = new Set(['summary', 'description']);
// Each language's own name stays in its own words (locales.ts).
const notForTranslation = /packages\/contract\/src\/locales\.ts$/;

function calleeName(node: Node): string | undefined {
  const callee = node.callee as Node | undefined;
  if (!callee) return undefined;
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression') return ((callee.property as Node)?.name as string) ?? undefined;
  return undefined;
}

// TypeScript nodes that hold code, not types: `'Saved' as const`, `x satisfies T`, `value!`.
const expressionsInTypes = new Set(['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression']);

/** Sentence-like literals of one source file, with their lines. */
function literals(code: string): { text: string; line: number }[] {
  const found: { text: string; line: number }[] = [];
  const ast = parse(code, { sourceType: 'module', plugins: ['typescript'] });
  const visit = (node: Node, parentKey?: string) => {
    if (node.type.startsWith('TS') && !expressionsInTypes.has(node.type)) return;
    if (node.type === 'ImportDeclaration') return;
    if (node.type === 'CallExpression' && codeCalls.has(calleeName(node) ?? '')) return;
    if (node.type === 'ObjectProperty' && apiDocKeys.has(((node.key as Node)?.name as string) ?? '')) return;
    const line = (node.loc as { start: { line: number } } | undefined)?.start.line ?? 0;
    if (node.type === 'StringLiteral' && parentKey !== 'key' && isWords(node.value as string)) {
      found.push({ text: node.value as string, line });
    }
    if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) {
      const text = ((node.quasis as Node[])[0]?.value as { cooked: string }).cooked;
      if (isWords(text)) found.push({ text, line });
    }
    for (const [key, value] of Object.entries(node)) {
      if (['loc', 'leadingComments', 'trailingComments', 'source'].includes(key)) continue;
      if (Array.isArray(value)) value.forEach((child) => isNode(child) && visit(child, key));
      else if (isNode(value)) visit(value, key);
    }
  };
  visit(ast.program as unknown as Node);
  return found;
}

/** Every string reachable from a module's exported objects and arrays (evaluated messages). */
function exportedStrings(value: unknown, depth = 0, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return isWords(value) ? [value] : [];
  if (depth > 3 || typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  // A zod schema is not a message holder: its messages are in the source, found above.
  if ('_zod' in value || '~standard' in value) return [];
  return Object.entries(value)
    .filter(([key]) => !apiDocKeys.has(key))
    .flatMap(([, child]) => exportedStrings(child, depth + 1, seen));
}

/**
 * The server's refusals by code (packages/contract/src/server-messages.ts): each ICU template
 * with its placeholders (the braces rule above is for every other text) under the id
 * `server.<code>`, which the web app computes from an answer's code (lib/server-text.ts).
 */
function serverMessageTemplates(module: Record<string, unknown>): { id: string; message: string }[] {
  return Object.entries((module.serverMessages ?? {}) as Record<string, string>).map(([code, message]) => ({
    id: `server.${code}`,
    message,
  }));
}

/** The words the server sends as the refusals' parameters (the arches, lower-case). */
const serverMessageWords = (module: Record<string, unknown>): string[] =>
  Object.values((module.serverMessageArchWords ?? {}) as Record<string, string>);

export const contractMessages: ExtractorType = {
  match: (filename) => /packages\/contract\/src\/.+\.ts$/.test(filename.replaceAll('\\', '/')),
  // (locales.ts is matched, and gives nothing: its names stay as they are.)
  async extract(filename, code, onMessageExtracted) {
    if (notForTranslation.test(filename.replaceAll('\\', '/'))) return;
    const origin = (line: number): [string, number] => [filename, line];
    for (const { text, line } of literals(code)) onMessageExtracted({ id: text, message: text, origin: origin(line) });
    const module = (await import(pathToFileURL(filename).href)) as Record<string, unknown>;
    for (const text of new Set([...exportedStrings(Object.values(module)), ...serverMessageWords(module)])) {
      onMessageExtracted({ id: text, message: text, origin: origin(0) });
    }
    for (const { id, message } of serverMessageTemplates(module))
      onMessageExtracted({ id, message, origin: origin(0) });
  },
};
