import { Button, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { CaseFieldEntry } from '@portal/contract';
import { formatToothList } from '../../lib/tooth-numbering.ts';
import { parseToothList, toggleTooth } from '../../lib/tooth-list.ts';
import { useCaseFormContext } from './case-form-values.ts';
import { ToothPickerModal } from './tooth-picker-modal.tsx';

/** A read-only list of teeth in the chosen numbering ('N/A' when empty), filled from the picker. */
export function ToothListInput({ field }: { field: Extract<CaseFieldEntry, { kind: 'teeth' }> }) {
  const form = useCaseFormContext();
  const [opened, picker] = useDisclosure(false);
  const { label, sent } = field;
  const stored = form.values[sent];
  const system = form.values.toothNumbering;
  return (
    <>
      <TextInput
        label={label}
        readOnly
        value={formatToothList(stored, system)}
        error={form.errors[sent]}
        rightSectionWidth={80}
        rightSectionPointerEvents="all"
        rightSection={
          <Button size="compact-sm" variant="light" onClick={picker.open} aria-label={`Select teeth: ${label}`}>
            Select
          </Button>
        }
      />
      <ToothPickerModal
        opened={opened}
        onClose={picker.close}
        fieldLabel={label}
        system={system}
        selected={parseToothList(stored)}
        onToggle={(tooth) => form.setFieldValue(sent, toggleTooth(stored, tooth))}
      />
    </>
  );
}
