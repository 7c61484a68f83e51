import { Trans, useLingui } from '@lingui/react/macro';
import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconLogout, IconShieldLock, IconUser } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { isDoctor, type Session } from '../../lib/session.ts';
import { avatarUrl } from '../../lib/avatar.ts';
import { intlLocale } from '../../lib/i18n.ts';

// Initials colours whose text passes AA contrast on their pale background (lime, orange and green do not).
const initialsColors = ['blue', 'cyan', 'grape', 'indigo', 'pink', 'red', 'teal', 'violet'];

/** The month and year of `date` ('December 2026' in English), or '' when it is not a date. */
function monthAndYear(date: string): string {
  const time = new Date(date);
  if (Number.isNaN(time.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(), { month: 'long', year: 'numeric' }).format(time);
}

/** Avatar 32x32 in the bar; 90x90, username, user type and 'Member since' in the menu. */
export function UserMenu({ session }: { session: Session }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const logout = useLogout();
  const memberSince = monthAndYear(session.createdAt);

  return (
    // No initial-focus placeholder: Mantine's (role=presentation) inside role=menu is an axe aria-required-children violation.
    <Menu position="bottom-end" width={260} withArrow withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton aria-label={t`User menu`}>
          <Group gap="xs" wrap="nowrap">
            <Avatar
              src={avatarUrl(session.profilePic, 32)}
              size={32}
              radius="xl"
              alt=""
              name={session.username}
              color="initials"
              allowedInitialsColors={initialsColors}
            />
            <Text size="sm" fw={500} visibleFrom="sm">
              {session.username}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack align="center" gap={4} p="md">
          <Avatar
            src={avatarUrl(session.profilePic, 90)}
            size={90}
            radius="xl"
            alt=""
            name={session.username}
            color="initials"
            allowedInitialsColors={initialsColors}
          />
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
