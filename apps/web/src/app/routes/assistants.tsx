import { RequireDoctor } from '../guards.tsx';
import { AssistantsScreen } from '../../features/assistants/components/assistants-screen.tsx';

/** /assistants: a doctor's own; their assistants and staff are refused (the server refuses their calls too). */
export function Component() {
  return (
    <RequireDoctor>
      <AssistantsScreen />
    </RequireDoctor>
  );
}
