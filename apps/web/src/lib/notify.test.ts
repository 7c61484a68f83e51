// @vitest-environment happy-dom
import { ApiError } from '@portal/contract/client';
import { afterEach, describe, expect, it } from 'vitest';
import { messages as german } from '../locales/de.po';
import { i18n } from './i18n.ts';
import { errorMessage } from './notify.ts';
import { serverFieldErrors } from './server-text.ts';

// A refusal the server put together (issue 43): its English text, its code and its values.
const caseNotFound = () =>
  new ApiError(404, 'Case not found', {}, undefined, { code: 'notFound', params: { what: 'Case' } });
const zipTooLarge = () =>
  new ApiError(400, 'The ZIP has 3000 entries; at most 2000 are allowed', {}, undefined, {
    code: 'zipTooManyEntries',
    params: { entries: 3000, maxEntries: 2000 },
  });

describe('errorMessage', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  it('shows a coded refusal as the server wrote it in English', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(errorMessage(caseNotFound(), 'Failed')).toBe('Case not found');
    expect(errorMessage(zipTooLarge(), 'Failed')).toBe('The ZIP has 3000 entries; at most 2000 are allowed');
  });

  it('shows a coded refusal in German, its words translated too', () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    expect(errorMessage(caseNotFound(), 'Failed')).toBe('Fall nicht gefunden');
    expect(errorMessage(zipTooLarge(), 'Failed')).toBe(
      'Die ZIP-Datei enthält 3000 Einträge; zulässig sind höchstens 2000',
    );
    const arch = new ApiError(400, 'The upper scan is not an STL mesh', {}, undefined, {
      code: 'scanNotStl',
      params: { arch: 'upper' },
    });
    expect(errorMessage(arch, 'Failed')).toBe('Der Oberkiefer-Scan ist kein STL-Mesh');
  });

  it("shows why a file could not be read in German, numbers as numbers and a reader's own English as it is", () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    const otherTriangles = new ApiError(
      400,
      'the stages are not the same shells moved: a stage has 170 triangles, stage 0 has 160',
      {},
      undefined,
      { code: 'planStageTriangles', params: { triangles: 170, stageZeroTriangles: 160 } },
    );
    expect(errorMessage(otherTriangles, 'Failed')).toBe(
      'die Stufen sind nicht dieselben Schalen, nur bewegt: eine Stufe hat 170 Dreiecke, Stufe 0 hat 160',
    );
    const detail = 'End of central directory record signature not found. Either not a zip file, or file is truncated.';
    const unreadable = new ApiError(400, `The ZIP cannot be read: ${detail}`, {}, undefined, {
      code: 'zipUnreadable',
      params: { detail },
    });
    expect(errorMessage(unreadable, 'Failed')).toBe(`Die ZIP-Datei kann nicht gelesen werden: ${detail}`);
  });

  it("shows the server's own fixed refusal in German (lingui/server-answers.ts puts it in the catalogs)", () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    expect(errorMessage(new ApiError(409, 'A role with this name already exists'), 'Failed')).toBe(
      'Eine Rolle mit diesem Namen existiert bereits',
    );
  });

  it('keeps a refusal without a code, or with one it does not know, to its text', () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    expect(errorMessage(new ApiError(409, 'Some new refusal'), 'Failed')).toBe('Some new refusal');
    const unknown = new ApiError(400, 'Later words', {}, undefined, { code: 'laterCode', params: {} });
    expect(errorMessage(unknown, 'Failed')).toBe('Later words');
    expect(errorMessage(new Error('x'), 'Failed')).toBe('Failed');
  });
});

describe('serverFieldErrors', () => {
  afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  // Two scans for the upper arch: the refusal's text is also the field's; the lower's is fixed words.
  const twoUpperScans = () =>
    new ApiError(400, 'Send one upper scan', { upper: 'Send one upper scan', lower: 'Not an STL mesh' }, undefined, {
      code: 'sendOneScan',
      params: { arch: 'upper' },
    });

  it('keeps the English as the server wrote it', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(serverFieldErrors(twoUpperScans())).toEqual({ upper: 'Send one upper scan', lower: 'Not an STL mesh' });
  });

  it("puts a field's coded message together from its template, and shows fixed field words from the catalog", () => {
    i18n.loadAndActivate({ locale: 'de', messages: german });
    expect(serverFieldErrors(twoUpperScans())).toEqual({
      upper: 'Senden Sie nur einen Oberkiefer-Scan',
      lower: 'Kein STL-Mesh',
    });
  });
});
