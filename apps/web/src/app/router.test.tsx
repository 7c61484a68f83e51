// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from './theme.ts';

describe('App router', () => {
  it("keeps the portal's name shown while a full page load fetches the page's code, without a warning", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // The router reads the address when it is made, on import.
    window.history.replaceState(null, '', '/terms');
    const { AppRouter } = await import('./router.tsx');
    render(
      <MantineProvider theme={theme}>
        <AppRouter />
      </MantineProvider>,
    );
    expect(screen.getByText('Aligner Portal')).toBeTruthy();
    await screen.findByRole('heading', { name: '1. The service' });
    expect(warn.mock.calls.flat().join('\n')).not.toContain('HydrateFallback');
  });
});
