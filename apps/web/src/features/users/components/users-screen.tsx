import type { Role, User } from '@portal/contract';
import { useState } from 'react';
import { UserForm } from './user-form.tsx';
import { UsersList } from './users-list.tsx';

/** The list and the form share the screen; holding a user means editing it. */
export function UsersScreen({ roles }: { roles: Role[] }) {
  const [form, setForm] = useState<{ user?: User } | null>(null);
  if (form) return <UserForm user={form.user} roles={roles} onClose={() => setForm(null)} />;
  return <UsersList onAdd={() => setForm({})} onEdit={(user) => setForm({ user })} />;
}
