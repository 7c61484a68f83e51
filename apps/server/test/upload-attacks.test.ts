import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { caseFileMessages } from '@portal/contract';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseAttachments } from '../src/db/schema.ts';
import {
  asciiStl,
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  sha256,
  snapshot,
  submitCase,
  type UploadFile,
} from './helpers/case-factories.ts';
import { doctorFields, firstCityOf, formData, makeImage, uniqueName } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * docs/quality/uploads.md, Input / Uploads (OWASP File Upload cheat sheet): hostile files sent to the case
 * upload and to the profile-picture forms are refused, or stored under a server-made key and
 * served so that no browser can take them for a page.
 */

interface Attachment {
  FileName: string;
  FilePath: string;
  FileType: string;
  Sha256: string;
}

let t: TestApp;
let admin: string;
let doctor: Awaited<ReturnType<typeof createCaseDoctor>>;
const tally = { cases: 0, safe: 0 };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  doctor = await createCaseDoctor(t);
});
afterAll(async () => {
  const verdict =
    tally.safe === tally.cases ? 'all refused or stored safely' : `${tally.cases - tally.safe} NOT handled safely`;
  console.log(`[figure] upload attacks: ${tally.cases} cases, ${verdict}`);
  await t.close();
});

// Hostile bytes. Each is what a browser or an OS would run or render given the chance.
const windowsExe = () =>
  Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(56), Buffer.from('PE\0\0')]);
const linuxElf = () => Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1'), Buffer.alloc(120, 0)]);
const htmlPage = () => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const svgWithScript = () =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
const gifWithScript = () => Buffer.from('GIF89a\x01\x00\x01\x00<script>alert(1)</script>', 'latin1');
const scriptPayload = '<html><body><script>alert(document.cookie)</script></body></html>';

/** A real JPEG that decodes, with an HTML page in a comment segment right after its start marker. */
async function jpegWithHtml(): Promise<Buffer> {
  const jpeg = await makeImage('jpeg', 64);
  const html = Buffer.from(scriptPayload);
  const marker = Buffer.alloc(4);
  marker.writeUInt16BE(0xfffe, 0);
  marker.writeUInt16BE(html.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), marker, html, jpeg.subarray(2)]);
}

/** A real PNG whose header claims 50,000 x 50,000 pixels: a decompression bomb for whoever decodes it. */
async function pixelFloodPng(): Promise<Buffer> {
  const png = Buffer.from(await makeImage('png', 8));
  png.writeUInt32BE(50_000, 16);
  png.writeUInt32BE(50_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** An uncompressed ZIP with the given entry names, made by hand (local headers, directory, end record). */
function zipWith(entries: { name: string; data: Buffer }[]): Buffer {
  const records: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(entry.data), 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    records.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...records, directoryBytes, end]);
}

/** Every file under the data folder, relative to it. */
async function filesInDataDir(): Promise<string[]> {
  const entries = await readdir(t.dataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(t.dataDir, path.join(entry.parentPath, entry.name)));
}

/**
 * The files requests store, without the mailer's outbox: its mails (a new case mails the lab)
 * are written when the outbox delivers them, after the request that queued them.
 */
async function storedFiles(): Promise<string[]> {
  return (await filesInDataDir()).filter((file) => !file.startsWith(`outbox${path.sep}`));
}

/** Uploaded bytes live only under DATA_DIR/files; the mailer's outbox is the one other folder. */
async function expectNothingOutsideStorage() {
  const outside = (await filesInDataDir()).filter(
    (file) => !file.startsWith(`files${path.sep}`) && !file.startsWith(`outbox${path.sep}`),
  );
  expect(outside).toEqual([]);
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function expectCaseRefused(
  files: Record<string, UploadFile | UploadFile[]>,
  fieldErrors: Record<string, string>,
) {
  tally.cases++;
  const before = await snapshot(t);
  const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId), files));
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ message: Object.values(fieldErrors)[0], fieldErrors });
  expect(await snapshot(t)).toEqual(before);
  tally.safe++;
}

