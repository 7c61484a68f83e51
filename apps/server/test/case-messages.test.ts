import { sql } from 'drizzle-orm';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binaryStl,
  caseFields,
  caseForm,
  createCaseDoctor,
  submitCase,
  type UploadFile,
} from './helpers/case-factories.ts';
import { openEventStream, type EventStreamReader, type StreamedEvent } from './helpers/event-stream.ts';
import { createStaff, makeImage, outboxMessages } from './helpers/factories.ts';
import { readableMail } from './helpers/mail.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { scaled } from '../../../e2e/helpers/test-time.ts';

/** A case's conversation (docs/decisions/messages.md § Messages): access, files, unread counts, e-mail, live events, timeline. */
type Doctor = Awaited<ReturnType<typeof createCaseDoctor>>;
type Staff = Awaited<ReturnType<typeof createStaff>>;
interface Message {
  messageId: number;
  caseId: number;
  authorName: string;
  side: string;
  text: string;
  at: string;
  attachments: { fileName: string; fileSize: number; contentType: string; url: string }[];
}

let t: TestApp;
let base: string;
let doctor: Doctor;
let otherDoctor: Doctor;
let staff: Staff;
let usersOnlyStaff: Staff;
let admin: string;
const open: EventStreamReader[] = [];

async function newCase(owner: Doctor): Promise<{ caseId: number; trackingNo: string }> {
  const fields = caseFields(owner.clinicId, { firstname: 'Zebulon', lastname: 'Quixote' });
  const response = await submitCase(t, owner.token, caseForm(fields));
  expect(response.statusCode, response.body).toBe(200);
  const { CaseId, TrackingNo } = response.json<{ CaseId: number; TrackingNo: string }>();
  return { caseId: CaseId, trackingNo: TrackingNo };
}

function messageForm(text: string | undefined, files: UploadFile[] = []): FormData {
  return caseForm(text === undefined ? {} : { text }, files.length > 0 ? { files } : {});
}

const post = (token: string | null, caseId: number, form: FormData) =>
  t.as(token, { method: 'POST', url: `/api/case/${caseId}/messages`, payload: form });
const list = (token: string | null, caseId: number) =>
  t.as(token, { method: 'GET', url: `/api/case/${caseId}/messages` });
