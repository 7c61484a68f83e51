import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, type RenderResult } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { cssVariablesResolver, theme } from '../app/theme.ts';
import { i18n } from '../lib/i18n.ts';

// English, the spec's words: the messages as written in the code (the catalogs are the build's).
i18n.loadAndActivate({ locale: 'en', messages: {} });

/**
 * Renders one screen or form as the app does: Mantine with the app's theme, toasts, a fresh
 * query cache (no retries, so a refused request fails at once) and a router at `path`. A data
 * router, not a MemoryRouter: the case form blocks navigation with useBlocker, which needs one.
 */
export function renderWithApp(
  ui: ReactElement,
  { path = '/' }: { path?: string } = {},
): RenderResult & {
  user: UserEvent;
} {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  // Files are chosen as the browser tests' setFiles does: a refused type reaches the form, which must refuse it.
  const user = userEvent.setup({ applyAccept: false, delay: null });
  const result = render(
    // env="test": no transitions and no portals, so a dropdown's options are there at once.
    <I18nProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
        <Notifications />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nProvider>,
  );
  return { ...result, user };
}

/**
 * The text announced as a field's description (its error or hint), read through
 * aria-describedby as the browser tests' fieldDescription does: a message tied to its field.
 */
export function fieldDescription(field: HTMLElement): string {
  const ids = field.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? [];
  return ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .filter(Boolean)
    .join(' ');
}

/**
 * Replaces a field's text in one change, as the browser tests' fill does: typing key by key
 * would validate the whole form once per key, seconds on a form as large as the doctor's.
 */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  if (text !== '') await user.paste(text);
}

/** A label as written, with or without the asterisk Mantine adds to a required field's. */
export const labelled = (label: string) => new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`);

/** An input by its label: Mantine's selects and password inputs have no textbox role. */
export const inputLabelled = (label: string) => screen.getByLabelText(labelled(label), { selector: 'input' });

/** Picks an option of a Mantine select, as a person does: open it, click the option. */
export async function pickOption(user: UserEvent, label: string, option: string): Promise<void> {
  await user.click(inputLabelled(label));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** The hidden file input that Mantine's FileButton puts just before the field it opens. */
export const fileInputOf = (fileButton: HTMLElement) =>
  fileButton.closest('.mantine-InputWrapper-root')!.previousElementSibling as HTMLInputElement;

/** A toast with this text, shown by Mantine's notifications. */
export const findToast = (text: string | RegExp) =>
  screen.findByText(text, { selector: '.mantine-Notification-description' });