/** Submits a case that the server accepts and answers its attachments. */
async function submitAccepted(files: Record<string, UploadFile | UploadFile[]>): Promise<Attachment[]> {
  const response = await submitCase(t, doctor.token, caseForm(caseFields(doctor.clinicId), files));
  expect(response.statusCode, response.body).toBe(200);
  const { CaseId } = response.json<{ CaseId: number }>();
  const attachments = await t.as(doctor.token, {
    method: 'GET',
    url: `/api/case/get_cases_attachments_by_case_id/${CaseId}`,
  });
  return attachments.json<Attachment[]>();
}

/**
 * A stored file comes back byte for byte, never as a type a browser renders as a page: an
 * image only as image/jpeg or image/png, anything else as an application/octet-stream
 * attachment; always nosniff, and under a CSP that runs no inline script.
 */
function expectServedSafely(download: LightMyRequestResponse, sent: Buffer) {
  tally.cases++;
  expect(download.statusCode).toBe(200);
  expect(sha256(download.rawPayload)).toBe(sha256(sent));
  const type = String(download.headers['content-type']);
  expect(type).not.toMatch(/html|svg|xml|javascript|text\//i);
  expect(download.headers['x-content-type-options']).toBe('nosniff');
  if (!/^image\/(jpeg|png)$/.test(type)) {
    expect(type).toBe('application/octet-stream');
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment;/);
  }
  const scriptSources = /script-src ([^;]*)/.exec(String(download.headers['content-security-policy']))?.[1];
  // No inline or uploaded script: the portal's own, and the WebAssembly they compile.
  expect(scriptSources).toBe("'self' 'wasm-unsafe-eval'");
  tally.safe++;
}

const download = (attachment: Attachment) => t.as(doctor.token, { method: 'GET', url: attachment.FilePath });

describe('POST /case/add: files that are not what their name says', () => {
  it('refuses a Windows executable and an ELF binary named .png or .jpg, storing nothing', async () => {
    for (const data of [windowsExe(), linuxElf()]) {
      await expectCaseRefused({ front: { data, name: 'front.png' } }, { front: caseFileMessages.photoType });
      await expectCaseRefused({ opv: { data, name: 'opv.jpg' } }, { opv: caseFileMessages.photoType });
      await expectCaseRefused(
        { otherFiles: { data, name: 'extra.png' } },
        { otherFiles: caseFileMessages.otherFileType },
      );
    }
  });

  it('refuses an HTML page, an SVG with a script and a GIF named .png or .jpg', async () => {
    for (const data of [htmlPage(), svgWithScript(), gifWithScript()]) {
      for (const name of ['photo.png', 'photo.jpg']) {
        await expectCaseRefused({ frontSmiling: { data, name } }, { frontSmiling: caseFileMessages.photoType });
      }
    }
  });

  it('refuses other files named .html, .svg or .exe, whatever their bytes', async () => {
    const png = await makeImage('png');
    for (const [name, data] of [
      ['page.html', htmlPage()],
      ['page.html', png],
      ['drawing.svg', svgWithScript()],
      ['drawing.svg', png],
      ['setup.exe', windowsExe()],
      ['setup.exe', png],
    ] as const) {
      await expectCaseRefused({ otherFiles: { data, name } }, { otherFiles: caseFileMessages.otherFileType });
    }
  });

  it('stores a JPEG carrying <html><script> only as image/jpeg, nosniff, under a script-free CSP', async () => {
    const polyglot = await jpegWithHtml();
    const [stored] = await submitAccepted({ frontSmiling: { data: polyglot, name: 'smile.jpg' } });
    const response = await download(stored!);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expectServedSafely(response, polyglot);
  });

  it('stores an executable that is also a valid binary STL only as an octet-stream attachment', async () => {
    const stl = binaryStl(4);
    windowsExe().copy(stl, 0);
    const [stored] = await submitAccepted({ maxillaryScan: { data: stl, name: 'scan.stl' } });
    expectServedSafely(await download(stored!), stl);
  });

  it('stores an ASCII STL that goes on as an HTML page and a script only as an octet-stream attachment', async () => {
    const stl = Buffer.concat([
      asciiStl(),
      Buffer.alloc(600, 0x20),
      htmlPage(),
      Buffer.from('\nalert(document.cookie);\n'),
    ]);
    const [stored] = await submitAccepted({ mandibularScan: { data: stl, name: 'lower.stl' } });
    expectServedSafely(await download(stored!), stl);
  });
});

