import { linguiVitePlugins } from './lingui/inline-english.ts';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
// One factor for every timeout below and every deadline of the tests' helpers (docs/decisions/test-time-factor.md).
import { scaled, timeFactor } from './e2e/helpers/test-time.ts';

/** Server test files that replace a module with vi.mock: they need a module graph of their own. */
const isolatedServerTests = ['test/anonymous-hashing.test.ts'];

/**
 * Server test files that reach no database (STL reading and viewing copies, tokens, the docs'
 * links), or only a PGlite of their own (the full geography's seed): run once, in `npm test`,
 * and not again in CI's PostgreSQL pass (.ci/run).
 */
const databaseFreeServerTests = [
  'test/mesh-derivative.test.ts',
  'test/geography-seed.test.ts',
  'test/backup-archive.test.ts',
  'test/mesh-weld.test.ts',
  'test/tokens.test.ts',
  'test/failure-counter.test.ts',
  'test/docs-links.test.ts',
  'test/configuration-doc.test.ts',
  'test/started-processes.test.ts',
  'test/progress-fit.test.ts',
  'test/server-answers.test.ts',
];

// Two workers on this 2-core machine (PGlite takes 0.5-1 GB a worker), beside the browser
// suite's two (`npm test` runs both at once); three were slower. CI's PostgreSQL pass runs
// beside the PGlite pass on two as well (SERVER_TEST_WORKERS, .ci/run).
const server: NonNullable<TestProjectInlineConfiguration['test']> = {
  root: './apps/server',
  globalSetup: ['./test/helpers/global-setup.ts'],
  sequence: { groupOrder: 1 },
  // Several tests open an app of their own (a database copied from the template): on a loaded
  // CI machine that alone has taken 30 s.
  testTimeout: scaled(60_000),
  hookTimeout: scaled(120_000),
  // expect.poll's default 1 s is a pace on a loaded machine; a bound instead.
  expect: { poll: { timeout: scaled(10_000) } },
  pool: 'forks',
  maxWorkers: Number(process.env.SERVER_TEST_WORKERS ?? 2),
};

/**
 * The server files that take longest, started first, longest first (seconds in a CI run on a
 * fresh clone, PGlite pass / PostgreSQL pass, both passes at once). Without a cache of earlier
 * runs, vitest starts files in no useful order: the fuzzer used to start last, and then
 * faults-restart-jobs, one worker running it alone for 47 s while the other had nothing left.
 */
const slowestFirst = [
  'test/backup-restore.test.ts', // 152 / 178 s: the backup command line, 18 runs
  'test/nginx.test.ts', // PostgreSQL only, 71 s
  'test/fuzz.test.ts', // 53 / 65 s: every route for a time budget
  'test/authorization-matrix.test.ts', // 62 / 60 s
  'test/faults-restart-jobs.test.ts', // 59 / 47 s
  'test/faults-stalled-requests.test.ts', // 58 s: three real starts, one of them `npm start`
  'test/faults-restart.test.ts', // 47 / 35 s
  'test/scale-out.test.ts', // PostgreSQL only, 33 s
  'test/geography-seed.test.ts', // 10 s: the full geography seeded (the PGlite pass only)
  'test/body-limits.test.ts', // 28 / 19 s
  'test/faults-hostile-clients.test.ts', // 23 / 16 s
  'test/resumable-uploads.test.ts', // 14 / 22 s
  'test/events-scale-out.test.ts', // PostgreSQL only, 21 s
  'test/faults-sweep-killed-upload.test.ts', // 21 s
  'test/auth.test.ts', // 15 s
];

class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = slowestFirst.findIndex((name) => file.moduleId.endsWith(`/apps/server/${name}`));
      return index === -1 ? slowestFirst.length : index;
    };
    // Within each project (which BaseSequencer keeps together, in its order); stable otherwise.
    const projectOrder = [...new Set(sorted.map((file) => file.project.name))];
    return sorted
      .map((file, position) => ({ file, position }))
      .sort(
        (a, b) =>
          projectOrder.indexOf(a.file.project.name) - projectOrder.indexOf(b.file.project.name) ||
          rank(a.file) - rank(b.file) ||
          a.position - b.position,
      )
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowestFirstSequencer },
    // Transformed TypeScript kept in node_modules/.experimental-vitest-cache between runs:
    // one server test file no longer compiles the server's ~200 modules first.
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['test/**/*.test.ts'],
          // vitest's own defaults, times the factor.
          testTimeout: scaled(5_000),
          hookTimeout: scaled(10_000),
        },
      },
      {
        // Lingui's macros and catalogs as the web app's build has them (apps/web/vite.config.ts).
        plugins: linguiVitePlugins(),
        test: {
          name: 'web',
          root: './apps/web',
          // Unit tests (*.test.ts) in node; component tests (*.test.tsx) in happy-dom, each
          // file asking for it in its first line (`// @vitest-environment happy-dom`).
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          setupFiles: ['./src/testing/setup.ts'],
          // One module graph per worker: React, Mantine and the features imported once, not
          // once per file (with the contract project, alone: 26 s and 26 CPU-s instead of 51 s
          // and 60). Each test still renders its own tree, cleaned up after it (setup.ts).
          isolate: false,
          // A form test clicks and types through React and Mantine: seconds on a quiet machine,
          // over 20 s in a CI run with both passes at once (four case-form tests stopped there).
          // A bound for a test that hangs, not a pace.
          testTimeout: scaled(90_000),
          hookTimeout: scaled(10_000),
          // The same factor for testing-library's waits (src/testing/setup.ts), in the browser-like environment.
          provide: { testTimeFactor: timeFactor },
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          include: ['test/**/*.test.ts'],
          exclude: [...isolatedServerTests, ...databaseFreeServerTests],
          // One module graph per worker, not per file: each file still makes its own app and
          // database, and the server's modules are imported once (half the project's time).
          isolate: false,
        },
      },
      {
        test: { ...server, name: 'server-isolated', include: isolatedServerTests },
      },
      {
        test: { ...server, name: 'server-units', include: databaseFreeServerTests, isolate: false },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['tests/**/*.e2e.test.ts'],
          globalSetup: ['./helpers/global-setup.ts'],
          // After the API tests when one vitest runs both; `npm test` runs the two in separate
          // vitest processes side by side (test:api, test:browser): the browser suite mostly
          // waits, on Chromium and on the portal, and alone it left a core idle for minutes.
          sequence: { groupOrder: 2 },
          testTimeout: scaled(90_000),
          hookTimeout: scaled(240_000),
          // expect.poll gives up after 1 s by default; a loaded CI machine can take longer
          // to answer a request and render the toast.
          expect: { poll: { timeout: scaled(10_000) } },
          pool: 'forks',
          // Test files share their worker's module graph (playwright-core, axe, the contract):
          // the worker's one Chromium too (helpers/browser.ts workerBrowser), each test with a
          // context of its own; each file signs in its own users.
          isolate: false,
          // Each worker has a portal of its own (helpers/global-setup.ts).
          maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
        },
      },
    ],
  },
});
