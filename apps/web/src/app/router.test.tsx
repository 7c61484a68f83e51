// @vitest-environment happy-dom
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../lib/i18n.ts';
import { theme } from './theme.ts';

// English, the spec's words: the messages as written in the code.
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('App router', () => {
  it("keeps the portal's name shown while a full page load fetches the page's code, without a warning", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // The router reads the address when it is made, on import.
    window.history.replaceState(null, '', '/terms');
    const { AppRouter } = await import('./router.tsx');
    render(
      <I18nProvider i18n={i18n}>
        <MantineProvider theme={theme}>
          <AppRouter />
        </MantineProvider>
      </I18nProvider>,
    );
    expect(screen.getByText('Aligner Portal')).toBeTruthy();
    await screen.findByRole('heading', { name: '1. The service' });
    expect(warn.mock.calls.flat().join('\n')).not.toContain('HydrateFallback');
  });
});