describe('POST /case/add: file names never reach the file system', () => {
  const hostileNames = [
    ['../../etc/passwd.stl', 'passwd.stl'],
    ['..\\..\\x.stl', 'x.stl'],
    ['/etc/x.stl', 'x.stl'],
    ['scan\0.php.stl', 'scan_.php.stl'],
    ['\x1b[31mred\x07\x08.stl', '_[31mred__.stl'],
    ['<img src=x onerror=alert(1)>.stl', '_img src=x onerror=alert(1)_.stl'],
  ] as const;

  it.each(hostileNames)('stores %j under a server-made key, shown as %j', async (sent, shown) => {
    const data = asciiStl();
    const [stored] = await submitAccepted({ maxillaryScan: { data, name: sent } });
    expect(stored!.FileName).toBe(shown);
    const response = await download(stored!);
    expectServedSafely(response, data);
    const disposition = String(response.headers['content-disposition']);
    // eslint-disable-next-line no-control-regex -- control characters must not reach the header
    expect(disposition).not.toMatch(/[\u0000-\u001f\u007f]|\.\.|[/\\]/);
    await expectNothingOutsideStorage();
    const keys = await t.app.db.select({ key: caseAttachments.storageKey }).from(caseAttachments);
    for (const { key } of keys) expect(key).toMatch(/^cases\/[0-9a-f-]{36}\/[0-9a-f]{24}$/);
    const relative = sent.replaceAll('\\', '/');
    for (const base of [t.dataDir, path.join(t.dataDir, 'files'), path.join(t.dataDir, 'files', 'cases')]) {
      expect(await exists(path.resolve(base, relative)), `${relative} from ${base}`).toBe(false);
    }
  });
});

describe('POST /case/add: a ZIP scan with ../ entries', () => {
  it('is stored as one opaque file, never extracted, and downloaded byte for byte as an attachment', async () => {
    const zip = zipWith([
      { name: '../evil.sh', data: Buffer.from('#!/bin/sh\nrm -rf /\n') },
      { name: '../../evil-too.html', data: htmlPage() },
      { name: 'upper.stl', data: asciiStl() },
    ]);
    const filesBefore = (await storedFiles()).length;
    const [stored] = await submitAccepted({ maxillaryScan: { data: zip, name: 'scans.zip' } });
    expect(stored!.FileName).toBe('scans.zip');
    expect((await storedFiles()).length).toBe(filesBefore + 1);
    expect((await filesInDataDir()).filter((file) => /evil/.test(file))).toEqual([]);
    for (const base of [t.dataDir, path.join(t.dataDir, 'files'), path.join(t.dataDir, 'files', 'cases')]) {
      expect(await exists(path.resolve(base, '../evil.sh'))).toBe(false);
      expect(await exists(path.resolve(base, '../../evil-too.html'))).toBe(false);
    }
    const response = await download(stored!);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(String(response.headers['content-disposition'])).toMatch(/^attachment; filename="scans\.zip"/);
    expectServedSafely(response, zip);
  });
});

