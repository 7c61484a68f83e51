/**
 * Shims for the component tests (`*.test.tsx`), which run in happy-dom: it has no layout
 * engine, and Mantine asks the browser for things only a real one answers. Test-side only;
 * the unit tests (`*.test.ts`) run in node, where there is no window and nothing to shim.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, inject } from 'vitest';
import { i18n } from '../lib/i18n.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's factor for every test timeout (vitest.config.ts, e2e/helpers/test-time.ts). */
    testTimeFactor: number;
  }
}

// English, the spec's words, in every test file whatever ran before it in the worker (one module
// graph per worker): messages as written in the code (the build's catalogs are for other languages).
i18n.loadAndActivate({ locale: 'en', messages: {} });

// waitFor and findBy* wait for an outcome, not a pace: their default 1 s failed a login-form
// test on a loaded CI machine. A bound, times the run's factor, as the test's own timeout is.
configure({ asyncUtilTimeout: 15_000 * inject('testTimeFactor') });

if (typeof window !== 'undefined') {
  // Mantine's useMediaQuery and useMatches (the case form's stepper orientation) call it on mount.
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;

  // Combobox dropdowns, ScrollArea and Textarea autosize observe their size.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };

  // Textarea autosize measures again when web fonts load; happy-dom loads no fonts.
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });

  // Combobox scrolls the selected option into view; happy-dom lays nothing out to scroll.
  Element.prototype.scrollIntoView ??= () => undefined;

  // RTL removes what it rendered after each test only by itself when vitest's globals are on.
  afterEach(cleanup);
}
