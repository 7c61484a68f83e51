import { RequirePage } from '../guards.tsx';
import { InboxList } from '../../features/inbox/components/inbox-list.tsx';
import { caseViewerOf } from '../../lib/case-viewer.ts';
import { useSession, type Session } from '../../lib/session.ts';

/** /inbox: what waits for the caller across cases; for those who reach cases (doctors, their assistants, Dashboard staff). */
export function Component() {
  const session = useSession() as Session;
  return (
    <RequirePage page="/dashboard" allowDoctor>
      <InboxList viewer={caseViewerOf(session)} />
    </RequirePage>
  );
}
