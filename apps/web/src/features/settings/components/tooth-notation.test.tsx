// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithApp } from '../../../testing/render.tsx';
import { ToothNotationSection } from './tooth-notation-section.tsx';

/** The reader's tooth notation on the profile page (docs/decisions/tooth-notation.md). */
describe('the tooth numbering section', () => {
  it('saves the choice on the profile page, and the screens follow at once', async () => {
    const api = fakeApi({
      'GET /api/account/tooth-notation': { toothNotation: 'FDI' },
      'PUT /api/account/tooth-notation': (request: { body: unknown }) => request.body,
    });
    const { user } = renderWithApp(<ToothNotationSection />);
    expect(screen.getByRole('heading', { name: 'Tooth numbering' })).toBeTruthy();
    const fdi = await screen.findByRole('radio', { name: 'FDI' });
    expect((fdi as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Palmer' }));
    expect(api.sentTo('PUT /api/account/tooth-notation').map(({ body }) => body)).toEqual([
      { toothNotation: 'Palmer' },
    ]);
    expect(((await screen.findByRole('radio', { name: 'Palmer' })) as HTMLInputElement).checked).toBe(true);
  });
});
