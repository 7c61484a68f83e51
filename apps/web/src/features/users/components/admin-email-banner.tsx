import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button } from '@mantine/core';
import { unsetAdminEmail } from '@portal/contract/admin-email';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { isAdministrator, type Session } from '../../../lib/session.ts';
import { usersQueryOptions } from '../api/get-users.ts';

/**
 * Shown to an administrator whose address is still the seed's placeholder (ADMIN_EMAIL was
 * not set): on every page until they give a real one, since new-case mails go to it
 * (docs/decisions/accounts.md § Seeds).
 */
export function AdminEmailBanner({ session }: { session: Session }) {
  const { t } = useLingui();
  const isAdmin = isAdministrator(session);
  const own = useQuery({
    ...usersQueryOptions({ page: 1, pageSize: 10, search: session.username }),
    enabled: isAdmin,
  });
  const row = own.data?.rows.find((user) => user.UserId === session.userId);
  if (!row || row.Email.trim().toLowerCase() !== unsetAdminEmail) return null;
  return (
    // The title and button in dark text: orange on the light orange fails WCAG contrast.
    <Alert
      color="orange"
      title={t`Give your e-mail address`}
      mb="md"
      role="status"
      styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}
    >
      <Trans>
        Your account&apos;s address is still {unsetAdminEmail}, which reaches nobody: new-case mails and password links
        for you go nowhere. Edit your user on the Users page and type your real address.{' '}
        <Button component={Link} to={paths.users} size="compact-sm" color="dark">
          Open Users
        </Button>
      </Trans>
    </Alert>
  );
}
