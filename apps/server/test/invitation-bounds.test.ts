import {
  assistantInvitationsPerDay,
  assistantInvitePauseMinutes,
  assistantMessages,
  controlCharactersMessage,
  type AssistantRow,
} from '@portal/contract';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantInvitations, users } from '../src/db/schema.ts';
import { createCaseDoctor } from './helpers/case-factories.ts';
import { createStaff, doctorFields, formData, outboxMessages, uniqueName } from './helpers/factories.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Issue 40, security 3 (docs/decisions/invitations-events-files.md): a doctor's invitations
 * are bounded per day, revoked ones included, and names that go into mails stay on one line.
 */
let t: TestApp;
let admin: string;
let plainRoleId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  plainRoleId = (await createStaff(t, [])).roleId;
}, 60_000);
afterAll(() => t.close());

const invite = (token: string, payload: Record<string, unknown>) =>
  t.as(token, { method: 'POST', url: '/api/doctor/assistants', payload });

async function mailsTo(email: string): Promise<number> {
  await t.app.outbox.deliverDue();
  return (await outboxMessages(t)).filter((raw) => raw.includes(`To: ${email}`)).length;
}

describe('invitations per doctor per day', () => {
  it(`mails at most ${assistantInvitationsPerDay} invitations in 24 hours, revoked ones counted; the 429 says when`, async () => {
    const doctor = await createCaseDoctor(t);
    // The red team's loop: invite an address, revoke, invite the next.
    for (let index = 0; index < assistantInvitationsPerDay; index++) {
      const email = `${uniqueName('loop')}@example.com`;
      const invited = await invite(doctor.token, { email, firstName: 'Loop', lastName: String(index) });
      expect(invited.statusCode, invited.body).toBe(200);
      const [row] = (await t.as(doctor.token, { method: 'GET', url: '/api/doctor/assistants' }))
        .json<AssistantRow[]>()
        .filter((assistant) => assistant.email === email);
      const revoked = await t.as(doctor.token, { method: 'DELETE', url: `/api/doctor/assistants/${row!.userId}` });
      expect(revoked.statusCode).toBe(200);
    }

    const email = `${uniqueName('past')}@example.com`;
    const past = await invite(doctor.token, { email, firstName: 'One', lastName: 'Too many' });
    expect(past.statusCode, past.body).toBe(429);
    const [oldest] = await t.app.db
      .select({
        freeAt: sql<string>`to_char((min(${assistantInvitations.sentAt}) + interval '24 hours 1 minute') at time zone 'UTC', 'YYYY-MM-DD HH24:MI "UTC"')`,
      })
      .from(assistantInvitations)
      .where(eq(assistantInvitations.doctorUserId, doctor.userId));
    expect(past.json().message).toBe(assistantMessages.tooManyToday(oldest!.freeAt));
    expect(past.json().message).toMatch(/you can invite again after \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    const retryAfter = Number(past.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    // Nothing created, nothing mailed.
    expect(await t.app.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await mailsTo(email)).toBe(0);

    // Another doctor is not held back by this one's count.
    const other = await createCaseDoctor(t);
    const otherEmail = `${uniqueName('other')}@example.com`;
    expect((await invite(other.token, { email: otherEmail, firstName: 'Oth', lastName: 'Er' })).statusCode).toBe(200);

    // A day later (the count's rows moved back a day) the doctor invites again.
    await t.app.db
      .update(assistantInvitations)
      .set({ sentAt: sql`${assistantInvitations.sentAt} - interval '24 hours'` })
      .where(eq(assistantInvitations.doctorUserId, doctor.userId));
    const later = await invite(doctor.token, { email, firstName: 'One', lastName: 'Later' });
    expect(later.statusCode, later.body).toBe(200);
    expect(await mailsTo(email)).toBe(1);
  });

  it('says when in Retry-After too for the pause between two invitations of one assistant', async () => {
    const doctor = await createCaseDoctor(t);
    const email = `${uniqueName('pause')}@example.com`;
    expect((await invite(doctor.token, { email, firstName: 'Pau', lastName: 'Se' })).statusCode).toBe(200);
    const again = await invite(doctor.token, { email, firstName: 'Pau', lastName: 'Se' });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(assistantMessages.tooSoon);
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(assistantInvitePauseMinutes * 60);
  });

  it('holds the bound for invitations sent at once', async () => {
    const doctor = await createCaseDoctor(t);
    // Fifteen of the day's invitations already sent (to assistants since revoked).
    const earlier = assistantInvitationsPerDay - 5;
    await t.app.db
      .insert(assistantInvitations)
      .values(Array.from({ length: earlier }, () => ({ doctorUserId: doctor.userId, assistantUserId: doctor.userId })));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        invite(doctor.token, { email: `${uniqueName('burst')}@example.com`, firstName: 'Burst', lastName: `${index}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(5).fill(429)]);
    const [sent] = await t.app.db
      .select({ n: count() })
      .from(assistantInvitations)
      .where(eq(assistantInvitations.doctorUserId, doctor.userId));
    expect(sent!.n).toBe(assistantInvitationsPerDay);
  });
});

describe('names that go into mails', () => {
  const badNames = [
    { name: 'CR/LF', value: 'Eve\r\nBcc: victim@example.com' },
    { name: 'a lone LF', value: 'Eve\nClick here' },
    { name: 'a tab', value: 'Eve\tX' },
    { name: 'a DEL', value: 'Eve\u007f' },
    { name: 'a C1 next-line', value: 'Eve\u0085Line' },
    { name: 'a line separator', value: 'Eve\u2028Line' },
    { name: 'a right-to-left override', value: 'Eve\u202eevE' },
  ];

  it.each(badNames)("refuses $name in an assistant invitation's names (400), mailing nobody", async ({ value }) => {
    const doctor = await createCaseDoctor(t);
    const email = `${uniqueName('crlf')}@example.com`;
    for (const field of ['firstName', 'lastName'] as const) {
      const names = { firstName: 'Eve', lastName: 'Adams', [field]: value };
      const response = await invite(doctor.token, { email, ...names });
      expect(response.statusCode, response.body).toBe(400);
      const label = field === 'firstName' ? 'First Name' : 'Last Name';
      expect(response.json().fieldErrors).toEqual({ [field]: controlCharactersMessage(label) });
    }
    expect(await t.app.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await mailsTo(email)).toBe(0);
  });

  it("refuses CR/LF in a doctor's names and clinic name at registration, and in a staff user's names", async () => {
    const crlf = 'Eve\r\nBcc: victim@example.com';
    for (const [overrides, key, label] of [
      [{ firstname: crlf }, 'firstname', 'First Name'],
      [{ lastname: crlf }, 'lastname', 'Last Name'],
      [
        {
          clinicList: JSON.stringify([
            { clinicId: 0, clinicName: crlf, countryId: 1, cityId: 1, contactNo: '1', address: 'x' },
          ]),
        },
        'clinicList.0.clinicName',
        'Clinic Name',
      ],
    ] as const) {
      const response = await t.as(null, {
        method: 'POST',
        url: '/api/doctor/add',
        payload: formData(doctorFields(overrides)),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toMatchObject({ [key]: controlCharactersMessage(label) });
    }
    for (const field of ['firstname', 'lastname']) {
      const response = await t.as(admin, {
        method: 'POST',
        url: '/api/user/add',
        payload: formData({
          username: uniqueName('crlf'),
          firstname: 'Look',
          lastname: 'Fine',
          [field]: crlf,
          password: 'control-char-pass',
          email: 'crlf@lab.test',
          mobileNo: '5550123',
          roleId: plainRoleId,
          userType: 'Web',
        }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toMatchObject({
        [field]: controlCharactersMessage(field === 'firstname' ? 'First Name' : 'Last Name'),
      });
    }
  });

  it('still accepts names in other scripts, with apostrophes, hyphens and joiners', async () => {
    const doctor = await createCaseDoctor(t);
    for (const [firstName, lastName] of [
      ["D'Arcy", 'Smith-Jones'],
      ['Иван', 'Петров'],
      ['山田', 'たろう'],
      ['می\u200cخواهم', 'Farsi'],
    ]) {
      const email = `${uniqueName('ok')}@example.com`;
      const response = await invite(doctor.token, { email, firstName, lastName });
      expect(response.statusCode, response.body).toBe(200);
    }
  });
});
