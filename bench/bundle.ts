/**
 * Bundle budgets, from the build's own record of its chunks (Vite's manifest): the gzipped
 * JavaScript the sign-in page loads (the entry and every chunk it imports statically) against
 * 150 KB, a cold signed-in dashboard (that, plus the lazily loaded query-cache layout, the
 * signed-in shell and the dashboard route, each with its static imports) against 220 KB,
 * and the 3D viewer (three.js) in a chunk neither loads. bench/browser.ts measures the same
 * in Chromium. English needs no catalog (it is in the code); German's is printed beside, as a
 * German reader loads it once before the first page. Reads apps/web/dist (run `npm run build` first), or WEB_DIST as the portal does (another
 * build, for a baseline); exits 1 over budget when run alone.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fixed, printTable } from './lib/measure.ts';

const dist = process.env.WEB_DIST
  ? path.resolve(process.env.WEB_DIST)
  : path.resolve(import.meta.dirname, '../apps/web/dist');
const bundleBudgetsKb = { signIn: 150, dashboard: 220 };

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The gzip size of a built file, from the .gz twin the build wrote beside it; a file with no
 * twin (the compression plugin skips one that gzip would not shrink) is sent as it is.
 */
async function gzipKb(file: string) {
  const gzip = await readFile(path.join(dist, `${file}.gz`)).catch(() => readFile(path.join(dist, file)));
  return gzip.length / 1024;
}

/** The chunks of `roots` and everything they import statically (what the browser fetches with them). */
function staticClosure(manifest: Manifest, roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const key = queue.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    queue.push(...(manifest[key]?.imports ?? []));
  }
  return [...seen].map((key) => manifest[key]!.file);
}

const totalKb = async (files: string[]) => (await Promise.all(files.map(gzipKb))).reduce((sum, kb) => sum + kb, 0);

export async function runBundleBenchmark() {
  const manifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  // English is compiled into the code (lingui/inline-english.ts): an English reader loads no
  // catalog. Another language's loads before the first page draws, once, as its own chunk.
  const signIn = staticClosure(manifest, [entry]);
  const dashboard = staticClosure(manifest, [
    entry,
    'src/app/with-queries.tsx',
    'src/app/guards.tsx',
    'src/app/routes/dashboard.tsx',
  ]);
  const signInKb = await totalKb(signIn);
  const dashboardKb = await totalKb(dashboard);
  const threeChunks: string[] = [];
  for (const chunk of Object.values(manifest)) {
    if (!chunk.file.endsWith('.js')) continue;
    const code = await readFile(path.join(dist, chunk.file), 'utf8');
    if (code.includes('WebGLRenderer')) threeChunks.push(chunk.file);
  }
  const isThreeSeparate =
    threeChunks.length > 0 && threeChunks.every((file) => !signIn.includes(file) && !dashboard.includes(file));
  const verdict = (kb: number, budget: number) => (kb <= budget ? 'within' : 'OVER');
  printTable('Bundle: JavaScript loaded (gzip, from the build manifest)', [
    {
      page: `sign-in / (${signIn.length} chunks)`,
      'KB gzip': fixed(signInKb),
      budget: bundleBudgetsKb.signIn,
      verdict: verdict(signInKb, bundleBudgetsKb.signIn),
    },
    {
      page: `cold /dashboard (${dashboard.length} chunks)`,
      'KB gzip': fixed(dashboardKb),
      budget: bundleBudgetsKb.dashboard,
      verdict: verdict(dashboardKb, bundleBudgetsKb.dashboard),
    },
    // A build from before the languages (a baseline) has no catalogs.
    ...(manifest['src/locales/de.po']
      ? [
          {
            page: "German's catalog (a German reader, once)",
            'KB gzip': fixed(await gzipKb(manifest['src/locales/de.po'].file)),
            budget: '-',
            verdict: 'own chunk',
          },
        ]
      : []),
    ...(await Promise.all(
      threeChunks.map(async (file) => ({
        page: `3D viewer: ${file}`,
        'KB gzip': fixed(await gzipKb(file)),
        budget: '-',
        verdict: isThreeSeparate ? 'own chunk' : 'LOADED',
      })),
    )),
  ]);
  const isWithin = signInKb <= bundleBudgetsKb.signIn && dashboardKb <= bundleBudgetsKb.dashboard && isThreeSeparate;
  return { signInKb, dashboardKb, isThreeSeparate, isWithin };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { isWithin } = await runBundleBenchmark();
  if (!isWithin) process.exitCode = 1;
}
