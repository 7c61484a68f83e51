/**
 * Compiles the server for `npm start`: apps/server/src and the workspace's own packages
 * (@portal/contract) bundled into dist/server.js (started by dist/main.js, below) and
 * dist/derivative-worker.js (the mesh conversion's worker threads), every npm package left to
 * node_modules.
 * Started as plain JavaScript, the process loads no TypeScript stripper (Node's amaro costs
 * about 17 MB of resident memory; docs/decisions.md § Start command and compiled output).
 *
 * `node build.ts` (the root `npm run build` runs it); tests and benchmarks call buildServer().
 */
import { build, type Plugin } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const serverRoot = import.meta.dirname;
export const serverDist = path.join(serverRoot, 'dist');

/**
 * dist/main.js, what `npm start` runs: source maps on for the server's own code (dist/server.js
 * and its chunks) before it loads, so stack traces point into src/. Node's --enable-source-maps
 * would also parse the maps that npm packages ship (drizzle-orm has one per file): about 8 MB
 * more resident memory against 3 MB for the server's own (docs/decisions.md).
 */
const startFile = `import { setSourceMapsSupport } from 'node:module';
setSourceMapsSupport(true, { nodeModules: false });
await import('./server.js');
`;

/** Bare imports stay imports of node_modules, except the workspace's packages, which are TypeScript source. */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Builds dist/. Each file is written beside its place and renamed into it, so a process
 * starting meanwhile never reads half a file, and two builds at once leave the same output.
 */
export async function buildServer(): Promise<void> {
  const result = await build({
    // The same output whichever folder the build runs from (the comments and maps name paths
    // relative to it): chunk names carry a hash of their content, and a build that named them
    // differently would remove the chunks a running server still loads on demand.
    absWorkingDir: serverRoot,
    entryPoints: [
      { in: path.join(serverRoot, 'src/main.ts'), out: 'server' },
      // Loaded by path in each worker thread (src/meshes/derivative-pool.ts), never imported.
      { in: path.join(serverRoot, 'src/meshes/derivative-worker.ts'), out: 'derivative-worker' },
    ],
    outdir: serverDist,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // A module imported with `await import()` (S3, Redis, the PDF renderer) becomes a chunk of
    // its own, so what it imports from node_modules still loads only when it is used. Chunks
    // sit directly in dist/, like main.js: src/server-root.ts relies on that depth.
    splitting: true,
    chunkNames: '[name]-[hash]',
    // The maps name the source files, which are in the repository, rather than carry their text.
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [npmPackagesExternal],
    write: false,
    logLevel: 'warning',
  });
  const files = [
    ...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    { path: path.join(serverDist, 'main.js'), contents: startFile },
  ];
  await mkdir(serverDist, { recursive: true });
  const suffix = `.${randomBytes(4).toString('hex')}.tmp`;
  await Promise.all(
    files.map(async (file) => {
      await writeFile(file.path + suffix, file.contents);
      await rename(file.path + suffix, file.path);
    }),
  );
  await removeStaleOutput(new Set(files.map((file) => path.basename(file.path))));
}

/** Chunks of earlier builds (their names carry a content hash). */
async function removeStaleOutput(current: Set<string>) {
  const stale = (await readdir(serverDist)).filter((name) => !current.has(name) && !name.endsWith('.tmp'));
  await Promise.all(stale.map((name) => rm(path.join(serverDist, name), { force: true })));
}

if (import.meta.main) await buildServer();
