import { Trans, useLingui } from '@lingui/react/macro';
import { Button, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { CaseFieldEntry } from '@portal/contract';
import { serverText } from '../../../../lib/server-text.ts';
import { formatToothList } from '../../lib/tooth-numbering.ts';
import { useToothNotation } from '../../../../lib/tooth-notation.ts';
import { parseToothList, toggleTooth } from '../../lib/tooth-list.ts';
import { useCaseFormContext } from './case-form-values.ts';
import { ToothPickerModal } from './tooth-picker-modal.tsx';

/** A read-only list of teeth in the chosen numbering ('N/A' when empty), filled from the picker. */
export function ToothListInput({ field }: { field: Extract<CaseFieldEntry, { kind: 'teeth' }> }) {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const [opened, picker] = useDisclosure(false);
  const label = serverText(field.label);
  const { sent } = field;
  const stored = form.values[sent];
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const system = useToothNotation(form.values.toothNumbering);
  const teeth = formatToothList(stored, system);
  return (
    <>
      <TextInput
        label={label}
        readOnly
        value={parseToothList(stored).length === 0 ? t`N/A` : teeth}
        error={form.errors[sent]}
        rightSectionWidth={80}
        rightSectionPointerEvents="all"
        rightSection={
          <Button size="compact-sm" variant="light" onClick={picker.open} aria-label={t`Select teeth: ${label}`}>
            <Trans>Select</Trans>
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
