import { useParams } from 'react-router';
import { SharedPlanPage } from '../../features/plans/components/shared-plan-page.tsx';

export function Component() {
  const { token } = useParams();
  return <SharedPlanPage token={token ?? ''} />;
}
