/**
 * The form's layout: each step shows its sections in this order, and a field's section
 * says on which step it is shown and checked. Plain values, without zod: the dashboard's
 * drafts list names a draft's step without loading the validation library
 * (docs/decisions/speed.md § On the wire).
 */
export const caseFormSteps = [
  { label: 'Case Details', sections: ['patient', 'complaint'] },
  {
    label: 'Treatment Instructions',
    sections: ['correction', 'goals', 'preferences', 'prescription', 'numbering', 'teeth', 'instructions'],
  },
  { label: "Patients's Records", sections: ['impression', 'images'] },
] as const;
export type CaseFormSection = (typeof caseFormSteps)[number]['sections'][number];
