// @vitest-environment happy-dom
import { ADMIN_ROLE_ID, unsetAdminEmail } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../lib/session.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderWithApp } from '../../../testing/render.tsx';
import { usersQueryOptions } from '../api/get-users.ts';
import { AdminEmailBanner } from './admin-email-banner.tsx';

const administrator: Session = {
  token: 't',
  username: 'chief',
  userId: 1,
  userType: 'Web',
  createdAt: '2026-01-01T00:00:00.000Z',
  profilePic: null,
  roleId: ADMIN_ROLE_ID,
  exp: 0,
};

const row = (Email: string) => ({
  UserId: 1,
  UserName: 'chief',
  FirstName: 'Portal',
  LastName: 'Administrator',
  Email,
  MobileNo: '',
  RoleId: ADMIN_ROLE_ID,
  RoleName: 'Administrator',
  ProfilePic: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  userType: 'Web',
});

/** Shows "answered" once the banner's own query (same key, same cache) has its answer. */
function Answered() {
  const own = useQuery(usersQueryOptions({ page: 1, pageSize: 10, search: administrator.username }));
  return own.data ? <span>answered</span> : null;
}

describe('Admin e-mail banner', () => {
  it('asks an administrator still at the placeholder address for a real one, linking the Users page', async () => {
    fakeApi({ 'GET /api/user/get_users_list': [row(unsetAdminEmail)] });
    renderWithApp(<AdminEmailBanner session={administrator} />);
    expect(await screen.findByText('Give your e-mail address')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Users' }).getAttribute('href')).toBe('/users');
  });

  it('says nothing once the address is real, and asks nothing of other users', async () => {
    const api = fakeApi({ 'GET /api/user/get_users_list': [row('lab@clinic.example')] });
    const { unmount } = renderWithApp(
      <>
        <AdminEmailBanner session={administrator} />
        <Answered />
      </>,
    );
    // The banner's query has its answer (the probe reads the same one): still no banner.
    await screen.findByText('answered');
    expect(screen.queryByText('Give your e-mail address')).toBeNull();
    unmount();
    renderWithApp(<AdminEmailBanner session={{ ...administrator, roleId: 7 }} />);
    expect(screen.queryByText('Give your e-mail address')).toBeNull();
    expect(api.sentTo('GET /api/user/get_users_list')).toHaveLength(1);
  });
});
