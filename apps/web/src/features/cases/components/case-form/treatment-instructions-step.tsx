import { CaseFormStep } from './case-form-step.tsx';

export function TreatmentInstructionsStep() {
  return <CaseFormStep step={1} />;
}
