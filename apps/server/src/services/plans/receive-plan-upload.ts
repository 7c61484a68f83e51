import {
  expectedStages,
  parseStageFileName,
  planArches,
  planMessages,
  planStagesField,
  planSummary,
  serverFieldMessages,
  type PlanArch,
  type PlanSummary,
} from '@portal/contract';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, badRequest, coded } from '../../lib/errors.ts';
import { refuseBadPart, type FormLimits, type FormPart } from '../../lib/multipart-form.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { extensionOf, isStlModel } from '../cases/file-checks.ts';
import { drainStream, storeCounted } from '../uploads/store-counted.ts';
import { ownerOnlyFolder } from '../../lib/owner-only.ts';
import { planFileName } from './plan-files.ts';
import { planZipLimits, readPlanZip } from './plan-zip.ts';

interface StoredStageFile {
  arch: PlanArch;
  stage: number;
  fileName: string;
  storageKey: string;
  size: number;
  sha256: string;
}

export interface ReceivedPlanUpload {
  summary: PlanSummary;
  stages: StoredStageFile[];
}

type FilePart = Extract<FormPart, { type: 'file' }>;

/** The parser's limits for a plan form: loose STLs up to the ZIP entry limit, a small summary. */
export const planUploadLimits = (maxUploadBytes: number): FormLimits => ({
  fileSize: maxUploadBytes,
  files: planZipLimits.maxEntries,
  fields: 10,
  fieldSize: 256 * 1024,
  parts: planZipLimits.maxEntries + 10,
});

const tooLarge = () => new AppError(413, 'The plan is larger than the server allows');

const drain = (part: FilePart) => drainStream(part.file);

/**
 * Receives a plan upload (docs/decisions/plans.md § Treatment plans): the `summary` JSON and the
 * `stages` files, loose STLs or one ZIP (spooled to a temporary file under `tmpDir`, read
 * with yauzl, removed whatever happens). Each STL streams through the content check and
 * SHA-256 into storage under a server-made `plans/<upload>/<random>` key. Problems with
 * names, contents, the summary and which stages are covered are collected into one 400;
 * on any refusal or failure every object already written is deleted.
 */
export async function receivePlanUpload(
  parts: AsyncIterable<FormPart>,
  storage: Storage,
  options: { maxUploadBytes: number; tmpDir: string },
): Promise<ReceivedPlanUpload> {
  const uploadId = randomUUID();
  const stored: StoredStageFile[] = [];
  const problems: string[] = [];
  const budget = { remaining: options.maxUploadBytes };
  let summaryText: string | undefined;
  let sawLoose = false;
  let sawZip = false;

  const store = async (fileName: string, source: Readable): Promise<boolean> => {
    const name = parseStageFileName(fileName);
    if (!name) {
      await drainStream(source);
      problems.push(`${fileName}: the name does not say the arch and stage (e.g. upper_03.stl)`);
      return false;
    }
    const storageKey = `plans/${uploadId}/${randomBytes(12).toString('hex')}`;
    const inspector = await storeCounted(storage, storageKey, source, budget, tooLarge);
    if (!isStlModel(inspector.head, inspector.bytes)) {
      await storage.delete(storageKey);
      problems.push(`${fileName}: not an STL model`);
      return false;
    }
    stored.push({
      ...name,
      fileName,
      storageKey,
      size: inspector.bytes,
      sha256: inspector.sha256,
    });
    return true;
  };

  try {
    for await (const part of parts) {
      refuseBadPart(part);
      if (part.type === 'field') {
        if (part.fieldname === 'summary') summaryText = String(part.value);
        continue;
      }
      if (part.fieldname !== planStagesField) {
        await drain(part);
        throw coded(
          400,
          'unexpectedFileField',
          { field: part.fieldname },
          { [part.fieldname]: serverFieldMessages.unexpectedFile },
        );
      }
      if (!part.filename) {
        await drain(part);
        continue;
      }
      const fileName = planFileName(part.filename);
      const extension = extensionOf(part.filename);
      if (extension === 'zip') {
        if (sawZip || sawLoose) {
          await drain(part);
          throw badRequest('Send either STL files or one ZIP of them, not both', {
            stages: 'Send either STL files or one ZIP of them, not both',
          });
        }
        sawZip = true;
        await receiveZip(part, options.tmpDir, store);
      } else if (extension === 'stl') {
        if (sawZip) {
          await drain(part);
          throw badRequest('Send either STL files or one ZIP of them, not both', {
            stages: 'Send either STL files or one ZIP of them, not both',
          });
        }
        sawLoose = true;
        await store(fileName, part.file);
      } else {
        await drain(part);
        problems.push(`${fileName}: only STL files or one ZIP are accepted`);
      }
    }
    const summary = parseSummary(summaryText);
    const fieldErrors: Record<string, string> = { ...summary.fieldErrors };
    if (summary.value) problems.push(...coverageProblems(summary.value, stored));
    if (stored.length === 0 && problems.length === 0) problems.push(planMessages.stagesRequired);
    if (problems.length > 0) fieldErrors.stages = problems.join('; ');
    if (Object.keys(fieldErrors).length > 0 || !summary.value) {
      throw badRequest(Object.values(fieldErrors).join('; '), fieldErrors);
    }
    return { summary: summary.value, stages: stored };
  } catch (error) {
    await deleteKeys(
      storage,
      stored.map((file) => file.storageKey),
    );
    throw error;
  }
}

