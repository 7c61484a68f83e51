import { progressScanArchFields, serverFieldMessages, type PlanArch } from '@portal/contract';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, badRequest, coded, codedOnField } from '../../lib/errors.ts';
import { refuseBadPart, type FormLimits, type FormPart } from '../../lib/multipart-form.ts';
import { deleteKeys } from '../../storage/delete-keys.ts';
import type { Storage } from '../../storage/storage.ts';
import { isStlModel } from '../cases/file-checks.ts';
import { drainStream, storeCounted } from '../uploads/store-counted.ts';
import type { ApprovedPlan, StoredScanFile } from './progress-scans.ts';

/** The parser's limits for a progress scan: two STLs and the stage. */
export const progressScanLimits = (maxUploadBytes: number): FormLimits => ({
  fileSize: maxUploadBytes,
  files: 2,
  fields: 4,
  fieldSize: 64,
  parts: 6,
});

const tooLarge = () => new AppError(413, 'The scan is larger than the server allows');

/**
 * Receives a progress scan's form (docs/decisions/progress-scans.md): `stage` and the `upper`
 * and/or `lower` STL, each streamed through the content check into storage under
 * `progress/<upload>/<random>`, the request's bytes within the upload bound. Every problem is
 * a 400 (too large 413), and on any refusal every object already written is deleted.
 */
export async function receiveProgressScan(
  parts: AsyncIterable<FormPart>,
  storage: Storage,
  plan: ApprovedPlan,
  options: { maxUploadBytes: number },
): Promise<{ stage: number; files: StoredScanFile[] }> {
  const uploadId = randomUUID();
  const stored: StoredScanFile[] = [];
  const budget = { remaining: options.maxUploadBytes };
  let stageText: string | undefined;

  const store = async (arch: PlanArch, source: Readable & { truncated?: boolean }) => {
    const storageKey = `progress/${uploadId}/${randomBytes(12).toString('hex')}`;
    const inspector = await storeCounted(storage, storageKey, source, budget, tooLarge);
    stored.push({ arch, storageKey, size: inspector.bytes });
    // A binary STL's 84-byte header alone, or text that is not STL, is no mesh.
    if (!isStlModel(inspector.head, inspector.bytes) || inspector.bytes <= 84) {
      throw coded(400, 'scanNotStl', { arch }, { [arch]: serverFieldMessages.notStl });
    }
  };

  try {
    for await (const part of parts) {
      refuseBadPart(part);
      if (part.type === 'field') {
        if (part.fieldname === 'stage') stageText = String(part.value);
        continue;
      }
      const arch = progressScanArchFields.find((name) => name === part.fieldname);
      if (!arch) {
        await drainStream(part.file);
        throw coded(
          400,
          'unexpectedFileField',
          { field: part.fieldname },
          { [part.fieldname]: serverFieldMessages.unexpectedFile },
        );
      }
      if (stored.some((file) => file.arch === arch)) {
        await drainStream(part.file);
        throw codedOnField(400, 'sendOneScan', { arch }, arch);
      }
      await store(arch, part.file);
    }
    const stage = Number(stageText);
    const lastStage = Math.max(plan.upperStages, plan.lowerStages);
    if (stageText === undefined || stageText.trim() === '' || !Number.isInteger(stage)) {
      throw badRequest('Stage must be a whole number: the aligner the patient wears now', { stage: 'Required' });
    }
    if (stage < 1 || stage > lastStage) throw codedOnField(400, 'progressStageOutOfRange', { lastStage }, 'stage');
    for (const file of stored) {
      const stages = file.arch === 'upper' ? plan.upperStages : plan.lowerStages;
      if (stage > stages) {
        throw stages === 0
          ? codedOnField(400, 'scanArchHasNoStages', { arch: file.arch }, file.arch)
          : codedOnField(400, 'scanArchEndsAtStage', { arch: file.arch, stages }, file.arch);
      }
    }
    if (stored.length === 0) {
      const message = 'Send the upper scan, the lower scan or both, as STL';
      throw badRequest(message, { upper: message, lower: message });
    }
    return { stage, files: stored };
  } catch (error) {
    await deleteKeys(
      storage,
      stored.map((file) => file.storageKey),
    );
    throw error;
  }
}
