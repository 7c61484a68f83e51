import { pages } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { api } from '../../../lib/api-client.ts';
import { menuKeys } from '../../../lib/shared-queries.ts';
import { isAdministrator, isDoctor, isDoctorSide, type Session } from '../../../lib/session.ts';

export const getMenu = (roleId: number) => api.call('GET /api/permission/get_menu/:roleId', { params: { roleId } });

export const menuQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: menuKeys.ofRole(roleId), queryFn: () => getMenu(roleId) });

type MenuItem = { label: string; url: string };

/** The Inbox follows the Dashboard: whoever reaches cases has one (docs/decisions/messages.md § Inbox). */
const withInbox = (items: MenuItem[]): MenuItem[] =>
  items.flatMap((item) => (item.url === '/dashboard' ? [item, { label: 'Inbox', url: '/inbox' }] : [item]));

/** The sidebar by user type (docs/spec.md section 2, Layout). */
export function useMenu(session: Session): { items: MenuItem[]; isLoading: boolean } {
  const isStaff = !isDoctorSide(session) && !isAdministrator(session);
  const query = useQuery({ ...menuQueryOptions(session.roleId), enabled: isStaff });
  if (isDoctorSide(session)) {
    // An assistant has the doctors' menu but for Assistants, which is the doctor's own.
    const doctorsOwn = isDoctor(session) ? [{ label: 'Assistants', url: paths.assistants }] : [];
    return {
      items: withInbox([
        { label: 'Dashboard', url: '/dashboard' },
        { label: 'Add Cases', url: '/cases' },
        ...doctorsOwn,
      ]),
      isLoading: false,
    };
  }
  if (isAdministrator(session)) {
    const items = pages.map((page) => ({ label: page.PageName, url: page.PageUrl }));
    return { items: withInbox([...items, { label: 'Audit Log', url: '/audit' }]), isLoading: false };
  }
  return {
    items: withInbox((query.data ?? []).map((item) => ({ label: item.PageName, url: item.PageUrl }))),
    isLoading: query.isLoading,
  };
}
