import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Divider, SimpleGrid, Stack, type SimpleGridProps } from '@mantine/core';
import { caseFieldList, caseFormSteps, type CaseFormSection } from '@portal/contract';
import { Fragment, type ReactNode } from 'react';
import { CaseFieldInput } from './case-field-input.tsx';

interface SectionLayout {
  cols: SimpleGridProps['cols'];
  spacing?: SimpleGridProps['spacing'];
  /** A labelled rule above the section. */
  divider?: MessageDescriptor;
}

const sectionLayouts: Record<CaseFormSection, SectionLayout> = {
  patient: { cols: { base: 1, sm: 2 } },
  complaint: { cols: 1 },
  correction: { cols: { base: 1, md: 2 }, spacing: 'lg' },
  goals: { cols: { base: 1, sm: 2, md: 4 } },
  preferences: { cols: { base: 1, md: 2 }, spacing: 'lg', divider: msg`Preferences` },
  prescription: { cols: { base: 1, sm: 2 } },
  numbering: { cols: 1, divider: msg`Teeth` },
  teeth: { cols: { base: 1, sm: 2 } },
  instructions: { cols: 1 },
  impression: { cols: 1 },
  images: { cols: 1, divider: msg`Photos and X-rays` },
};

/** The table's fields of one section, in the table's order. */
function CaseFieldSection({ section }: { section: CaseFormSection }) {
  const { i18n } = useLingui();
  const { cols, spacing, divider } = sectionLayouts[section];
  return (
    <>
      {divider && <Divider label={i18n._(divider)} labelPosition="left" />}
      <SimpleGrid cols={cols} spacing={spacing}>
        {caseFieldList
          .filter((field) => field.section === section)
          .map((field) => (
            <CaseFieldInput key={field.key} field={field} />
          ))}
      </SimpleGrid>
    </>
  );
}

/** One step of the case form: its sections of the case field table, with what else the step shows before or after them. */
export function CaseFormStep({
  step,
  before,
  after = {},
}: {
  step: number;
  before?: ReactNode;
  after?: Partial<Record<CaseFormSection, ReactNode>>;
}) {
  return (
    <Stack gap="lg">
      {before}
      {caseFormSteps[step]!.sections.map((section) => (
        <Fragment key={section}>
          <CaseFieldSection section={section} />
          {after[section]}
        </Fragment>
      ))}
    </Stack>
  );
}
