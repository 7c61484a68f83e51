import { readFile } from 'node:fs/promises';
import { caseFieldList } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingNoPattern } from '../src/services/cases/tracking-number.ts';
import {
  asciiStl,
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  emptyZip,
  everyCaseFile,
  everyFieldSample,
  sha256,
  snapshot,
  storedCaseFiles,
  submitCase,
  type UploadFile,
} from './helpers/case-factories.ts';
import { createStaff, makeImage } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
let other: Awaited<ReturnType<typeof createCaseDoctor>>;
beforeAll(async () => {
  t = await createTestApp();
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  other = await createCaseDoctor(t);
});
afterAll(() => t.close());

/**
 * Each field of the case field table (packages/contract/src/case-fields.ts) by its name as
 * read, with the value sent as the field's rule stores it; a field the fixture does not send
 * fails here, and one the answer leaves out fails the `toMatchObject` it goes to.
 */
function storedFieldsOf(sent: Record<string, unknown>): Record<string, unknown> {
  const unsent = caseFieldList.filter((field) => !Object.hasOwn(sent, field.sent)).map((field) => field.sent);
  expect(unsent, 'fields of the table the fixture does not send').toEqual([]);
  return Object.fromEntries(caseFieldList.map((field) => [field.read, field.schema.parse(sent[field.sent])]));
}

interface Attachment {
  FileName: string;
  FilePath: string;
  FileType: string;
  FileSize: number;
  Sha256: string;
}