describe('profile pictures (POST /user/add, POST /doctor/add)', () => {
  const pictureMessage = 'Only JPG and PNG files are allowed!';
  let webRoleId: number;

  beforeAll(async () => {
    const role = await t.as(admin, {
      method: 'POST',
      url: '/api/role/add',
      payload: { roleName: uniqueName('attackers'), description: 'upload attack tests' },
    });
    webRoleId = role.json<{ RoleId: number }>().RoleId;
  });

  /** Staff adding a Web user with the picture; answers the response and the username. */
  async function addUser(picture: UploadFile) {
    const username = uniqueName('att');
    const fields = {
      username,
      firstname: 'Ann',
      lastname: 'Attack',
      password: 'attack-passphrase',
      email: `${username}@lab.test`,
      mobileNo: '5550199',
      roleId: webRoleId,
      userType: 'Web',
    };
    const payload = formData(fields, { profilePic: { type: 'image/png', ...picture } });
    return { response: await t.as(admin, { method: 'POST', url: '/api/user/add', payload }), username };
  }

  /** An anonymous doctor registration with the picture. */
  async function registerDoctor(picture: UploadFile) {
    const cityId = await firstCityOf(t);
    const fields = doctorFields({
      clinicList: JSON.stringify([
        { clinicId: 0, clinicName: 'Smile Clinic', countryId: 1, cityId, contactNo: '123456', address: '1 Main St' },
      ]),
    });
    const payload = formData(fields, { profilePic: { type: 'image/png', ...picture } });
    return {
      response: await t.app.inject({ method: 'POST', url: '/api/doctor/add', payload }),
      username: String(fields.username),
    };
  }

  /** The ProfilePic path of a user or doctor, from the staff lists. */
  async function profilePicOf(username: string): Promise<string> {
    const lists = await Promise.all(
      ['/api/user/get_users_list', '/api/doctor/get_doctors_list'].map(async (url) =>
        (await t.as(admin, { method: 'GET', url })).json<{ UserName: string; ProfilePic: string | null }[]>(),
      ),
    );
    return lists.flat().find((row) => row.UserName === username)!.ProfilePic!;
  }

  it('refuses an executable, an ELF binary, an HTML page, an SVG and a GIF named .png, storing nothing', async () => {
    for (const data of [windowsExe(), linuxElf(), htmlPage(), svgWithScript(), gifWithScript()]) {
      for (const send of [addUser, registerDoctor]) {
        tally.cases++;
        const before = await storedFiles();
        const { response } = await send({ data, name: 'me.png' });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({ message: pictureMessage, fieldErrors: { profilePic: pictureMessage } });
        expect(await storedFiles()).toEqual(before);
        tally.safe++;
      }
    }
  });

  it('refuses a PNG claiming 50,000 x 50,000 pixels without decoding it, storing nothing', async () => {
    const bomb = await pixelFloodPng();
    for (const send of [addUser, registerDoctor]) {
      tally.cases++;
      const before = await storedFiles();
      const { response } = await send({ data: bomb, name: 'me.png' });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toEqual({ profilePic: expect.any(String) });
      expect(await storedFiles()).toEqual(before);
      tally.safe++;
    }
  });

  it('re-encodes a JPEG carrying <html><script>: the served picture and avatars are clean images', async () => {
    const polyglot = await jpegWithHtml();
    for (const send of [addUser, registerDoctor]) {
      tally.cases++;
      const { response, username } = await send({ data: polyglot, name: 'me.jpg', type: 'image/jpeg' });
      expect(response.statusCode, response.body).toBe(200);
      const picture = await profilePicOf(username);
      for (const url of [picture, picture.replace(/\.jpg$/, '_32x32.jpg'), picture.replace(/\.jpg$/, '_90x90.jpg')]) {
        const served = await t.as(admin, { method: 'GET', url });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/jpeg');
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.rawPayload.toString('latin1')).not.toMatch(/<html|<script/i);
        expect((await sharp(served.rawPayload).metadata()).format).toBe('jpeg');
      }
      await expectNothingOutsideStorage();
      tally.safe++;
    }
  });
});
