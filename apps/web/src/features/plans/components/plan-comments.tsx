import { Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { toothLabel, type NumberingSystem, type PlanComment, type PlanVersion } from '@portal/contract';
import { IconPinned } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError } from '../../../lib/notify.ts';
import { usePlanCommentChanges } from '../api/plan-comments.ts';
import type { PickedPoint } from './stage-viewer/plan-view-scene.tsx';
import type { CaseViewer } from '../../../lib/case-viewer.ts';

function where(comment: Pick<PlanComment, 'stage' | 'arch' | 'tooth'>, system: NumberingSystem) {
  const tooth = comment.tooth === null ? '' : `, tooth ${toothLabel(comment.tooth, system)}`;
  return `Stage ${comment.stage}, ${comment.arch} arch${tooth}`;
}

function stateOf(comment: PlanComment) {
  if (comment.resolvedAt) return `Resolved by ${comment.resolvedBy} ${formatDateTime(comment.resolvedAt)}`;
  if (comment.sentAt) return 'Sent to the lab';
  return 'Draft: sent with your change request';
}

/** The comment form for a picked point: the text, saved as a draft pin. */
function NewComment({
  caseId,
  plan,
  picked,
  onDone,
}: {
  caseId: number;
  plan: PlanVersion;
  picked: PickedPoint;
  onDone: () => void;
}) {
  const { add } = usePlanCommentChanges(caseId, plan.planId);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!text.trim()) {
      setError('A comment is required');
      return;
    }
    add.mutateAsync({ ...picked, text }).then(onDone, (failure: unknown) => {
      notifyError(errorMessage(failure, 'Something went wrong...'));
      if (failure instanceof ApiError) setError(failure.fieldErrors.text);
    });
  };
  return (
    <Paper withBorder p="xs" component="form" onSubmit={submit} aria-label="New pinned comment">
      <Stack gap="xs">
        <Textarea
          label={`Comment at stage ${picked.stage}, ${picked.arch} arch`}
          withAsterisk
          autosize
          minRows={2}
          maxLength={2000}
          value={text}
          error={error}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setError(undefined);
          }}
          data-autofocus
          autoFocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" size="xs" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" size="xs" loading={add.isPending}>
            Save comment
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * A version's comments pinned to the model, numbered as their pins: the case's doctor pins
 * them on the version awaiting approval (a click on a tooth) and removes drafts; the lab
 * marks sent ones resolved (docs/decisions/plans.md § Comments pinned to the model).
 */
export function PlanComments({
  title = 'Pinned comments',
  caseId,
  plan,
  comments,
  viewer,
  system,
  isPinning,
  onPinning,
  picked,
  onPicked,
  onShowStage,
}: {
  /** The heading, and the list's name: the version before's comments are listed under their own. */
  title?: string;
  caseId: number;
  plan: PlanVersion;
  comments: PlanComment[] | undefined;
  viewer: CaseViewer;
  system: NumberingSystem;
  isPinning?: boolean;
  onPinning?: (isPinning: boolean) => void;
  picked?: PickedPoint;
  onPicked?: (picked: PickedPoint | undefined) => void;
  onShowStage: (stage: number) => void;
}) {
  const { remove, resolve } = usePlanCommentChanges(caseId, plan.planId);
  const canPin = viewer === 'doctor' && plan.state === 'awaiting_approval' && onPinning !== undefined;
  const failed = (failure: unknown) => notifyError(errorMessage(failure, 'Something went wrong...'));
  return (
    <Stack gap="xs" component="section" aria-labelledby={`comments-${plan.planId}`}>
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h5" id={`comments-${plan.planId}`}>
          {title}
        </Title>
        {canPin && !picked && (
          <Button
            size="xs"
            variant={isPinning ? 'filled' : 'default'}
            leftSection={<IconPinned size={14} aria-hidden />}
            aria-pressed={isPinning}
            onClick={() => onPinning!(!isPinning)}
          >
            {isPinning ? 'Cancel pinning' : 'Pin a comment'}
          </Button>
        )}
      </Group>
      {isPinning && !picked && (
        <Text size="sm" role="status">
          Click a tooth in the 3D view where the comment belongs.
        </Text>
      )}
      {picked && (
        <NewComment
          caseId={caseId}
          plan={plan}
          picked={picked}
          onDone={() => {
            onPicked?.(undefined);
            onPinning?.(false);
          }}
        />
      )}
      {comments === undefined ? (
        <Text size="sm" c="dimmed">
          Loading...
        </Text>
      ) : comments.length === 0 ? (
        <Text size="sm">None</Text>
      ) : (
        <Stack component="ol" gap={6} p={0} m={0} aria-label={title}>
          {comments.map((comment) => (
            <Paper key={comment.commentId} withBorder p="xs" component="li" style={{ listStyle: 'none' }}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge
                  circle
                  color={comment.resolvedAt ? 'gray.7' : plan.state === 'superseded' ? 'blue.9' : 'red.9'}
                  aria-label={`Pin ${comment.number}`}
                >
                  {comment.number}
                </Badge>
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {comment.text}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {where(comment, system)} · {comment.author} · {stateOf(comment)}
                  </Text>
                  <Group gap="xs">
                    <Button size="compact-xs" variant="subtle" onClick={() => onShowStage(comment.stage)}>
                      Show stage {comment.stage}
                    </Button>
                    {viewer === 'doctor' && comment.sentAt === null && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        c="red.9"
                        onClick={() => void remove.mutateAsync(comment.commentId).catch(failed)}
                      >
                        Remove comment {comment.number}
                      </Button>
                    )}
                    {viewer === 'lab' && comment.resolvedAt === null && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => void resolve.mutateAsync(comment.commentId).catch(failed)}
                      >
                        Mark comment {comment.number} resolved
                      </Button>
                    )}
                  </Group>
                </Stack>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
