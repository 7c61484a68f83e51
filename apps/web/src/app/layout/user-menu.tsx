import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconLogout, IconShieldLock, IconUser } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { isAssistant, isDoctor, type Session } from '../../lib/session.ts';
import { avatarUrl } from '../../lib/avatar.ts';

// Initials colours whose text passes AA contrast on their pale background (lime, orange and green do not).
const initialsColors = ['blue', 'cyan', 'grape', 'indigo', 'pink', 'red', 'teal', 'violet'];

/** Avatar 32x32 in the bar; 90x90, username, user type and 'Member since' in the menu. */
export function UserMenu({ session }: { session: Session }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const memberSince = dayjs(session.createdAt).isValid() ? dayjs(session.createdAt).format('MMMM YYYY') : '';

  return (
    // No initial-focus placeholder: Mantine's (role=presentation) inside role=menu is an axe aria-required-children violation.
    <Menu position="bottom-end" width={260} withArrow withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton aria-label="User menu">
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
              Member since {memberSince}
            </Text>
          )}
        </Stack>
        <Menu.Divider />
        {/* Web users and assistants have no profile of their own; their account page holds their signed-in devices. */}
        <Menu.Item leftSection={<IconUser size={16} aria-hidden />} onClick={() => void navigate(paths.profile)}>
          {isDoctor(session) ? 'Profile' : isAssistant(session) ? 'Account' : 'Signed-in devices'}
        </Menu.Item>
        <Menu.Item leftSection={<IconShieldLock size={16} aria-hidden />} onClick={() => void navigate(paths.security)}>
          Security
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void logout().then(() => navigate(paths.login, { replace: true }))}
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
