import { useLingui } from '@lingui/react/macro';
import { pages } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { paths } from '../../../config/paths.ts';
import { api } from '../../../lib/api-client.ts';
import { serverText } from '../../../lib/server-text.ts';
import { menuKeys } from '../../../lib/shared-queries.ts';
import { isAdministrator, isDoctor, isDoctorSide, type Session } from '../../../lib/session.ts';

export const getMenu = (roleId: number) => api.call('GET /api/permission/get_menu/:roleId', { params: { roleId } });

export const menuQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: menuKeys.ofRole(roleId), queryFn: () => getMenu(roleId) });

type MenuItem = { label: string; url: string };

/** The sidebar by user type (docs/spec.md section 2, Layout); the labels in the language shown. */
export function useMenu(session: Session): { items: MenuItem[]; isLoading: boolean } {
  const { t } = useLingui();
  // The Inbox follows the Dashboard: whoever reaches cases has one (docs/decisions/messages.md § Inbox).
  const withInbox = (items: MenuItem[]): MenuItem[] =>
    items.flatMap((item) => (item.url === '/dashboard' ? [item, { label: t`Inbox`, url: '/inbox' }] : [item]));
  // The pages' names are the contract's (the server's menu answers them too).
  const pageItem = (page: { PageName: string; PageUrl: string }) => ({
    label: serverText(page.PageName),
    url: page.PageUrl,
  });
  const isStaff = !isDoctorSide(session) && !isAdministrator(session);
  const query = useQuery({ ...menuQueryOptions(session.roleId), enabled: isStaff });
  if (isDoctorSide(session)) {
    // An assistant has the doctors' menu but for Assistants, which is the doctor's own.
    const doctorsOwn = isDoctor(session) ? [{ label: t`Assistants`, url: paths.assistants }] : [];
    return {
      items: withInbox([
        { label: t`Dashboard`, url: '/dashboard' },
        { label: t`Add Cases`, url: '/cases' },
        ...doctorsOwn,
      ]),
      isLoading: false,
    };
  }
  if (isAdministrator(session)) {
    const items = pages.map(pageItem);
    return {
      items: withInbox([...items, { label: t`Audit Log`, url: '/audit' }, { label: t`Settings`, url: paths.settings }]),
      isLoading: false,
    };
  }
  return {
    items: withInbox((query.data ?? []).map(pageItem)),
    isLoading: query.isLoading,
  };
}
