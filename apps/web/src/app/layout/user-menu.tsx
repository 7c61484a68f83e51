import { useLingui } from '@lingui/react/macro';
import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { lazy, type ComponentPropsWithRef } from 'react';
import { OnFirstUse } from '../../components/on-first-use.tsx';
import type { Session } from '../../lib/session.ts';
import { avatarUrl } from '../../lib/avatar.ts';

// Initials colours whose text passes AA contrast on their pale background (lime, orange and green do not).
const initialsColors = ['blue', 'cyan', 'grape', 'indigo', 'pink', 'red', 'teal', 'violet'];

const loadDropdown = () => import('./user-menu-dropdown.tsx');
const UserMenuDropdown = lazy(loadDropdown);

/** The user's picture, or their initials in a colour of their own. */
export function UserAvatar({ session, size }: { session: Session; size: 32 | 90 }) {
  return (
    <Avatar
      src={avatarUrl(session.profilePic, size)}
      size={size}
      radius="xl"
      alt=""
      name={session.username}
      color="initials"
      allowedInitialsColors={initialsColors}
    />
  );
}

/** The bar's button: avatar 32x32 and, from a tablet up, the username. */
export function UserMenuButton({ session, ...props }: { session: Session } & ComponentPropsWithRef<'button'>) {
  const { t } = useLingui();
  return (
    <UnstyledButton aria-label={t`User menu`} {...props}>
      <Group gap="xs" wrap="nowrap">
        <UserAvatar session={session} size={32} />
        <Text size="sm" fw={500} visibleFrom="sm">
          {session.username}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

/** The avatar in the bar, opening the menu with the account's pages and Sign out (user-menu-dropdown.tsx). */
export function UserMenu({ session }: { session: Session }) {
  return (
    <OnFirstUse trigger={<UserMenuButton session={session} />} preload={loadDropdown}>
      <UserMenuDropdown session={session} />
    </OnFirstUse>
  );
}
