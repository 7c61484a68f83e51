import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { SchemaVersion } from './archive.ts';

/** The migrations applied to `db`, as drizzle records them. */
export const schemaVersionQuery =
  'select count(*)::int as migrations, coalesce(max(created_at), 0)::bigint as latest from drizzle.__drizzle_migrations';

export function toSchemaVersion(row: { migrations: number | string; latest: number | string }): SchemaVersion {
  return { migrations: Number(row.migrations), latest: Number(row.latest) };
}

export async function readSchemaVersion(db: Database): Promise<SchemaVersion> {
  const result = (await db.execute(sql.raw(schemaVersionQuery))) as unknown as {
    rows: { migrations: number; latest: string }[];
  };
  return toSchemaVersion(result.rows[0]!);
}

/**
 * Every storage key a row refers to: case and message files, plan stage models, viewing copies,
 * profile pictures and resumable uploads (drafts' files among them). A restore checks each is there.
 */
export const referencedKeysQuery = `
  select storage_key as key from case_attachments
  union select storage_key from case_message_files
  union select storage_key from plan_stage_files
  union select view_key from mesh_views where view_key is not null
  union select profile_pic from users where profile_pic is not null
  union select storage_key from uploads where completed_at is not null`;

export async function readReferencedKeys(db: Database): Promise<string[]> {
  const result = (await db.execute(sql.raw(referencedKeysQuery))) as unknown as { rows: { key: string }[] };
  return result.rows.map((row) => row.key);
}
