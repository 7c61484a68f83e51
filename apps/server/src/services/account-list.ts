import { defaultPageSize, type AccountListQuery, type DoctorListQuery } from '@portal/contract';
import { asc, desc, ilike, or, type SQL } from 'drizzle-orm';
import { users } from '../db/schema.ts';

const sortColumns = {
  UserId: users.userId,
  UserName: users.userName,
  FirstName: users.firstName,
  LastName: users.lastName,
  Email: users.email,
  MobileNo: users.mobileNo,
  IsActive: users.isActive,
};

/** The page's order: the chosen column, then the user id, so that equal values page stably. */
export function accountOrder(sort: DoctorListQuery['sort']): SQL[] {
  if (!sort) return [asc(users.userId)];
  const descending = sort.startsWith('-');
  const column = sortColumns[(descending ? sort.slice(1) : sort) as keyof typeof sortColumns];
  return [descending ? desc(column) : asc(column), asc(users.userId)];
}

/**
 * The doctor and user lists answer one page (docs/decisions/lists-and-search.md § Paging): a lab has thousands
 * of doctors, and an unpaged list grew with every registration.
 */
export function accountPage(query: Pick<AccountListQuery, 'page' | 'pageSize'>) {
  const limit = query.pageSize ?? defaultPageSize;
  return { limit, offset: ((query.page ?? 1) - 1) * limit };
}

/** What the Doctors and Users screens searched on the client: username, names, e-mail, mobile. */
export function accountSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${search.replace(/[\\%_]/g, '\\$&')}%`;
  return or(
    ilike(users.userName, pattern),
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    ilike(users.email, pattern),
    ilike(users.mobileNo, pattern),
  );
}
