import { Trans, useLingui } from '@lingui/react/macro';
import { Menu, Stack, Text } from '@mantine/core';
import { IconLogout, IconShieldLock, IconUser } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { isDoctor, type Session } from '../../lib/session.ts';
import { intlLocale } from '../../lib/i18n.ts';
import { useOpenedAtMount } from '../../components/on-first-use.tsx';
import { UserAvatar, UserMenuButton } from './user-menu.tsx';

/** The month and year of `date` ('December 2026' in English), or '' when it is not a date. */
function monthAndYear(date: string): string {
  const time = new Date(date);
  if (Number.isNaN(time.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(), { month: 'long', year: 'numeric' }).format(time);
}

/** The user menu itself, loaded and opened at its button's first click (user-menu.tsx): 90x90, username, user type and 'Member since'. */
export default function UserMenuDropdown({ session }: { session: Session }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const { t } = useLingui();
  const memberSince = monthAndYear(session.createdAt);
  const { target, opened, onChange } = useOpenedAtMount();

  return (
    // No initial-focus placeholder: Mantine's (role=presentation) inside role=menu is an axe aria-required-children violation.
    <Menu
      position="bottom-end"
      width={260}
      withArrow
      withInitialFocusPlaceholder={false}
      opened={opened}
      onChange={onChange}
    >
      <Menu.Target>
        <UserMenuButton session={session} ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        <Stack align="center" gap={4} p="md">
          <UserAvatar session={session} size={90} />
          <Text fw={600}>{session.username}</Text>
          <Text size="sm">{session.userType}</Text>
          {memberSince && (
            <Text size="sm" c="dimmed">
              <Trans>Member since {memberSince}</Trans>
            </Text>
          )}
        </Stack>
        <Menu.Divider />
        {/* Web users and assistants have no profile of their own: their account page holds their mail preferences. */}
        <Menu.Item leftSection={<IconUser size={16} aria-hidden />} onClick={() => void navigate(paths.profile)}>
          {isDoctor(session) ? t`Profile` : t`Account`}
        </Menu.Item>
        <Menu.Item leftSection={<IconShieldLock size={16} aria-hidden />} onClick={() => void navigate(paths.security)}>
          <Trans>Security</Trans>
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void logout().then(() => navigate(paths.login, { replace: true }))}
        >
          <Trans>Sign out</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
