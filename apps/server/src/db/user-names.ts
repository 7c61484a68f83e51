import { sql, type Column, type SQL } from 'drizzle-orm';
import { users } from './schema.ts';

/**
 * A user's full name as the portal shows it, in SQL: the expression `users_full_name_idx`
 * indexes. `table` is `users` or an alias of it.
 */
export const fullNameOf = (table: { firstName: Column; lastName: Column } = users) =>
  sql<string>`(${table.firstName} || ' ' || ${table.lastName})`;

/** The full name of the user whose id `userId` holds, as a subquery: null when it holds none. */
export const fullNameById = (userId: Column | SQL) =>
  sql<string | null>`(select n.first_name || ' ' || n.last_name from ${users} n where n.user_id = ${userId})`;
