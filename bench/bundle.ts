/**
 * Bundle budget: the JavaScript the browser needs for `/` (the entry chunk and the chunks
 * it imports statically), gzipped, against 200 KB; and the 3D viewer (three.js) in a chunk
 * of its own that `/` does not load. Reads apps/web/dist (run `npm run build` first).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fixed, printTable } from './lib/measure.ts';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const budgetKb = 200;

const gzipKb = async (file: string) => gzipSync(await readFile(path.join(dist, file))).length / 1024;

/** The entry script and everything it imports statically, following `import ... from "./x.js"`. */
async function initialChunks(): Promise<string[]> {
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no entry script in index.html');
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(path.join(dist, file), 'utf8');
    // Static imports only: `import(...)` (lazy) is left out on purpose.
    for (const match of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      queue.push(path.join(path.dirname(file), match[1]!));
    }
  }
  return [...seen];
}

export async function runBundleBenchmark() {
  const initial = await initialChunks();
  const initialKb = (await Promise.all(initial.map(gzipKb))).reduce((sum, kb) => sum + kb, 0);
  const assets = (await readdir(path.join(dist, 'assets'))).filter((file) => file.endsWith('.js'));
  const threeChunks: string[] = [];
  for (const file of assets) {
    const code = await readFile(path.join(dist, 'assets', file), 'utf8');
    if (code.includes('WebGLRenderer')) threeChunks.push(`assets/${file}`);
  }
  const isThreeSeparate = threeChunks.length > 0 && threeChunks.every((file) => !initial.includes(file));
  printTable('Bundle: JavaScript loaded by / (gzip)', [
    { chunk: `initial (${initial.length} chunk${initial.length === 1 ? '' : 's'})`, 'KB gzip': fixed(initialKb) },
    { chunk: 'budget', 'KB gzip': fixed(budgetKb, 0) },
    ...(await Promise.all(
      threeChunks.map(async (file) => ({ chunk: `3D viewer: ${file}`, 'KB gzip': fixed(await gzipKb(file)) })),
    )),
  ]);
  console.log(
    `  initial JavaScript ${fixed(initialKb)} KB gzip: ${initialKb <= budgetKb ? 'within' : 'OVER'} the ${budgetKb} KB budget`,
  );
  console.log(
    `  3D viewer ${isThreeSeparate ? 'in its own chunk, not loaded by /' : threeChunks.length === 0 ? 'not found in the build' : 'LOADED BY /'}`,
  );
  return { initialKb, isThreeSeparate };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runBundleBenchmark();
}
