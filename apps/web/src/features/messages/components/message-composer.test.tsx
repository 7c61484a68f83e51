// @vitest-environment happy-dom
import { messageMessages } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fieldDescription, renderWithApp } from '../../../testing/render.tsx';
import { MessageComposer } from './message-composer.tsx';

const file = (name: string, type: string) => new File(['solid'], name, { type });
const fileField = () => screen.getByRole('button', { name: /^Attach files/ });
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('Message composer', () => {
  it('offers only the file types the server takes and refuses another one when it is picked', async () => {
    const { user } = renderWithApp(<MessageComposer caseId={3} />);
    expect(fileInput().accept).toBe('.jpg,.jpeg,.png,.pdf,.stl');

    await user.upload(fileInput(), [file('report.pdf', 'application/pdf'), file('notes.txt', 'text/plain')]);
    await waitFor(() => expect(fieldDescription(fileField())).toContain(`notes.txt: ${messageMessages.fileType}`));
    expect(fileField().textContent).toContain('report.pdf');
    expect(fileField().textContent).not.toContain('notes.txt');
  });
});