describe('POST /case/add', () => {
  it('stores a case with every field and every file field, each file intact and downloadable', async () => {
    const files = await everyCaseFile();
    const fields = caseFields(doctor.clinicId, { userId: other.userId });
    const response = await submitCase(t, doctor.token, caseForm(fields, files));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ message: string; CaseId: number; TrackingNo: string }>();
    expect(body.message).toBe('Case submitted successfully');
    expect(body.TrackingNo).toMatch(trackingNoPattern);

    const list = await t.as(doctor.token, { method: 'GET', url: `/api/case/get_cases_by_status/all/${doctor.userId}` });
    const row = list.json<Record<string, unknown>[]>().find((entry) => entry.CaseId === body.CaseId)!;
    expect(row).toMatchObject({
      ...storedFieldsOf(fields),
      TrackingNo: body.TrackingNo,
      doctorname: 'Grace Hopper',
      Status: 'new',
      // A doctor's userId field is ignored: the case is theirs.
      DoctorUserId: doctor.userId,
      ClinicId: doctor.clinicId,
    });
    // Stored as the rules say, not as sent: tooth lists without spaces, an empty one as N/A.
    expect(row).toMatchObject({ MoveTooth: '1,2,16', NoElastic: 'N/A', FirstName: 'Pat' });
    const detail = await t.as(doctor.token, { method: 'GET', url: `/api/case/${body.CaseId}` });
    expect(detail.json()).toMatchObject(storedFieldsOf(fields));

    const attachments = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${body.CaseId}`,
    });
    expect(attachments.statusCode).toBe(200);
    const rows = attachments.json<Attachment[]>();
    expect(rows.map((entry) => entry.FileType).sort()).toEqual(
      [
        'MaxillaryScan',
        'MandibularScan',
        'RightBiteScan',
        'LeftBiteScan',
        'FrontSmiling',
        'FacialProfile',
        'Front',
        'UpperOcclusal',
        'LowerOcclusal',
        'RightLateral',
        'Frontal',
        'LeftLateral',
        'OPV',
        'LeteralCeloform',
        'CompositeImage',
        'OtherFile',
        'OtherFile',
      ].sort(),
    );
    const sent = Object.values(files).flat() as UploadFile[];
    for (const file of sent) {
      const stored = rows.find((entry) => entry.Sha256 === sha256(file.data))!;
      expect(stored, file.name).toBeDefined();
      expect(stored.FileSize).toBe(file.data.length);
      const download = await t.as(doctor.token, { method: 'GET', url: stored.FilePath });
      expect(download.statusCode).toBe(200);
      expect(sha256(download.rawPayload)).toBe(stored.Sha256);
      // The stored SHA-256 travels with the download, so a client can check what it got.
      const digest = Buffer.from(stored.Sha256, 'hex').toString('base64');
      expect(download.headers['repr-digest']).toBe(`sha-256=:${digest}:`);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
    }
    // What is on disk is what was sent.
    const onDisk = await Promise.all((await storedCaseFiles(t)).map(async (file) => sha256(await readFile(file))));
    expect(onDisk.sort()).toEqual(sent.map((file) => sha256(file.data)).sort());

    const scan = rows.find((entry) => entry.FileType === 'MaxillaryScan')!;
    expect(scan.FileName).toBe('upper arch.stl');
    expect(scan.FilePath).toMatch(/^\/api\/case\/files\/\d+\/upper%20arch\.stl$/);
    const scanDownload = await t.as(doctor.token, { method: 'GET', url: scan.FilePath });
    expect(scanDownload.headers['content-type']).toBe('application/octet-stream');
    expect(scanDownload.headers['content-disposition']).toBe(
      `attachment; filename="upper arch.stl"; filename*=UTF-8''upper%20arch.stl`,
    );
    expect(scanDownload.headers['cache-control']).toBe('private, no-store');

    const photo = rows.find((entry) => entry.FileType === 'FrontSmiling')!;
    const photoDownload = await t.app.inject({ method: 'GET', url: photo.FilePath, cookies: { token: doctor.token } });
    expect(photoDownload.statusCode).toBe(200);
    expect(photoDownload.headers['content-type']).toBe('image/png');
    expect(photoDownload.headers['content-disposition']).toMatch(/^inline; filename="photo-40.png"/);

    const odd = rows.find((entry) => entry.FileName.startsWith('Röntgen'))!;
    const oddDownload = await t.as(doctor.token, { method: 'GET', url: odd.FilePath });
    expect(oddDownload.headers['content-disposition']).toBe(
      `inline; filename="R_ntgen extra.jpeg"; filename*=UTF-8''R%C3%B6ntgen%20extra.jpeg`,
    );

    // Range requests: a slice, an open end, a suffix, and one past the end.
    const original = (files.maxillaryScan as UploadFile).data;
    const slice = await t.as(doctor.token, { method: 'GET', url: scan.FilePath, headers: { range: 'bytes=10-99' } });
    expect(slice.statusCode).toBe(206);
    expect(slice.headers['content-range']).toBe(`bytes 10-99/${original.length}`);
    expect(slice.rawPayload.equals(original.subarray(10, 100))).toBe(true);
    const tail = await t.as(doctor.token, { method: 'GET', url: scan.FilePath, headers: { range: 'bytes=-16' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(original.subarray(original.length - 16))).toBe(true);
    const rest = await t.as(doctor.token, {
      method: 'GET',
      url: scan.FilePath,
      headers: { range: `bytes=${original.length - 5}-` },
    });
    expect(rest.rawPayload.equals(original.subarray(original.length - 5))).toBe(true);
    const outside = await t.as(doctor.token, {
      method: 'GET',
      url: scan.FilePath,
      headers: { range: `bytes=${original.length}-` },
    });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${original.length}`);

    const history = await t.as(doctor.token, { method: 'GET', url: `/api/case/get_case_history/${body.CaseId}` });
    expect(history.json()).toMatchObject([{ FromStatus: null, ToStatus: 'new', ChangedBy: doctor.userId }]);
  });

  it("stores a value built from each field's kind alone, so a field new to the table is sent and answered", async () => {
    const sent = { ...everyFieldSample(doctor.clinicId), termsAndCondition: 'true' };
    const response = await submitCase(t, doctor.token, caseForm(sent, await everyCaseFile()));
    expect(response.statusCode, response.body).toBe(200);
    const detail = await t.as(doctor.token, { method: 'GET', url: `/api/case/${response.json().CaseId}` });
    expect(detail.json()).toMatchObject(storedFieldsOf(sent));
  });
  it('accepts a case without files, and an empty ZIP archive as a scan', async () => {
    const bare = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId)));
    expect(bare.statusCode, bare.body).toBe(200);
    const zip = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
        maxillaryScan: { data: emptyZip(), name: 'scan.zip' },
      }),
    );
    expect(zip.statusCode, zip.body).toBe(200);
  });

  it('streams a scan far past the 1 MiB limit of the other forms, byte for byte', async () => {
    const scan = binaryStl(120_000); // 6 MB
    const response = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
        maxillaryScan: { data: scan, name: 'big.stl' },
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const attachments = await t.as(doctor.token, {
      method: 'GET',
      url: `/api/case/get_cases_attachments_by_case_id/${response.json().CaseId}`,
    });
    const [stored] = attachments.json<Attachment[]>();
    expect(stored).toMatchObject({ FileSize: scan.length, Sha256: sha256(scan) });
    const download = await t.as(doctor.token, { method: 'GET', url: stored!.FilePath });
    expect(download.headers['content-length']).toBe(String(scan.length));
    expect(sha256(download.rawPayload)).toBe(sha256(scan));
  });

  it('wants multipart/form-data', async () => {
    const response = await t.as(doctor.token, {
      method: 'POST',
      url: '/api/case/add',
      payload: caseFields(doctor.clinicId),
    });
    expect(response.statusCode).toBe(415);
  });

  it('lets staff with the Add Case page and the administrator submit for a doctor, named by userId', async () => {
    const staff = await createStaff(t, [6]);
    const response = await submitCase(t, staff.token, caseForm(caseFields(other.clinicId, { userId: other.userId })));
    expect(response.statusCode, response.body).toBe(200);
    const list = await t.as(other.token, { method: 'GET', url: `/api/case/get_cases_by_status/all/0` });
    expect(list.json<{ CaseId: number }[]>().map((row) => row.CaseId)).toContain(response.json().CaseId);

    const admin = await t.adminToken();
    const byAdmin = await submitCase(t, admin, caseForm(caseFields(other.clinicId, { userId: other.userId })));
    expect(byAdmin.statusCode).toBe(200);

    const noDoctor = await submitCase(t, staff.token, caseForm(caseFields(other.clinicId)));
    expect(noDoctor.statusCode).toBe(400);
    expect(noDoctor.json().fieldErrors).toEqual({ userId: 'Doctor is required' });
    const notADoctor = await submitCase(t, staff.token, caseForm(caseFields(other.clinicId, { userId: staff.userId })));
    expect(notADoctor.statusCode).toBe(400);
    expect(notADoctor.json().fieldErrors).toEqual({ userId: 'Doctor is not valid' });
  });

  it('refuses callers without the Add Case page', async () => {
    const staff = await createStaff(t, [1]);
    const form = () => caseForm(caseFields(other.clinicId, { userId: other.userId }));
    expect((await submitCase(t, staff.token, form())).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/case/add', payload: form() })).statusCode).toBe(401);
  });
});

