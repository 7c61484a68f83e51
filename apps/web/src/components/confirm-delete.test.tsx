// @vitest-environment happy-dom
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../lib/i18n.ts';
import { confirmDelete } from './confirm-delete.tsx';
import { ModalsOnDemand } from './modals-on-demand.tsx';

// English, the spec's words: the messages as written in the code.
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('Delete confirmation', () => {
  it("asks in the spec's words and names what would be deleted under them", async () => {
    render(
      <I18nProvider i18n={i18n}>
        <MantineProvider env="test">
          <ModalsOnDemand />
        </MantineProvider>
      </I18nProvider>,
    );
    const answer = confirmDelete("Role 'Lab technician'");
    const dialog = await screen.findByRole('dialog');
    const texts = within(dialog)
      .getAllByText(/./, { selector: 'p' })
      .map((text) => text.textContent);
    expect(texts).toEqual(['Are you sure you want to delete?', "Role 'Lab technician'"]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await answer).toBe(false);
  });
});
