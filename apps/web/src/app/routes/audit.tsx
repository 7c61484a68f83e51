import { RequirePage } from '../guards.tsx';
import { AuditLog } from '../../features/audit/components/audit-log.tsx';

export function Component() {
  return (
    <RequirePage page="/audit">
      <AuditLog />
    </RequirePage>
  );
}
