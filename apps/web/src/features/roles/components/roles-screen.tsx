import type { Role } from '@portal/contract';
import { useState } from 'react';
import { useLocalTableView } from '../../../components/data-table.tsx';
import { RoleForm } from './role-form.tsx';
import { RolesList } from './roles-list.tsx';

/**
 * The list and the form share the screen; holding a role means editing it. The list's search
 * and page are held here, so that they are as they were when the form closes.
 */
export function RolesScreen() {
  const [form, setForm] = useState<{ role?: Role } | null>(null);
  const view = useLocalTableView();
  if (form) return <RoleForm role={form.role} onClose={() => setForm(null)} />;
  return <RolesList view={view} onAdd={() => setForm({})} onEdit={(role) => setForm({ role })} />;
}
