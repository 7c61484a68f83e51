/**
 * `npm run bench`: every benchmark, each printing its figures beside a baseline measured
 * in the same run (bare Node / bare Fastify on this machine). Run on a quiet machine.
 */
import { execSync } from 'node:child_process';
import path from 'node:path';
import { runBrowserBenchmark } from './browser.ts';
import { runBundleBenchmark } from './bundle.ts';
import { runEventsBenchmark } from './events.ts';
import { runListBenchmark } from './lists.ts';
import { runMemoryBenchmark } from './memory.ts';
import { runMetricsOverheadBenchmark } from './metrics-overhead.ts';
import { runOffTrackBenchmark } from './off-track.ts';
import { runPrescriptionPdfBenchmark } from './prescription-pdf.ts';
import { runMeshDerivativeBenchmark } from './mesh-derivative.ts';
import { runStlDownloadBenchmark } from './stl-download.ts';
import { runUploadBenchmark } from './upload.ts';
import { runViewerBenchmark } from './viewer.ts';

const root = path.resolve(import.meta.dirname, '..');
console.log(
  `Aligner Portal benchmarks, ${new Date().toISOString()}, node ${process.version}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
);
execSync('npm run build', { cwd: root, stdio: 'ignore' });
await runBundleBenchmark();
await runMemoryBenchmark();
await runBrowserBenchmark();
await runUploadBenchmark();
await runListBenchmark();
await runOffTrackBenchmark();
await runMetricsOverheadBenchmark();
await runPrescriptionPdfBenchmark();
await runEventsBenchmark();
await runMeshDerivativeBenchmark();
await runStlDownloadBenchmark();
await runViewerBenchmark();
// In a process of its own: it seeds bench/lists.ts's cases at its own count (BENCH_CASES).
execSync(`node --import tsx ${path.join(root, 'bench/backup.ts')}`, { stdio: 'inherit' });
// In a process of its own: a script, as backup.ts is (BENCH_TRACKING_CASES).
execSync(`node --import tsx ${path.join(root, 'bench/tracking.ts')}`, { stdio: 'inherit' });
// In a process of its own: a script that starts portals of its own on one data folder, one after another.
execSync(`node --import tsx ${path.join(root, 'bench/progress-job.ts')}`, { stdio: 'inherit' });
