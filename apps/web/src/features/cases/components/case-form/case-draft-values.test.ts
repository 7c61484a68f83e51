import { describe, expect, it } from 'vitest';
import type { CaseDraft } from '@portal/contract';
import { draftOf, restoredCaseFormValues, unfinishedUploads } from './case-draft-values.ts';
import { initialCaseFormValues } from './case-form-values.ts';
import { UploadedFile } from './uploaded-file.ts';

const draft = (fields: Record<string, string>, doctorUserId: number | null = null): CaseDraft => ({
  draftId: 4,
  patientName: '',
  doctorUserId,
  step: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  fields,
  files: {},
  uploads: [],
});

describe('case drafts in the form', () => {
  it('keeps the fields filled in, by submission name, and leaves out blanks, picks not made, files and terms', () => {
    const values = { ...initialCaseFormValues(12), firstname: 'Ada', gender: null, moveTooth: '3,14', lastname: '' };
    const saved = draftOf({ ...values, termsAndCondition: true }, 2);
    expect(saved.step).toBe(2);
    expect(saved.doctorUserId).toBeNull();
    expect(saved.fields).toMatchObject({ firstname: 'Ada', moveTooth: '3,14', midline: 'Improve' });
    expect(Object.keys(saved.fields)).not.toContain('gender');
    expect(Object.keys(saved.fields)).not.toContain('lastname');
    expect(Object.keys(saved.fields)).not.toContain('termsAndCondition');
    expect(saved.files).toEqual({});
  });

  it('keeps the doctor staff picked, and brings it back with every field', () => {
    const values = { ...initialCaseFormValues(null), userId: '31', complaint: 'Gap' };
    expect(draftOf(values, 0).doctorUserId).toBe(31);
    const restored = restoredCaseFormValues(null, {}, draft({ complaint: 'Gap', noElastic: '8' }, 31));
    expect(restored).toMatchObject({
      picksDoctor: true,
      userId: '31',
      complaint: 'Gap',
      noElastic: '8',
      midline: 'Improve',
    });
  });

  it("restores a doctor's draft over their defaults, and ignores keys the form has no input for", () => {
    const restored = restoredCaseFormValues(
      12,
      { midline: 'Maintain' },
      draft({ firstname: 'Bo', iprPrescription: 'x' }),
    );
    expect(restored).toMatchObject({ userId: '12', firstname: 'Bo', midline: 'Maintain' });
    expect(restored).not.toHaveProperty('iprPrescription');
  });

  it('keeps each file by its upload id once it has one, and leaves out files still without one', () => {
    const scan = new File(['solid'], 'upper.stl');
    const waiting = new File(['solid'], 'lower.stl');
    const photo = new File(['png'], 'smile.png');
    const extras = [new File(['a'], 'a.jpg'), new File(['b'], 'b.jpg')];
    const ids = new Map<File, string>([
      [scan, 'up1'],
      [photo, 'up2'],
      [extras[1]!, 'up4'],
    ]);
    const values = {
      ...initialCaseFormValues(12),
      maxillaryScan: scan,
      mandibularScan: waiting,
      frontSmiling: photo,
      otherFiles: extras,
    };
    expect(draftOf(values, 1, (file) => ids.get(file) ?? null).files).toEqual({
      maxillaryScan: 'up1',
      frontSmiling: 'up2',
      otherFiles: ['up4'],
    });
  });

  it('puts finished uploads back in their fields as uploaded files, and lists unfinished ones to choose again', () => {
    const saved: CaseDraft = {
      ...draft({ firstname: 'Bo' }),
      files: { maxillaryScan: 'up1', mandibularScan: 'up2', otherFiles: ['up3', 'gone'] },
      uploads: [
        { uploadId: 'up1', fileName: 'upper.stl', size: 900, finished: true },
        { uploadId: 'up2', fileName: 'lower.stl', size: 800, finished: false },
        { uploadId: 'up3', fileName: 'extra.jpg', size: 70, finished: true },
      ],
    };
    const restored = restoredCaseFormValues(12, {}, saved);
    expect(restored.maxillaryScan).toBeInstanceOf(UploadedFile);
    expect(restored.maxillaryScan).toMatchObject({ name: 'upper.stl', uploadId: 'up1', uploadedSize: 900 });
    expect(restored.mandibularScan).toBeNull();
    expect(restored.otherFiles.map((file) => (file as UploadedFile).uploadId)).toEqual(['up3']);
    expect(unfinishedUploads(saved).map((upload) => upload.fileName)).toEqual(['lower.stl']);
    // Saved again as they are, the restored files keep their ids.
    const again = draftOf(restored, 1, (file) => (file instanceof UploadedFile ? file.uploadId : null));
    expect(again.files).toEqual({ maxillaryScan: 'up1', otherFiles: ['up3'] });
  });
});