/** The ZIP part to a temporary file (bounded by the part's size limit), then its entries one by one. */
async function receiveZip(
  part: FilePart,
  tmpDir: string,
  store: (fileName: string, source: Readable) => Promise<boolean>,
): Promise<void> {
  await mkdir(tmpDir, { recursive: true, mode: ownerOnlyFolder });
  const zipPath = path.join(tmpDir, `plan-${randomUUID()}.zip`);
  try {
    await pipeline(part.file, createWriteStream(zipPath, { flags: 'wx', mode: 0o600 }));
    if (part.file.truncated) throw tooLarge();
    await readPlanZip(zipPath, async (entry) => {
      await store(entry.fileName, await entry.open());
    });
  } finally {
    await rm(zipPath, { force: true });
  }
}

function parseSummary(text: string | undefined): { value?: PlanSummary; fieldErrors: Record<string, string> } {
  if (text === undefined || text.trim() === '') {
    return { fieldErrors: { summary: planMessages.summaryRequired } };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { fieldErrors: { summary: planMessages.summaryNotJson } };
  }
  const parsed = planSummary.safeParse(json);
  if (parsed.success) return { value: parsed.data, fieldErrors: {} };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : 'summary';
    fieldErrors[key] ??= issue.message;
  }
  return { fieldErrors };
}

/** Each arch must have exactly the stages its count declares (0..N), each once. */
function coverageProblems(summary: PlanSummary, files: StoredStageFile[]): string[] {
  const problems: string[] = [];
  const counts: Record<PlanArch, number> = { upper: summary.upperStages, lower: summary.lowerStages };
  for (const arch of planArches) {
    const expected = new Set(expectedStages(counts[arch]));
    const byStage = new Map<number, string[]>();
    for (const file of files.filter((candidate) => candidate.arch === arch)) {
      byStage.set(file.stage, [...(byStage.get(file.stage) ?? []), file.fileName]);
    }
    const missing = [...expected].filter((stage) => !byStage.has(stage));
    const extra = [...byStage.keys()].filter((stage) => !expected.has(stage)).sort((a, b) => a - b);
    const duplicate = [...byStage.entries()].filter(([, names]) => names.length > 1);
    if (missing.length > 0) problems.push(`Missing ${arch} stages: ${missing.join(', ')}`);
    if (extra.length > 0) {
      const declared = counts[arch] === 0 ? `no ${arch} stages` : `${arch} stages 0 to ${counts[arch]}`;
      const listed = extra.map((stage) => `${stage} (${byStage.get(stage)!.join(', ')})`).join(', ');
      problems.push(`${arch} stages not in the summary, which declares ${declared}: ${listed}`);
    }
    for (const [stage, names] of duplicate)
      problems.push(`${arch} stage ${stage} sent more than once: ${names.join(', ')}`);
  }
  return problems;
}
