// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../../testing/fake-api.ts';
import { renderWithApp } from '../../../../testing/render.tsx';
import { ToothPickerModal } from './tooth-picker-modal.tsx';

/** The tooth picker in the reader's notation, not the case's (docs/decisions/tooth-notation.md). */
describe("the tooth picker in the reader's tooth notation", () => {
  it('labels the tooth picker in the user’s notation and names it', async () => {
    fakeApi({ 'GET /api/account/tooth-notation': { toothNotation: 'Universal' } });
    renderWithApp(
      <ToothPickerModal
        opened
        onClose={() => {}}
        fieldLabel="Don't Move Tooth"
        system="FDI"
        selected={[14]}
        onToggle={() => {}}
      />,
    );
    expect(await screen.findByText("Don't Move Tooth (Universal numbering)")).toBeTruthy();
    const checkbox = screen.getByRole('checkbox', { name: '14: Upper left 6 (tooth 14)' });
    expect((checkbox as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('checkbox', { name: '1: Upper right 8 (tooth 1)' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /^26: Upper left 6/ })).toBeNull();
  });

  it('labels the picker in FDI for a user who reads FDI, on a Universal case', async () => {
    fakeApi({ 'GET /api/account/tooth-notation': { toothNotation: 'FDI' } });
    renderWithApp(
      <ToothPickerModal
        opened
        onClose={() => {}}
        fieldLabel="Don't Move Tooth"
        system="Universal"
        selected={[]}
        onToggle={() => {}}
      />,
    );
    expect(await screen.findByRole('checkbox', { name: '26: Upper left 6 (tooth 14)' })).toBeTruthy();
  });
});
