import { useLingui } from '@lingui/react/macro';
import { Group, Radio, Select } from '@mantine/core';
import { serverText } from '../../../../lib/server-text.ts';
import { useCaseFormContext, type CaseFormValues } from './case-form-values.ts';

type ChoiceField = {
  [Field in keyof CaseFormValues]: CaseFormValues[Field] extends string | null ? Field : never;
}[keyof CaseFormValues];

interface ChoiceProps {
  field: ChoiceField;
  /** Shown as given (in the language shown). */
  label: string;
  /** The contract's options: sent as they are, shown in the language shown. */
  options: readonly string[];
  withAsterisk?: boolean;
}

/** A pick from a short option list of the contract, as radio buttons. */
export function ChoiceRadios({ field, label, options, withAsterisk }: ChoiceProps) {
  const form = useCaseFormContext();
  return (
    <Radio.Group label={label} withAsterisk={withAsterisk} {...form.getInputProps(field)}>
      <Group mt="xs" gap="md">
        {options.map((option) => (
          <Radio key={option} value={option} label={serverText(option)} />
        ))}
      </Group>
    </Radio.Group>
  );
}

/** A pick from an option list of the contract, as a select; optional ones can be cleared. */
export function ChoiceSelect({ field, label, options, withAsterisk }: ChoiceProps) {
  const { t } = useLingui();
  const form = useCaseFormContext();
  return (
    <Select
      label={label}
      withAsterisk={withAsterisk}
      data={options.map((option) => ({ value: option, label: serverText(option) }))}
      clearable={!withAsterisk}
      clearButtonProps={{ 'aria-label': t`Clear ${label}` }}
      placeholder={t`Select`}
      {...form.getInputProps(field)}
    />
  );
}
