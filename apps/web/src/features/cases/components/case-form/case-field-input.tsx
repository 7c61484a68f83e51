import { Textarea, TextInput } from '@mantine/core';
import type { CaseFieldEntry } from '@portal/contract';
import { serverText } from '../../../../lib/server-text.ts';
import { useCaseFormContext } from './case-form-values.ts';
import { ChoiceRadios, ChoiceSelect } from './choice-inputs.tsx';
import { ClinicSelect, PastDateInput } from './patient-inputs.tsx';
import { RankInput } from './rank-input.tsx';
import { ToothListInput } from './tooth-list-input.tsx';

function TextField({ field }: { field: Extract<CaseFieldEntry, { kind: 'text' }> }) {
  const form = useCaseFormContext();
  const props = { label: serverText(field.label), withAsterisk: field.isRequired, ...form.getInputProps(field.sent) };
  return field.rows ? <Textarea rows={field.rows} {...props} /> : <TextInput autoComplete="off" {...props} />;
}

function ChoiceField({ field }: { field: Extract<CaseFieldEntry, { kind: 'choice' }> }) {
  const Choice = field.widget === 'radio' ? ChoiceRadios : ChoiceSelect;
  return (
    <Choice
      field={field.sent}
      label={serverText(field.formLabel ?? field.label)}
      options={field.options}
      withAsterisk={field.isRequired}
    />
  );
}

/** The input for a field of the case field table, chosen by its kind. */
export function CaseFieldInput({ field }: { field: CaseFieldEntry }) {
  switch (field.kind) {
    case 'text':
      return <TextField field={field} />;
    case 'date':
      return <PastDateInput field={field} />;
    case 'clinic':
      return <ClinicSelect field={field} />;
    case 'choice':
      return <ChoiceField field={field} />;
    case 'rank':
      return <RankInput field={field} />;
    case 'teeth':
      return <ToothListInput field={field} />;
  }
}
