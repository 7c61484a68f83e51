import { sql } from 'drizzle-orm';
import type { TestApp } from '../helpers/test-app.ts';
import type { Fixture } from './route-examples.ts';

/**
 * Another doctor's records, for fuzzing as one doctor with the other's ids: what a 2xx answer
 * must never contain, and a digest of every row that is the other doctor's, which no request
 * of the first may change.
 */
export interface OtherDoctor {
  fixture: Fixture;
  /** Names the first of the other doctor's identifiers found in `body`, if any. */
  findIn(body: string): string | undefined;
  /** A digest of the other doctor's rows (user, doctor, clinics, preferences, assistants, cases and all that hangs off them). */
  rows(): Promise<string>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function otherDoctor(t: TestApp, fixture: Fixture): OtherDoctor {
  const { userId, doctorId, clinicId, username, email } = fixture.doctor;
  // JSON keys that name a record, each with this doctor's id: a structured match, not any number.
  const idKeys: [string, number][] = [
    ['case_?id', fixture.caseId],
    ['(?:doctor_?)?user_?id', userId],
    ['doctor_?id', doctorId],
    ['clinic_?id', clinicId],
    ['plan_?id', fixture.planId],
  ];
  const markers: [string, RegExp][] = [
    ...idKeys.map(([key, id]): [string, RegExp] => [
      `"${key}": ${id}`,
      new RegExp(`"${key}"\\s*:\\s*"?${id}(?!\\d)`, 'i'),
    ]),
    ...[username, email, fixture.filePath, fixture.messageFilePath, fixture.planFilePath, fixture.picturePath].map(
      (text): [string, RegExp] => [text, new RegExp(escape(text), 'i')],
    ),
  ];
  const cases = `(select case_id from cases where doctor_user_id = ${Number(userId)})`;
  const query = sql.raw(`select md5(coalesce(string_agg(r, '|' order by r), '')) as digest from (
      select 'users' || row_to_json(x)::text as r from users x where user_id = ${Number(userId)}
      union all select 'doctors' || row_to_json(x)::text from doctors x where user_id = ${Number(userId)}
      union all select 'clinics' || row_to_json(x)::text from clinics x where doctor_id = ${Number(doctorId)}
      union all select 'preferences' || row_to_json(x)::text from doctor_preferences x where user_id = ${Number(userId)}
      union all select 'assistants' || row_to_json(x)::text from doctor_assistants x where doctor_user_id = ${Number(userId)}
      union all select 'invitations' || row_to_json(x)::text from assistant_invitations x where doctor_user_id = ${Number(userId)}
      union all select 'drafts' || row_to_json(x)::text from case_drafts x
        where owner_user_id = ${Number(userId)} or doctor_user_id = ${Number(userId)}
      union all select 'cases' || row_to_json(x)::text from cases x where case_id in ${cases}
      union all select 'attachments' || row_to_json(x)::text from case_attachments x where case_id in ${cases}
      union all select 'history' || row_to_json(x)::text from case_status_history x where case_id in ${cases}
      union all select 'messages' || row_to_json(x)::text from case_messages x where case_id in ${cases}
      union all select 'message_files' || row_to_json(x)::text from case_message_files x where case_id in ${cases}
      union all select 'message_reads' || row_to_json(x)::text from case_message_reads x where case_id in ${cases}
      union all select 'plans' || row_to_json(x)::text from treatment_plans x where case_id in ${cases}
      union all select 'plan_files' || row_to_json(x)::text from plan_stage_files x where case_id in ${cases}
    ) other_doctors_rows`);
  return {
    fixture,
    findIn: (body) => markers.find(([, pattern]) => pattern.test(body))?.[0],
    async rows() {
      const result = (await t.app.db.execute(query)) as unknown as { rows: { digest: string }[] };
      return result.rows[0]!.digest;
    },
  };
}
