/**
 * Compiles the server for `npm start`: apps/server/src and the workspace's own packages
 * (@portal/contract) bundled into dist/server.js (started by dist/main.js, below) and
 * dist/derivative-worker.js (the mesh conversion's worker threads), every npm package but
 * drizzle-orm left to node_modules; and the backup command line into dist/backup-cli.js.
 * Started as plain JavaScript, the process loads no TypeScript stripper (Node's amaro costs
 * about 17 MB of resident memory; docs/decisions/build-and-runtime.md § Start command and compiled output).
 *
 * `node build.ts` (the root `npm run build` runs it); tests and benchmarks call buildServer().
 * `node build.ts backup-cli` writes dist/backup-cli.js alone (`npm run backup` and `restore`).
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const serverRoot = import.meta.dirname;
export const serverDist = path.join(serverRoot, 'dist');
/** What `npm run backup` and `npm run restore` run, after `node build.ts backup-cli`. */
export const backupCliFile = path.join(serverDist, 'backup-cli.js');

/**
 * dist/main.js, what `npm start` runs: source maps on for the server's own code (dist/server.js
 * and its chunks) before it loads, so stack traces point into src/. Node's --enable-source-maps
 * would also parse the maps that npm packages ship (drizzle-orm has one per file): about 8 MB
 * more resident memory against 3 MB for the server's own (docs/decisions/build-and-runtime.md § Start command and compiled output).
 */
const startFile = `import { setSourceMapsSupport } from 'node:module';
setSourceMapsSupport(true, { nodeModules: false });
await import('./server.js');
`;

/**
 * Bare imports stay imports of node_modules, except the workspace's packages, which are
 * TypeScript source, and drizzle-orm: Node's resolver reads its 178 KB package.json (an
 * export for each file) again for each of the ~100 files the server imports, 0.7 CPU-s of
 * each start (docs/decisions/build-and-runtime.md § Start command and compiled output).
 */
const bundledPackages = ['@portal/', 'drizzle-orm'];
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      bundledPackages.some((name) => args.path.startsWith(name)) ? undefined : { path: args.path, external: true },
    );
  },
};

const shared = {
  // The same output whichever folder the build runs from (the comments and maps name paths
  // relative to it): chunk names carry a hash of their content, and a build that named them
  // differently would remove the chunks a running server still loads on demand.
  absWorkingDir: serverRoot,
  outdir: serverDist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  // The maps name the source files, which are in the repository, rather than carry their text.
  sourcemap: 'linked',
  sourcesContent: false,
  plugins: [npmPackagesExternal],
  write: false,
  logLevel: 'warning',
} satisfies BuildOptions;

/**
 * dist/backup-cli.js: src/backup/cli.ts in one file of its own (no chunks shared with the
 * server), so `npm run backup` can write it while an older build's server runs. Started
 * compiled, a run's Node starts in 0.2 CPU-s instead of 1.2 stripping and loading the source.
 */
async function compileBackupCli() {
  const result = await build({
    ...shared,
    entryPoints: [{ in: path.join(serverRoot, 'src/backup/cli.ts'), out: 'backup-cli' }],
    splitting: false,
  });
  return result.outputFiles.map((file) => ({ path: file.path, contents: file.contents }));
}

/** Writes each file beside its place and renames it into it: a process starting meanwhile never reads half a file. */
async function writeWhole(files: { path: string; contents: string | Uint8Array }[]) {
  await mkdir(serverDist, { recursive: true });
  const suffix = `.${randomBytes(4).toString('hex')}.tmp`;
  await Promise.all(
    files.map(async (file) => {
      await writeFile(file.path + suffix, file.contents);
      await rename(file.path + suffix, file.path);
    }),
  );
}

/** Builds dist/backup-cli.js alone, leaving the server's files as they are. */
export async function buildBackupCli(): Promise<void> {
  await writeWhole(await compileBackupCli());
}

/** Builds dist/ (writeWhole): two builds at once leave the same output. */
export async function buildServer(): Promise<void> {
  const [result, backupCli] = await Promise.all([
    build({
      ...shared,
      entryPoints: [
        { in: path.join(serverRoot, 'src/main.ts'), out: 'server' },
        // Loaded by path in each worker thread (src/meshes/derivative-pool.ts), never imported.
        { in: path.join(serverRoot, 'src/meshes/derivative-worker.ts'), out: 'derivative-worker' },
      ],
      // A module imported with `await import()` (S3, Redis, the PDF renderer) becomes a chunk of
      // its own, so what it imports from node_modules still loads only when it is used. Chunks
      // sit directly in dist/, like main.js: src/server-root.ts relies on that depth.
      splitting: true,
      chunkNames: '[name]-[hash]',
    }),
    compileBackupCli(),
  ]);
  const files = [
    ...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    { path: path.join(serverDist, 'main.js'), contents: startFile },
    ...backupCli,
  ];
  await writeWhole(files);
  await removeStaleOutput(new Set(files.map((file) => path.basename(file.path))));
}

/** Chunks of earlier builds (their names carry a content hash). */
async function removeStaleOutput(current: Set<string>) {
  const stale = (await readdir(serverDist)).filter((name) => !current.has(name) && !name.endsWith('.tmp'));
  await Promise.all(stale.map((name) => rm(path.join(serverDist, name), { force: true })));
}

if (import.meta.main) await (process.argv[2] === 'backup-cli' ? buildBackupCli() : buildServer());
