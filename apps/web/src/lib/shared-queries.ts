import type { DoctorListQuery } from '@portal/contract';
import { maxPageSize } from '@portal/contract/case-list';
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from './api-client.ts';

/*
 * What more than one feature reads or refreshes, with its query key written once: the feature
 * that shows the data and the feature whose change makes it stale both take the key from
 * here. A feature's other keys stay in its own api/query-keys.ts.
 */

/** The dashboard counts and lists cases; the cases feature moves them to another status. */
export const caseKeys = {
  all: ['cases'] as const,
  allStats: () => [...caseKeys.all, 'stats'] as const,
  stats: (userId: number) => [...caseKeys.allStats(), userId] as const,
  lists: () => [...caseKeys.all, 'list'] as const,
  list: (params: object) => [...caseKeys.lists(), params] as const,
  /** One case and its timeline (the case page); live status events refresh both. */
  detail: (caseId: number) => [...caseKeys.all, 'detail', caseId] as const,
  timeline: (caseId: number) => [...caseKeys.all, 'timeline', caseId] as const,
  /** A case's treatment plan versions (the plans feature); live plan events refresh them. */
  plans: (caseId: number) => [...caseKeys.all, 'plans', caseId] as const,
  /** A case's progress scans (the progress feature); live `case.progressScan` events refresh them. */
  progressScans: (caseId: number) => [...caseKeys.all, 'progress-scans', caseId] as const,
  /** Who cases can be assigned to (the case page and the dashboard's list). */
  assignees: () => [...caseKeys.all, 'assignees'] as const,
  /** The lab's turnaround targets (staff: the list's and the case page's due dates). */
  turnaround: () => [...caseKeys.all, 'turnaround'] as const,
  /** Doctors by name for the list's Doctor filter. */
  doctorOptions: () => [...caseKeys.all, 'doctor-options'] as const,
};

/** The lab's turnaround targets, read once a session: only the administrator's Settings change them, and that refreshes them. */
export const turnaroundQueryOptions = () =>
  queryOptions({
    queryKey: caseKeys.turnaround(),
    queryFn: () => api.call('GET /api/case/turnaround', {}),
    staleTime: Infinity,
  });

/** The lab's settings (the administrator's Settings screen) and what staff and doctors read of them. */
export const settingsKeys = {
  all: ['settings'] as const,
  lab: () => [...settingsKeys.all, 'lab'] as const,
  couriers: () => [...settingsKeys.all, 'couriers'] as const,
  timeZone: () => [...settingsKeys.all, 'time-zone'] as const,
  locale: () => [...settingsKeys.all, 'locale'] as const,
  toothNotation: () => [...settingsKeys.all, 'tooth-notation'] as const,
};

/** The lab's couriers and their tracking links (the dispatch dialog, tracking numbers): they change only on the Settings screen. */
export const couriersQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.couriers(),
    queryFn: () => api.call('GET /api/settings/couriers', {}),
    staleTime: Infinity,
  });

/** The shell shows a role's menu; granting or revoking a page changes it. */
export const menuKeys = {
  all: ['menu'] as const,
  ofRole: (roleId: number) => [...menuKeys.all, roleId] as const,
};

/** Every doctor query: the Doctors screen's changes refresh them all. */
export const doctorKeys = {
  all: ['doctors'] as const,
  list: (params: object) => [...doctorKeys.all, 'list', params] as const,
};

/** What a page of the doctor list asks for (the server pages, searches and sorts: docs/decisions/lists-and-search.md § Paging). */
export type DoctorListParams = DoctorListQuery;

/** One page of the doctors and the count of all matching ones. */
async function getDoctors(params: DoctorListParams, signal?: AbortSignal) {
  const query = { ...params, search: params.search?.trim() || undefined };
  const { data, headers } = await api.callWithHeaders('GET /api/doctor/get_doctors_list', { query }, { signal });
  return { rows: data, total: Number(headers.get('x-total-count') ?? data.length) };
}

/** A page of doctors: the Doctors screen lists them, staff adding a case search for one. */
export const doctorListQueryOptions = (params: DoctorListParams) =>
  queryOptions({
    queryKey: doctorKeys.list(params),
    queryFn: ({ signal }) => getDoctors(params, signal),
    // The table keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/**
 * The doctors waiting for activation (inactive), the newest registrations first, a page of the
 * largest size: the Doctors screen lists them, the menu shows how many there are (`total`).
 */
export const pendingDoctorsQueryOptions = () =>
  doctorListQueryOptions({ active: 'false', pageSize: maxPageSize, sort: '-UserId' });

export const roleKeys = {
  all: ['roles'] as const,
};

/** The roles: the Roles screen lists them, the Users, Role Permissions and Doctors screens pick one. */
export const roleListQueryOptions = () =>
  queryOptions({ queryKey: roleKeys.all, queryFn: () => api.call('GET /api/role/get_roles_list') });

/**
 * Case conversations and unread counts: the messages feature shows and changes them, the
 * dashboard's lists and the menu show the counts, live `case.message` events refresh them.
 */
export const messageKeys = {
  all: ['messages'] as const,
  ofCase: (caseId: number) => [...messageKeys.all, 'case', caseId] as const,
  unread: () => [...messageKeys.all, 'unread'] as const,
  /**
   * The inbox (unread messages and plans awaiting the caller), under the unread counts' key:
   * whatever refreshes the counts (a read here or in another tab, a new message) refreshes it too.
   */
  inbox: () => [...messageKeys.unread(), 'inbox'] as const,
};

/**
 * What waits for the caller across cases (`GET /api/inbox`), a page at a time: the Inbox page
 * and its menu badge (the first page's counts). A refresh reads again every page shown.
 */
export const inboxQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: messageKeys.inbox(),
    queryFn: ({ pageParam, signal }) =>
      api.call('GET /api/inbox', { query: pageParam === null ? {} : { after: pageParam } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
  });

/** `[{ caseId, unread }]` for the cases with messages the caller has not read. */
export const unreadCountsQueryOptions = () =>
  queryOptions({ queryKey: messageKeys.unread(), queryFn: () => api.call('GET /api/case/unread') });
