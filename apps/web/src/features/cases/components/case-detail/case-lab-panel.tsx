import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { caseNoteRequest, maxNoteLength, type CaseDetail } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { AssigneeSelect } from '../../../../components/assignee-select.tsx';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { errorMessage, notifyError } from '../../../../lib/notify.ts';
import { serverText } from '../../../../lib/server-text.ts';
import { useAddCaseNote, useCaseNotes } from '../../api/case-notes.ts';

/**
 * The lab's side of a case, for staff only
 * (docs/decisions/cases.md § Assignment and internal notes):
 * its technician, and internal notes no doctor ever reads.
 */
export function CaseLabPanel({ caseRow }: { caseRow: CaseDetail }) {
  const { t } = useLingui();
  const notes = useCaseNotes(caseRow.CaseId);
  const addNote = useAddCaseNote(caseRow.CaseId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = caseNoteRequest.safeParse({ text });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message;
      setError(message && serverText(message));
      return;
    }
    setError(undefined);
    addNote.mutate(parsed.data.text, {
      onSuccess: () => setText(''),
      onError: (failed) => notifyError(errorMessage(failed, t`The note could not be added`)),
    });
  };

  return (
    <Stack gap="sm">
      <AssigneeSelect
        caseId={caseRow.CaseId}
        trackingNo={caseRow.TrackingNo}
        assigneeUserId={caseRow.AssigneeUserId}
        assigneeName={caseRow.AssigneeName}
      />
      <Text fw={600} size="sm" mt="xs">
        <Trans>Internal notes</Trans>
      </Text>
      <Text size="xs" c="dimmed">
        <Trans>Seen by the lab only, never by the doctor.</Trans>
      </Text>
      {notes.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          <Trans>No notes yet.</Trans>
        </Text>
      )}
      {notes.isError && (
        <Text size="sm" c="red">
          <Trans>The notes could not be loaded.</Trans>
        </Text>
      )}
      <Stack
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label={t`Internal notes`}
      >
        {notes.data?.map((note) => (
          <li key={note.noteId}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {note.text}
            </Text>
            <Text size="xs" c="dimmed">
              {note.authorName}, {formatDateTime(note.createdAt)}
            </Text>
          </li>
        ))}
      </Stack>
      <form onSubmit={submit} aria-label={t`Add an internal note`} noValidate>
        <Textarea
          label={t`New note`}
          autosize
          minRows={2}
          maxLength={maxNoteLength}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={error}
        />
        <Group justify="flex-end" mt="xs">
          <Button type="submit" size="compact-md" loading={addNote.isPending}>
            <Trans>Add note</Trans>
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
