import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Table, Title, VisuallyHidden } from '@mantine/core';
import { caseFormSteps } from '@portal/contract';
import { IconArrowRight, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { confirmDelete } from '../../../../components/confirm-delete.tsx';
import { caseDraftPath } from '../../../../config/paths.ts';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../../lib/notify.ts';
import { serverText } from '../../../../lib/server-text.ts';
import { useCaseDrafts, useDeleteCaseDraft } from '../../api/case-drafts.ts';

/**
 * The caller's case drafts, the most recently saved first: Continue opens the form where it
 * was left, Delete asks first. Shown only when there is one (docs/decisions/case-form.md § Drafts).
 */
export function CaseDraftList({ enabled }: { enabled: boolean }) {
  const { t } = useLingui();
  const drafts = useCaseDrafts({ enabled });
  const deleteDraft = useDeleteCaseDraft();
  if (!drafts.data?.length) return null;

  const remove = async (draftId: number, name: string) => {
    if (!(await confirmDelete(t`Draft ''${name}''`))) return;
    try {
      await deleteDraft.mutateAsync(draftId);
      notifySuccess(t`Draft deleted`);
    } catch (error) {
      notifyError(errorMessage(error, t`Something went wrong...`));
    }
  };

  return (
    <Paper withBorder p="md" mb="lg" component="section" aria-labelledby="case-drafts-title">
      <Title order={3} size="h4" mb="sm" id="case-drafts-title">
        <Trans>Drafts</Trans>
      </Title>
      <Table.ScrollContainer minWidth={340}>
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Patient</Trans>
              </Table.Th>
              <Table.Th visibleFrom="sm">
                <Trans>Step</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Last saved</Trans>
              </Table.Th>
              <Table.Th>
                <VisuallyHidden>
                  <Trans>Actions</Trans>
                </VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {drafts.data.map((draft) => {
              const name = draft.patientName || t`Unnamed patient`;
              const step = caseFormSteps[draft.step]?.label;
              return (
                <Table.Tr key={draft.draftId}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td visibleFrom="sm">{step ? serverText(step) : ''}</Table.Td>
                  <Table.Td>{formatDateTime(draft.updatedAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button
                        component={Link}
                        to={caseDraftPath(draft.draftId)}
                        size="compact-sm"
                        variant="light"
                        rightSection={<IconArrowRight size={14} aria-hidden />}
                        aria-label={t`Continue ${name}`}
                      >
                        <Trans>Continue</Trans>
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        aria-label={t`Delete draft ${name}`}
                        onClick={() => void remove(draft.draftId, name)}
                      >
                        <Trans>Delete</Trans>
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
