import { RequirePage } from '../guards.tsx';
import { CaseForm } from '../../features/cases/components/case-form/case-form.tsx';

export function Component() {
  return (
    <RequirePage page="/cases" allowDoctor>
      <CaseForm />
    </RequirePage>
  );
}
