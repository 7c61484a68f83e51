import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** Server test files that replace a module with vi.mock: they need a module graph of their own. */
const isolatedServerTests = ['test/anonymous-hashing.test.ts'];

// PGlite takes 0.5-1 GB per process: two workers fit this 2-core machine.
const server: NonNullable<TestProjectInlineConfiguration['test']> = {
  root: './apps/server',
  globalSetup: ['./test/helpers/global-setup.ts'],
  sequence: { groupOrder: 1 },
  // Several tests open an app of their own (a database copied from the template): on a loaded
  // CI machine that alone has taken 30 s.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
  maxWorkers: 2,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          include: ['test/**/*.test.ts'],
          exclude: isolatedServerTests,
          // One module graph per worker, not per file: each file still makes its own app and
          // database, and the server's modules are imported once (half the project's time).
          isolate: false,
        },
      },
      {
        test: { ...server, name: 'server-isolated', include: isolatedServerTests },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['tests/**/*.e2e.test.ts'],
          globalSetup: ['./helpers/global-setup.ts'],
          // After the API tests: the browser tests want the machine to themselves.
          sequence: { groupOrder: 2 },
          testTimeout: 90_000,
          hookTimeout: 240_000,
          // expect.poll gives up after 1 s by default; a loaded CI machine can take longer
          // to answer a request and render the toast.
          expect: { poll: { timeout: 10_000 } },
          pool: 'forks',
          maxWorkers: 1,
        },
      },
    ],
  },
});
