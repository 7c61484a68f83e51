import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Checkbox, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { paths } from '../../../../config/paths.ts';
import { useCaseFormContext } from './case-form-values.ts';

/** Accepting the Terms and Conditions, which can be read in a large dialog first. */
export function TermsField() {
  const { t } = useLingui();
  const form = useCaseFormContext();
  const [opened, terms] = useDisclosure(false);
  return (
    <>
      <Checkbox
        label={
          <>
            <Trans>
              I accept the{' '}
              <Anchor component="button" type="button" fz="sm" onClick={terms.open}>
                Terms and Conditions
              </Anchor>
            </Trans>
            <Text span c="red" aria-hidden>
              {' '}
              *
            </Text>
          </>
        }
        {...form.getInputProps('termsAndCondition', { type: 'checkbox' })}
      />
      <Modal opened={opened} onClose={terms.close} title={t`Terms and Conditions`} size="xl">
        <iframe
          src={paths.terms}
          title={t`Terms and Conditions`}
          style={{ width: '100%', height: '70vh', border: 0 }}
        />
      </Modal>
    </>
  );
}
