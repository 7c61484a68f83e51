import type { Role } from '@portal/contract';
import { useState } from 'react';
import { RoleForm } from './role-form.tsx';
import { RolesList } from './roles-list.tsx';

/** The list and the form share the screen; holding a role means editing it. */
export function RolesScreen() {
  const [form, setForm] = useState<{ role?: Role } | null>(null);
  if (form) return <RoleForm role={form.role} onClose={() => setForm(null)} />;
  return <RolesList onAdd={() => setForm({})} onEdit={(role) => setForm({ role })} />;
}