const unread = async (token: string) => {
  const response = await t.as(token, { method: 'GET', url: '/api/case/unread' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ caseId: number; unread: number }[]>();
};
const markRead = (token: string, caseId: number) =>
  t.as(token, { method: 'POST', url: `/api/case/${caseId}/messages/read` });

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.app.db.execute(query)) as unknown as { rows: T[] }).rows;
}
const count = async (table: string, caseId: number) =>
  (await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where case_id = ${caseId}`)))[0]!.n;
async function storedMessageFiles(): Promise<string[]> {
  const folder = path.join(t.dataDir, 'files', 'messages');
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}
/** A message's mail waits two minutes before it goes out (or not): the wait passes here at once. */
const endMailWait = () =>
  t.app.db.execute(
    sql`update mail_outbox set next_attempt_at = now() where sent_at is null and template = 'caseMessage'`,
  );
/**
 * Who has been mailed about this case's messages: every queued mail delivered first, its
 * wait passed (the outbox may already have sent some, and a sent row no longer keeps its
 * variables), then the recipients read from the delivered messages that link to the case.
 */
const mailedAbout = async (caseUrl: string) => {
  await endMailWait();
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t))
    .map(readableMail)
    .filter((mail) => mail.includes(caseUrl) && mail.includes('new message about case'))
    .map((mail) => /^To: (.+)$/m.exec(mail)?.[1]?.trim());
};

beforeAll(async () => {
  t = await createTestApp({ maxUploadBytes: 200_000 });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  doctor = await createCaseDoctor(t, { firstname: 'Grace', lastname: 'Hopper' });
  otherDoctor = await createCaseDoctor(t);
  staff = await createStaff(t, [1]);
  usersOnlyStaff = await createStaff(t, [4]);
  admin = await t.adminToken();
}, scaled(60_000));
afterAll(async () => {
  for (const stream of open) stream.close();
  await t?.close();
});

describe('POST /api/case/{caseId}/messages', () => {
  it("lets the case's doctor and Dashboard staff write, with the side and author, oldest first", async () => {
    const { caseId } = await newCase(doctor);
    const first = await post(doctor.token, caseId, messageForm('  Can the upper arch start later?  '));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<Message>()).toMatchObject({
      caseId,
      side: 'doctor',
      text: 'Can the upper arch start later?',
      authorName: 'Grace Hopper',
      attachments: [],
    });
    const reply = await post(staff.token, caseId, messageForm('Yes, from stage 3.'));
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json<Message>()).toMatchObject({ side: 'lab', authorName: 'Sam Staff' });

    for (const token of [doctor.token, staff.token, admin]) {
      const answer = await list(token, caseId);
      expect(answer.statusCode).toBe(200);
      const messages = answer.json<Message[]>();
      expect(messages.map((message) => [message.side, message.text])).toEqual([
        ['doctor', 'Can the upper arch start later?'],
        ['lab', 'Yes, from stage 3.'],
      ]);
      expect(Date.parse(messages[0]!.at)).toBeLessThanOrEqual(Date.parse(messages[1]!.at));
      expect(messages[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    await expect
      .poll(() =>
        rows<{ action: string; target: string }>(
          sql`select action, target from audit_log where action = 'case.message' and target = ${`case:${caseId}`}`,
        ),
      )
      .toHaveLength(2);
  });

  it('answers 404 to another doctor, 403 to staff without the Dashboard and 401 to no one, and stores nothing', async () => {
    const { caseId } = await newCase(doctor);
    const png = { data: await makeImage('png'), name: 'x.png' };
    expect((await post(otherDoctor.token, caseId, messageForm('hello', [png]))).statusCode).toBe(404);
    expect((await list(otherDoctor.token, caseId)).statusCode).toBe(404);
    expect((await markRead(otherDoctor.token, caseId)).statusCode).toBe(404);
    expect((await post(usersOnlyStaff.token, caseId, messageForm('hello'))).statusCode).toBe(403);
    expect((await list(usersOnlyStaff.token, caseId)).statusCode).toBe(403);
    expect((await t.as(usersOnlyStaff.token, { method: 'GET', url: '/api/case/unread' })).statusCode).toBe(403);
    expect((await post(null, caseId, messageForm('hello'))).statusCode).toBe(401);
    expect((await list(null, caseId)).statusCode).toBe(401);
    expect((await post(doctor.token, 99_999_999, messageForm('hello'))).statusCode).toBe(404);
    expect(await count('case_messages', caseId)).toBe(0);
    expect(await storedMessageFiles()).toEqual([]);
  });

  it('refuses a blank message without files, and text over 5000 characters, with a clear 400', async () => {
    const { caseId } = await newCase(doctor);
    for (const form of [messageForm('   \n '), messageForm(undefined)]) {
      const answer = await post(doctor.token, caseId, form);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ message: 'Write a message or attach a file' });
    }
    const long = await post(doctor.token, caseId, messageForm('x'.repeat(5001)));
    expect(long.statusCode).toBe(400);
    expect(long.json<{ message: string }>().message).toBe('A message is at most 5000 characters');
    expect((await post(doctor.token, caseId, messageForm('x'.repeat(5000)))).statusCode).toBe(200);
    const json = await t.as(doctor.token, {
      method: 'POST',
      url: `/api/case/${caseId}/messages`,
      payload: { text: 'hi' },
    });
    expect(json.statusCode).toBe(415);
    expect(await count('case_messages', caseId)).toBe(1);
  });

  it('takes JPEG, PNG, PDF and STL files by their bytes, downloadable with Range, and a file alone', async () => {
    const { caseId } = await newCase(doctor);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const png = await makeImage('png', 60);
    const files = [
      { data: png, name: 'smile.png' },
      { data: await makeImage('jpeg', 61), name: 'bite.JPG' },
      { data: pdf, name: 'report.pdf' },
      { data: binaryStl(3), name: 'upper.stl' },
    ];
    const answer = await post(doctor.token, caseId, messageForm('', files));
    expect(answer.statusCode, answer.body).toBe(200);
    const message = answer.json<Message>();
    expect(message.text).toBe('');
    expect(message.attachments.map((file) => [file.fileName, file.contentType, file.fileSize])).toEqual([
      ['smile.png', 'image/png', png.length],
      ['bite.JPG', 'image/jpeg', files[1]!.data.length],
      ['report.pdf', 'application/pdf', pdf.length],
      ['upper.stl', 'model/stl', binaryStl(3).length],
    ]);
    const [pngFile, , pdfFile] = message.attachments;
    expect(pngFile!.url).toMatch(/^\/api\/case\/message_files\/\d+\/smile\.png$/);

    for (const token of [doctor.token, staff.token]) {
      const whole = await t.as(token, { method: 'GET', url: pngFile!.url });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('image/png');
      expect(whole.rawPayload.equals(png)).toBe(true);
    }
    const pdfAnswer = await t.as(staff.token, { method: 'GET', url: pdfFile!.url });
    expect(pdfAnswer.headers['content-type']).toBe('application/octet-stream');
    expect(pdfAnswer.headers['content-disposition']).toMatch(/^attachment; filename="report.pdf"/);
    expect(pdfAnswer.rawPayload.equals(pdf)).toBe(true);

    const part = await t.as(doctor.token, { method: 'GET', url: pdfFile!.url, headers: { range: 'bytes=0-4' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-4/${pdf.length}`);
    expect(part.body).toBe('%PDF-');
    const outside = await t.as(doctor.token, { method: 'GET', url: pdfFile!.url, headers: { range: 'bytes=9999-' } });
    expect(outside.statusCode).toBe(416);

    expect((await t.as(otherDoctor.token, { method: 'GET', url: pngFile!.url })).statusCode).toBe(404);
    expect((await t.as(usersOnlyStaff.token, { method: 'GET', url: pngFile!.url })).statusCode).toBe(403);
    expect((await t.as(null, { method: 'GET', url: pngFile!.url })).statusCode).toBe(401);
    expect(
      (await t.as(doctor.token, { method: 'GET', url: '/api/case/message_files/99999999/x.png' })).statusCode,
    ).toBe(404);
  });

  it('refuses a file whose bytes are not what its name says, an unknown type, or too many files, leaving nothing', async () => {
    const { caseId } = await newCase(doctor);
    const filesBefore = (await storedMessageFiles()).length;
    const good = { data: await makeImage('png'), name: 'good.png' };
    const refusals: [UploadFile[], RegExp][] = [
      [
        [good, { data: Buffer.from('not a picture at all, just text'), name: 'fake.png' }],
        /fake\.png: Attach JPEG, PNG, PDF or STL files/,
      ],
      [[good, { data: Buffer.from('%PDF-1.4 but called an exe'), name: 'tool.exe' }], /tool\.exe/],
      [[good, { data: await makeImage('png'), name: 'picture.pdf' }], /picture\.pdf/],
      [Array.from({ length: 11 }, (_, i) => ({ ...good, name: `p${i}.png` })), /At most 10 files per message/],
    ];
    for (const [files, message] of refusals) {
      const answer = await post(doctor.token, caseId, messageForm('with files', files));
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json<{ message: string }>().message).toMatch(message);
    }
    const tooLarge = await post(
      doctor.token,
      caseId,
      messageForm('big', [{ data: Buffer.alloc(300_000, 0x20), name: 'big.stl' }]),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(await count('case_messages', caseId)).toBe(0);
    expect(await count('case_message_files', caseId)).toBe(0);
    expect((await storedMessageFiles()).length).toBe(filesBefore);
    expect(
      (
        await post(
          doctor.token,
          caseId,
          messageForm(
            'ten',
            Array.from({ length: 10 }, () => good),
          ),
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('GET /api/case/unread and POST /api/case/{caseId}/messages/read', () => {
  it("counts the other side's unread messages for each side, and the author's own as read", async () => {
    const { caseId } = await newCase(doctor);
    const countFor = async (token: string) => (await unread(token)).find((row) => row.caseId === caseId)?.unread;
    await post(doctor.token, caseId, messageForm('one'));
    await post(doctor.token, caseId, messageForm('two'));
    expect(await countFor(doctor.token)).toBeUndefined();
    expect(await countFor(staff.token)).toBe(2);
    expect(await countFor(admin)).toBe(2);

    await post(staff.token, caseId, messageForm('reply'));
    expect(await countFor(doctor.token)).toBe(1);
    // Writing counts as reading what came before.
    expect(await countFor(staff.token)).toBeUndefined();
    expect(await countFor(admin)).toBe(2);
    expect(await countFor(otherDoctor.token)).toBeUndefined();

    const read = await markRead(doctor.token, caseId);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ message: 'Messages marked read' });
    expect(await countFor(doctor.token)).toBeUndefined();
    await markRead(admin, caseId);
    expect(await countFor(admin)).toBeUndefined();
    await post(doctor.token, caseId, messageForm('three'));
    expect(await countFor(admin)).toBe(1);
    expect((await unread(doctor.token)).every((row) => row.unread > 0)).toBe(true);
  });

  it('marks read on a case without messages without error, and answers only visible cases', async () => {
    const { caseId } = await newCase(doctor);
    expect((await markRead(doctor.token, caseId)).statusCode).toBe(200);
    expect((await markRead(staff.token, caseId)).statusCode).toBe(200);
    expect((await markRead(doctor.token, 99_999_999)).statusCode).toBe(404);
    // /api/case/unread is its own route, not a case whose id is "unread" (that would be 400).
    const ownRoute = await t.as(doctor.token, { method: 'GET', url: '/api/case/unread' });
    expect([ownRoute.statusCode, Array.isArray(ownRoute.json())]).toEqual([200, true]);
  });
});

describe('e-mail to the other side', () => {
  it('mails every Dashboard staff user once per case in 10 minutes, with no text or patient name, then again after', async () => {
    const { caseId, trackingNo } = await newCase(doctor);
    const caseUrl = `http://portal.test/cases/${caseId}`;
    const staffEmail = `${staff.username}@lab.test`;
    await post(doctor.token, caseId, messageForm('Secret clinical note'));
    await post(doctor.token, caseId, messageForm('Another note'));
    const recipients = await mailedAbout(caseUrl);
    expect(recipients.filter((recipient) => recipient === staffEmail)).toHaveLength(1);
    expect(recipients).not.toContain(`${usersOnlyStaff.username}@lab.test`);
    expect(recipients).not.toContain(doctor.email);
    expect(new Set(recipients).size).toBe(recipients.length);

    await t.app.outbox.deliverDue();
    const sent = (await outboxMessages(t))
      .map(readableMail)
      .filter((mail) => mail.includes(caseUrl) && mail.includes('new message about case'));
    expect(sent.length).toBeGreaterThan(0);
    for (const mail of sent) {
      expect(mail).toContain(`You have a new message about case ${trackingNo}`);
      expect(mail).not.toMatch(/Secret clinical note|Another note|Zebulon|Quixote/);
    }

    await t.app.db.execute(
      sql`update case_message_mails set last_mailed_at = now() - interval '11 minutes' where case_id = ${caseId}`,
    );
    await post(doctor.token, caseId, messageForm('After the window'));
    await post(doctor.token, caseId, messageForm('And one more'));
    await endMailWait();
    await t.app.outbox.deliverDue();
    const sentToStaff = (await outboxMessages(t))
      .map(readableMail)
      .filter(
        (mail) =>
          mail.includes(caseUrl) && mail.includes('new message about case') && mail.includes(`To: ${staffEmail}`),
      );
    expect(sentToStaff).toHaveLength(2);
  });

  it("mails the case's doctor for the lab's messages, throttled the same way, concurrent messages included", async () => {
    const { caseId } = await newCase(doctor);
    const caseUrl = `http://portal.test/cases/${caseId}`;
    await Promise.all([1, 2, 3].map((n) => post(staff.token, caseId, messageForm(`lab ${n}`))));
    await post(admin, caseId, messageForm('admin too'));
    expect(await mailedAbout(caseUrl)).toEqual([doctor.email]);
  });

  it('waits two minutes, and drops the mail of a reader who read the conversation meanwhile; their next one is mailed', async () => {
    const { caseId } = await newCase(doctor);
    const caseUrl = `http://portal.test/cases/${caseId}`;
    const staffEmail = `${staff.username}@lab.test`;
    await post(doctor.token, caseId, messageForm('Read on the case page'));
    const [waiting] = await rows<{ seconds: number }>(
      sql`select extract(epoch from next_attempt_at - created_at)::int as seconds from mail_outbox
          where template = 'caseMessage' and recipient = ${staffEmail} and sent_at is null`,
    );
    expect(waiting!.seconds).toBeGreaterThanOrEqual(119);
    await t.app.outbox.deliverDue();
    const sentAtOnce = (await outboxMessages(t))
      .map(readableMail)
      .filter((mail) => mail.includes(caseUrl) && mail.includes('new message about case'));
    expect(sentAtOnce).toEqual([]);

    expect((await markRead(staff.token, caseId)).statusCode).toBe(200);
    const mailed = await mailedAbout(caseUrl);
    expect(mailed).not.toContain(staffEmail);
    // The administrator, who has not read it, is mailed as before.
    expect(mailed.length).toBeGreaterThan(0);

    // Within the ten minutes: the dropped mail does not hold the next one back.
    await post(doctor.token, caseId, messageForm('Not read this time'));
    expect((await mailedAbout(caseUrl)).filter((recipient) => recipient === staffEmail)).toHaveLength(1);
  });

  it('sends the waiting mail when a message came after the reader read the earlier ones', async () => {
    const { caseId } = await newCase(doctor);
    const caseUrl = `http://portal.test/cases/${caseId}`;
    await post(staff.token, caseId, messageForm('first'));
    expect((await markRead(doctor.token, caseId)).statusCode).toBe(200);
    await post(staff.token, caseId, messageForm('second, unread'));
    expect(await mailedAbout(caseUrl)).toEqual([doctor.email]);
  });
});

describe('live event case.message', () => {
  const messageOn = (caseId: number) => (event: StreamedEvent) =>
    event.type === 'case.message' && (event.data as { caseId: number }).caseId === caseId;
  async function stream(token: string) {
    const reader = await openEventStream(`${base}/api/events`, { authorization: `Bearer ${token}` });
    open.push(reader);
    return reader;
  }

  it("reaches the case's doctor and staff, never another doctor", async () => {
    const { caseId } = await newCase(doctor);
    const { caseId: otherCaseId } = await newCase(otherDoctor);
    const [own, other, lab] = await Promise.all([stream(doctor.token), stream(otherDoctor.token), stream(staff.token)]);
    const written = (await post(staff.token, caseId, messageForm('live'))).json<Message>();
    const event = await own.waitFor(messageOn(caseId));
    expect(event.data).toEqual({ caseId, messageId: written.messageId, side: 'lab', at: written.at });
    await lab.waitFor(messageOn(caseId));
    await post(otherDoctor.token, otherCaseId, messageForm('mine'));
    await other.waitFor(messageOn(otherCaseId));
    await lab.waitFor(messageOn(otherCaseId));
    // The first message was published before the second: had it gone to the other doctor, it would be there.
    expect(other.events.filter(messageOn(caseId))).toEqual([]);
    expect(own.events.filter(messageOn(otherCaseId))).toEqual([]);
  });
});

describe('GET /api/case/{caseId}/timeline', () => {
  it('merges the messages in by time, oldest first', async () => {
    const { caseId } = await newCase(doctor);
    await post(doctor.token, caseId, messageForm('before', [{ data: await makeImage('png'), name: 'a.png' }]));
    const moved = await t.as(staff.token, {
      method: 'PUT',
      url: `/api/case/status/${caseId}`,
      payload: { status: 'inprogress' },
    });
    expect(moved.statusCode).toBe(200);
    await post(staff.token, caseId, messageForm('after'));
    const timeline = (await t.as(doctor.token, { method: 'GET', url: `/api/case/${caseId}/timeline` })).json<
      { kind: string; at: string; side?: string; text?: string; byName?: string; attachments?: unknown }[]
    >();
    expect(timeline.map((entry) => entry.kind)).toEqual(['created', 'message', 'status', 'message']);
    expect(timeline[1]).toMatchObject({
      side: 'doctor',
      text: 'before',
      byName: 'Grace Hopper',
      attachments: [{ fileName: 'a.png' }],
    });
    expect(timeline[3]).toMatchObject({ side: 'lab', text: 'after', attachments: [] });
    const times = timeline.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
