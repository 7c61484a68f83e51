import { Trans, useLingui } from '@lingui/react/macro';
import { AppShell, Burger, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconDental } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { CountBadge } from '../../components/count-badge.tsx';
import { UnreadBadge } from '../../components/unread-badge.tsx';
import { useMenu } from '../../features/menu/api/get-menu.ts';
import { AdminEmailBanner } from '../../features/users/components/admin-email-banner.tsx';
import { useAccountLocale } from '../../features/settings/api/locale.ts';
import { useToothNotation } from '../../lib/tooth-notation.ts';
import { useUserTimeZone } from '../../features/settings/api/time-zone.ts';
import { useLiveEvents } from '../../lib/live-events.ts';
import { useTabSync } from '../../lib/tab-sync.ts';
import { inboxQueryOptions, pendingDoctorsQueryOptions, unreadCountsQueryOptions } from '../../lib/shared-queries.ts';
import type { Session } from '../../lib/session.ts';
import { useDisplayTimeZone } from '../../lib/time-zone.ts';
import { UserMenu } from './user-menu.tsx';

/** Top bar, sidebar by user type, footer; the sidebar collapses below 768 px. */
export function AppLayout({ session }: { session: Session }) {
  const { t } = useLingui();
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS media query
  const isNarrow = useMediaQuery('(max-width: 767px)') ?? false;
  const [isOpenOnMobile, mobile] = useDisclosure(false);
  const [isOpenOnDesktop, desktop] = useDisclosure(true);
  const menu = useMenu(session);
  useLiveEvents(session.token);
  useTabSync();
  useUserTimeZone();
  useAccountLocale();
  // Read once for the session: every screen that names teeth shows them in it.
  useToothNotation();
  // Times are shown in the user's zone: the page is drawn again when it changes (first sign-in, the profile).
  const timeZone = useDisplayTimeZone();
  // Unread messages of every case, beside Dashboard (where the cases are), for those who have it.
  const unreadTotal = useQuery({
    ...unreadCountsQueryOptions(),
    enabled: menu.items.some((item) => item.url === '/dashboard'),
    select: (rows) => rows.reduce((total, row) => total + row.unread, 0),
  });
  // Everything waiting in the inbox, beside Inbox: the same query as the page, so both agree.
  const inboxTotal = useInfiniteQuery({
    ...inboxQueryOptions(),
    enabled: menu.items.some((item) => item.url === '/inbox'),
    select: (inbox) => inbox.pages[0]!.unreadMessages + inbox.pages[0]!.plansAwaiting,
  });
  // Doctors waiting for activation, beside Doctors, for those who can activate them.
  const pendingDoctors = useQuery({
    ...pendingDoctorsQueryOptions(),
    enabled: menu.items.some((item) => item.url === '/doctors'),
  });
  const badges: Record<string, ReactNode> = {
    '/dashboard': <UnreadBadge count={unreadTotal.data ?? 0} />,
    '/inbox': <CountBadge count={inboxTotal.data ?? 0} label={t`waiting for you`} />,
    '/doctors': <CountBadge count={pendingDoctors.data?.total ?? 0} label={t`waiting for activation`} color="blue.9" />,
  };
  const location = useLocation();
  const toggle = isNarrow ? mobile.toggle : desktop.toggle;
  const isOpen = isNarrow ? isOpenOnMobile : isOpenOnDesktop;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 768, collapsed: { mobile: !isOpenOnMobile, desktop: !isOpenOnDesktop } }}
      footer={{ height: 40 }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={isOpen} onClick={toggle} size="sm" aria-label={t`Toggle sidebar`} />
            <IconDental size={28} aria-hidden />
            <Title order={1} size="h4" style={{ whiteSpace: 'nowrap' }}>
              <Trans>Aligner Portal</Trans>
            </Title>
          </Group>
          <UserMenu session={session} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label={t`Main menu`}>
        <AppShell.Section grow component={ScrollArea}>
          {menu.items.map((item) => (
            <NavLink
              key={item.url}
              component={RouterLink}
              to={item.url}
              // Only the address itself is current: "/cases" (Add Cases) is not a case's page (issue 41).
              end
              label={item.label}
              rightSection={badges[item.url]}
              active={location.pathname === item.url}
              onClick={() => isNarrow && mobile.close()}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Fragment key={timeZone}>
          <AdminEmailBanner session={session} />
          <Outlet />
        </Fragment>
      </AppShell.Main>
      <AppShell.Footer p="xs">
        <Text size="sm" ta="center" c="dimmed">
          <Trans>Copyright © 2025-2026 Aligner Portal</Trans>
        </Text>
      </AppShell.Footer>
    </AppShell>
  );
}
