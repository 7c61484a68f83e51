import { describe, expect, it } from 'vitest';
import linguiConfig from '../../../lingui.config.ts';
import { serverAnswers, serverAnswersExtractor } from '../../../lingui/server-answers.ts';

/**
 * The server's fixed answers reach the web app's catalogs (issue 43, lingui/server-answers.ts):
 * what the extractor takes from a server source, and what it leaves.
 */

const source = `
import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../lib/errors.ts';

const zipBombMessage = 'The ZIP unpacks to far more than its size';
const viewMessages = { notSent: 'No scan of that arch', notYet: \`The copy is being made\` };
const perLimit: Record<string, string> = { FIELDS: 'Too many fields', PARTS: 'Too many parts' };
const tooBig = \`At most \${maxBytes} bytes\`;

export const unauthorizedDefault = (message = 'Please sign in again.') => new AppError(401, message);

export function refuse(kind: string, count: number, token?: string) {
  if (kind === 'a') throw badRequest('Upload-Length is required');
  if (kind === 'b') throw conflict('A role with this name already exists', { roleName: 'Name taken' });
  if (kind === 'c') throw new AppError(413, zipBombMessage);
  if (kind === 'd') throw unauthorized(token ? 'Your session has expired.' : 'Please sign in.');
  if (kind === 'e') throw forbidden(\`You cannot change your own role\`);
  if (kind === 'f') throw tooManyRequests('Too many links tried', 30);
  if (kind === 'g') throw new AppError(404, viewMessages.notSent);
  if (kind === 'h') throw new AppError(413, perLimit[kind] ?? 'The form is too large');
  if (kind === 'i') {
    const message = 'Send the upper scan, the lower scan or both';
    throw badRequest(message, { upper: message });
  }
  // Built at run time: a coded refusal's business, not a catalog's.
  if (kind === 'j') throw badRequest(\`Stage must be from 1 to \${count}\`);
  if (kind === 'k') throw badRequest(tooBig);
  const fieldErrors: Record<string, string> = {};
  fieldErrors[kind] ??= 'Upload not found';
  request.log.warn({ message: 'Not for people' }, 'upload refused');
  console.error({ message: 'Nor this' });
  return { message: count > 1 ? 'Roles deleted' : 'Role deleted', count, label: 'A label, not an answer' };
}

export const health = (reply: Reply) => reply.status(503).send({ status: 'down', message: 'Database is unreachable' });
export const notFound = (reply: Reply, url: string) => reply.status(404).send({ message: \`Route GET \${url} not found\` });
export const metrics = (reply: Reply) => reply.status(404).send({ message: 'Route GET /metrics not found' });
`;

describe('the server answers extractor', () => {
  const found = serverAnswers(source);
  const texts = new Set(found.map(({ text }) => text));

  it("takes a refusal's message: a literal, a template, each branch of a conditional, a const by its name", () => {
    for (const text of [
      'Upload-Length is required',
      'A role with this name already exists',
      'The ZIP unpacks to far more than its size',
      'Your session has expired.',
      'Please sign in.',
      'You cannot change your own role',
      'Too many links tried',
      'No scan of that arch',
      'Send the upper scan, the lower scan or both',
      'Please sign in again.',
    ])
      expect(texts, text).toContain(text);
    // Only the member named, not the object's other texts.
    expect(texts).not.toContain('The copy is being made');
  });

  it('takes the field errors given with a refusal or set one by one, and every text of a const looked up by key', () => {
    for (const text of ['Name taken', 'Upload not found', 'Too many fields', 'Too many parts', 'The form is too large'])
      expect(texts, text).toContain(text);
  });

  it('takes every `message` property with a fixed text: a success, a conditional, a health answer', () => {
    for (const text of ['Roles deleted', 'Role deleted', 'Database is unreachable'])
      expect(texts, text).toContain(text);
    expect(texts).not.toContain('A label, not an answer');
  });

  it('leaves what is built at run time, what the logs say, and a route name', () => {
    const left = [...texts].filter((text) =>
      /Stage must be|At most|Route|Not for people|Nor this|upload refused/.test(text),
    );
    expect(left).toEqual([]);
  });

  it('names the line each text is on', () => {
    const line = source.split('\n').findIndex((text) => text.includes("'Upload-Length is required'")) + 1;
    expect(found.find(({ text }) => text === 'Upload-Length is required')?.line).toBe(line);
  });

  it("reads the server's sources, not its tests nor the two files of its own catalog (its mails, the PDF)", () => {
    const { match } = serverAnswersExtractor;
    expect(match('/repo/apps/server/src/routes/roles/index.ts')).toBe(true);
    expect(match('C:\\repo\\apps\\server\\src\\services\\roles.ts')).toBe(true);
    expect(match('/repo/apps/server/src/mail/templates.ts')).toBe(false);
    expect(match('/repo/apps/server/src/services/prescription/pdf-messages.ts')).toBe(false);
    expect(match('/repo/apps/server/test/roles.test.ts')).toBe(false);
    expect(match('/repo/apps/web/src/lib/notify.ts')).toBe(false);
    expect(match('/repo/packages/contract/src/messages.ts')).toBe(false);
  });

  it('comes before babel in lingui.config.ts, which keeps the server catalog’s two files for the server catalog', () => {
    const extractors = linguiConfig.extractors ?? [];
    const ours = extractors.indexOf(serverAnswersExtractor);
    expect(ours).toBeGreaterThanOrEqual(0);
    expect(ours).toBe(extractors.length - 2);
    const [web, server] = linguiConfig.catalogs ?? [];
    expect(web?.include).toContain('<rootDir>/apps/server/src');
    expect(web?.exclude).toEqual(
      expect.arrayContaining([
        '<rootDir>/apps/server/src/mail/templates.ts',
        '<rootDir>/apps/server/src/services/prescription/pdf-messages.ts',
      ]),
    );
    expect(server?.include).toContain('<rootDir>/apps/server/src/mail/templates.ts');
  });
});
