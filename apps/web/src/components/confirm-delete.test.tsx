// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { confirmDelete } from './confirm-delete.tsx';
import { ModalsOnDemand } from './modals-on-demand.tsx';

describe('Delete confirmation', () => {
  it("asks in the spec's words and names what would be deleted under them", async () => {
    render(
      <MantineProvider env="test">
        <ModalsOnDemand />
      </MantineProvider>,
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