describe('POST /case/add refusals store nothing', () => {
  async function expectRefused(form: FormData, fieldErrors: Record<string, string>, token = doctor.token) {
    const before = await snapshot(t);
    const response = await submitCase(t, token, form);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fieldErrors).toEqual(fieldErrors);
    expect(response.json().message).toBe(Object.values(fieldErrors)[0]);
    expect(await snapshot(t)).toEqual(before);
  }

  it('refuses a field past 64 KiB (400) and text past 256 KB in all (413): 100 fields of 1 MiB no longer fit (issue 20)', async () => {
    const before = await snapshot(t);
    const longest = caseForm(caseFields(doctor.clinicId, { complaint: 'x'.repeat(64 * 1024 + 1) }));
    const tooLong = await submitCase(t, doctor.token, longest);
    expect(tooLong.statusCode, tooLong.body).toBe(400);
    expect(tooLong.json().fieldErrors).toEqual({ complaint: 'Too long' });
    const extras = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`extra${index}`, 'y'.repeat(60_000)]));
    const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId, extras)));
    expect(response.statusCode, response.body).toBe(413);
    expect(response.json().message).toBe("The case form's text is at most 256 KB");
    expect(await snapshot(t)).toEqual(before);
  });

  it('names every missing required field with the spec label', async () => {
    const empty = Object.fromEntries(
      [
        'firstname',
        'lastname',
        'dob',
        'clinicId',
        'arches',
        'nature',
        'alignerShipment',
        'complaint',
        'impressionType',
        'midline',
        'overjet',
        'overbite',
        'crossBite',
      ].map((name) => [name, ' ']),
    );
    await expectRefused(
      caseForm(caseFields(doctor.clinicId, { ...empty, termsAndCondition: 'false' }), {
        frontSmiling: { data: await makeImage(), name: 'a.png' },
      }),
      {
        firstname: 'First Name is required',
        lastname: 'Last Name is required',
        dob: 'Date Of Birth is required',
        clinicId: 'Clinic is required',
        arches: 'Arches To Treat is required',
        nature: 'Nature of Patient is required',
        alignerShipment: 'Aligner Shipment is required',
        complaint: 'Chief Complaint is required',
        impressionType: 'Impression Type is required',
        midline: 'Midline is required',
        overjet: 'Overjet is required',
        overbite: 'Overbite is required',
        crossBite: 'Cross Bite is required',
        termsAndCondition: 'Terms and Conditions is required',
      },
    );
  });

  it('refuses values outside the option lists', async () => {
    await expectRefused(
      caseForm(
        caseFields(doctor.clinicId, {
          midline: 'Sideways',
          arches: 'All',
          gender: 'X',
          toothNumbering: 'Roman',
          imageType: 'Collage',
        }),
      ),
      {
        gender: 'Gender is not valid',
        arches: 'Arches To Treat is not valid',
        imageType: 'Image Type is not valid',
        midline: 'Midline is not valid',
        toothNumbering: 'Tooth Numbering System is not valid',
      },
    );
  });

  it('refuses a rank used twice, a bad tooth list, a future birth date and unaccepted terms', async () => {
    await expectRefused(caseForm(caseFields(doctor.clinicId, { expansion: 'First preference' })), {
      expansion: 'First preference is already chosen for IPR',
    });
    await expectRefused(caseForm(caseFields(doctor.clinicId, { noElastic: '3,33' })), {
      noElastic: 'No Elastic must list tooth numbers 1-32 separated by commas',
    });
    await expectRefused(caseForm(caseFields(doctor.clinicId, { moveTooth: '1;2' })), {
      moveTooth: "Don't Move Tooth must list tooth numbers 1-32 separated by commas",
    });
    await expectRefused(caseForm(caseFields(doctor.clinicId, { dob: '2999-01-01' })), {
      dob: 'Date Of Birth must be in the past',
    });
    await expectRefused(caseForm(caseFields(doctor.clinicId, { dob: '2001-02-30' })), {
      dob: 'Date Of Birth is not a valid date',
    });
    await expectRefused(caseForm(caseFields(doctor.clinicId, { termsAndCondition: 'no' })), {
      termsAndCondition: 'Terms and Conditions is required',
    });
  });

  it('needs a maxillary scan for a digital impression, and refuses it after storing the other files', async () => {
    await expectRefused(
      caseForm(caseFields(doctor.clinicId, { impressionType: 'Digital Impression' }), {
        mandibularScan: { data: binaryStl(3), name: 'lower.stl' },
        front: { data: await makeImage(), name: 'front.png' },
      }),
      { maxillaryScan: 'Maxillary Scan is required' },
    );
  });

  it('checks scans by extension and by content', async () => {
    const fields = caseFields(doctor.clinicId);
    const scanMessage = 'Only STL, ZIP, and RAR files are allowed!';
    await expectRefused(caseForm(fields, { maxillaryScan: { data: asciiStl(), name: 'scan.txt' } }), {
      maxillaryScan: scanMessage,
    });
    await expectRefused(
      caseForm(fields, {
        maxillaryScan: { data: Buffer.from('hello, this is only text\n'.repeat(20)), name: 'notes.stl' },
      }),
      { maxillaryScan: scanMessage },
    );
    await expectRefused(caseForm(fields, { mandibularScan: { data: binaryStl(10, 11), name: 'wrong-count.stl' } }), {
      mandibularScan: scanMessage,
    });
    await expectRefused(caseForm(fields, { rightBiteScan: { data: binaryStl(2), name: 'bite.zip' } }), {
      rightBiteScan: scanMessage,
    });
    await expectRefused(
      caseForm(fields, { leftBiteScan: { data: Buffer.from('MZ\x90\x00 not a rar at all'), name: 'bite.rar' } }),
      { leftBiteScan: scanMessage },
    );
  });

  it('checks photos and other files by their bytes: an exe named .png is refused', async () => {
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(4000, 0x90)]);
    const fields = caseFields(doctor.clinicId);
    await expectRefused(caseForm(fields, { front: { data: exe, name: 'front.png' } }), {
      front: 'Only JPG and PNG files are allowed!',
    });
    await expectRefused(caseForm(fields, { opv: { data: await makeImage(), name: 'opv.gif' } }), {
      opv: 'Only JPG and PNG files are allowed!',
    });
    await expectRefused(
      caseForm(fields, {
        otherFiles: [
          { data: await makeImage(), name: 'fine.png' },
          { data: exe, name: 'setup.jpg' },
        ],
      }),
      { otherFiles: 'Only JPG, PNG files are allowed!' },
    );
  });

  it("refuses another doctor's clinic", async () => {
    await expectRefused(
      caseForm(caseFields(other.clinicId), { front: { data: await makeImage(), name: 'front.png' } }),
      { clinicId: 'Clinic is not valid' },
    );
  });

  it('refuses an unknown file field and a second file in a single-file field', async () => {
    const before = await snapshot(t);
    const unknown = await submitCase(
      t,
      doctor.token,
      caseForm(caseFields(doctor.clinicId), { profilePic: { data: await makeImage(), name: 'me.png' } }),
    );
    expect(unknown.statusCode).toBe(400);
    await expectRefused(
      caseForm(caseFields(doctor.clinicId), {
        front: [
          { data: await makeImage(), name: 'a.png' },
          { data: await makeImage('jpeg'), name: 'b.jpg' },
        ],
      }),
      { front: 'Only one file may be sent here' },
    );
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('MAX_UPLOAD_BYTES', () => {
  it('answers 413 past the limit and keeps nothing', async () => {
    const limited = await createTestApp({ maxUploadBytes: 5000 });
    try {
      const small = await createCaseDoctor(limited);
      const before = await snapshot(limited);
      const response = await submitCase(
        limited,
        small.token,
        caseForm(caseFields(small.clinicId), {
          mandibularScan: { data: binaryStl(40), name: 'a.stl' },
          maxillaryScan: { data: binaryStl(80), name: 'b.stl' },
        }),
      );
      expect(response.statusCode).toBe(413);
      expect(await snapshot(limited)).toEqual(before);
      const fits = await submitCase(
        limited,
        small.token,
        caseForm(caseFields(small.clinicId), { maxillaryScan: { data: binaryStl(40), name: 'b.stl' } }),
      );
      expect(fits.statusCode, fits.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
