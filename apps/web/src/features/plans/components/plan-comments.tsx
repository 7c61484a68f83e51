import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { maxRepliesPerComment } from '@portal/contract';
import { toothLabel, type NumberingSystem, type PlanComment, type PlanVersion } from '@portal/contract';
import { IconPinned } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError } from '../../../lib/notify.ts';
import { usePlanCommentChanges } from '../api/plan-comments.ts';
import type { PickedPoint } from './stage-viewer/plan-view-scene.tsx';
import type { CaseViewer } from '../../../lib/case-viewer.ts';
import { useToothNotation } from '../../../lib/tooth-notation.ts';
import { serverText } from '../../../lib/server-text.ts';

/** Where a comment is pinned: its stage, arch and tooth. */
function Where({
  comment,
  system,
}: {
  comment: Pick<PlanComment, 'stage' | 'arch' | 'tooth'>;
  system: NumberingSystem;
}) {
  const { t } = useLingui();
  const stage = comment.stage;
  if (comment.tooth === null)
    return comment.arch === 'upper' ? t`Stage ${stage}, upper arch` : t`Stage ${stage}, lower arch`;
  const tooth = toothLabel(comment.tooth, system);
  return comment.arch === 'upper'
    ? t`Stage ${stage}, upper arch, tooth ${tooth}`
    : t`Stage ${stage}, lower arch, tooth ${tooth}`;
}

/** A comment's state: a draft, sent, or resolved by whom and when. */
function CommentState({ comment }: { comment: PlanComment }) {
  const { t } = useLingui();
  const resolvedBy = comment.resolvedBy;
  if (comment.resolvedAt) {
    const resolvedAt = formatDateTime(comment.resolvedAt);
    return t`Resolved by ${resolvedBy} ${resolvedAt}`;
  }
  if (comment.sentAt) return t`Sent to the lab`;
  return t`Draft: sent with your change request`;
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
  const { t } = useLingui();
  const { add } = usePlanCommentChanges(caseId, plan.planId);
  const [text, setText] = useState('');
  const pickedStage = picked.stage;
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!text.trim()) {
      setError(t`A comment is required`);
      return;
    }
    add.mutateAsync({ ...picked, text }).then(onDone, (failure: unknown) => {
      notifyError(errorMessage(failure, t`Something went wrong...`));
      if (failure instanceof ApiError) setError(serverText(failure.fieldErrors.text));
    });
  };
  return (
    <Paper withBorder p="xs" component="form" onSubmit={submit} aria-label={t`New pinned comment`}>
      <Stack gap="xs">
        <Textarea
          label={
            picked.arch === 'upper'
              ? t`Comment at stage ${pickedStage}, upper arch`
              : t`Comment at stage ${pickedStage}, lower arch`
          }
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
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" size="xs" loading={add.isPending}>
            <Trans>Save comment</Trans>
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** A comment's thread: the replies of the lab and the doctor's side, and a short form for one more. */
function Replies({ caseId, plan, comment }: { caseId: number; plan: PlanVersion; comment: PlanComment }) {
  const { t } = useLingui();
  const { reply } = usePlanCommentChanges(caseId, plan.planId);
  const number = comment.number;
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [isOpen, setIsOpen] = useState(false);
  const isFull = comment.replies.length >= maxRepliesPerComment;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!text.trim()) {
      setError(t`A reply is required`);
      return;
    }
    reply.mutateAsync({ commentId: comment.commentId, text }).then(
      () => {
        setText('');
        setIsOpen(false);
      },
      (failure: unknown) => {
        notifyError(errorMessage(failure, t`Something went wrong...`));
        if (failure instanceof ApiError) setError(serverText(failure.fieldErrors.text));
      },
    );
  };
  return (
    <Stack gap={4}>
      {comment.replies.length > 0 && (
        <Stack component="ol" gap={4} p={0} m={0} aria-label={t`Replies to comment ${number}`}>
          {comment.replies.map((row) => {
            const author = row.author;
            const createdAt = formatDateTime(row.createdAt);
            return (
              <Paper
                key={row.replyId}
                component="li"
                p={6}
                bg={row.side === 'lab' ? 'blue.0' : 'gray.0'}
                style={{ listStyle: 'none' }}
              >
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {row.text}
                </Text>
                <Text size="xs" c="dimmed">
                  {row.side === 'lab' ? (
                    <Trans>
                      {author} (lab) · {createdAt}
                    </Trans>
                  ) : (
                    <Trans>
                      {author} (doctor&apos;s side) · {createdAt}
                    </Trans>
                  )}
                </Text>
              </Paper>
            );
          })}
        </Stack>
      )}
      {isOpen ? (
        <Stack gap={4} component="form" onSubmit={submit} aria-label={t`Reply to comment ${number}`}>
          <Textarea
            label={t`Reply to comment ${number}`}
            autosize
            minRows={2}
            maxLength={1000}
            value={text}
            error={error}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(undefined);
            }}
            autoFocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" onClick={() => setIsOpen(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" size="xs" loading={reply.isPending}>
              <Trans>Send reply</Trans>
            </Button>
          </Group>
        </Stack>
      ) : isFull ? (
        <Text size="xs" c="dimmed">
          <Trans>This thread is full ({maxRepliesPerComment} replies): write in the case&apos;s messages.</Trans>
        </Text>
      ) : (
        <Group>
          <Button size="compact-xs" variant="subtle" onClick={() => setIsOpen(true)}>
            <Trans>Reply to comment {number}</Trans>
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/**
 * A version's comments pinned to the model, numbered as their pins: the case's doctor pins
 * them on the version awaiting approval (a click on a tooth) and removes drafts; the lab
 * marks sent ones resolved (docs/decisions/plans.md § Comments pinned to the model).
 */
export function PlanComments({
  title: heading,
  caseId,
  plan,
  comments,
  viewer,
  system: caseSystem,
  isPinning,
  onPinning,
  picked,
  onPicked,
  lastStage,
  selected,
  onSelect,
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
  /** The last stage of the version being viewed: a comment of another version may lie past it. */
  lastStage: number;
  /** The comment selected (its pin ringed on the model). */
  selected?: number;
  /** Selects a comment: its pin on the model, and its stage when the version viewed has it. */
  onSelect: (comment: PlanComment) => void;
}) {
  // Teeth in the reader's notation (docs/decisions/tooth-notation.md); the case's until it is known.
  const system = useToothNotation(caseSystem);
  const { t } = useLingui();
  const title = heading ?? t`Pinned comments`;
  // A pin clicked on the model brings its comment into view.
  const selectedRef = useRef<HTMLLIElement>(null);
  // In braces: Chromium's scrollIntoView returns a promise, which React would take for a cleanup.
  useEffect(() => {
    void selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const { remove, resolve } = usePlanCommentChanges(caseId, plan.planId);
  const canPin = viewer === 'doctor' && plan.state === 'awaiting_approval' && onPinning !== undefined;
  const failed = (failure: unknown) => notifyError(errorMessage(failure, t`Something went wrong...`));
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
            {isPinning ? t`Cancel pinning` : t`Pin a comment`}
          </Button>
        )}
      </Group>
      {isPinning && !picked && (
        <Text size="sm" role="status">
          <Trans>Click a tooth in the 3D view where the comment belongs.</Trans>
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
          <Trans>Loading...</Trans>
        </Text>
      ) : comments.length === 0 ? (
        <Text size="sm">
          <Trans>None</Trans>
        </Text>
      ) : (
        <Stack component="ol" gap={6} p={0} m={0} aria-label={title}>
          {comments.map((comment) => {
            const { number, stage } = comment;
            return (
              <Paper
                key={comment.commentId}
                ref={comment.commentId === selected ? selectedRef : undefined}
                withBorder
                p="xs"
                component="li"
                aria-current={comment.commentId === selected ? 'true' : undefined}
                style={{
                  listStyle: 'none',
                  borderColor: comment.commentId === selected ? 'var(--mantine-color-yellow-6)' : undefined,
                  borderWidth: comment.commentId === selected ? 2 : undefined,
                }}
              >
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge
                    circle
                    color={comment.resolvedAt ? 'gray.7' : plan.state === 'superseded' ? 'blue.9' : 'red.9'}
                    aria-label={t`Pin ${number}`}
                  >
                    {comment.number}
                  </Badge>
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {comment.text}
                    </Text>
                    <Text size="xs" c="dimmed">
                      <Where comment={comment} system={system} /> · {comment.author} ·{' '}
                      <CommentState comment={comment} />
                    </Text>
                    <Group gap="xs">
                      {comment.stage <= lastStage ? (
                        <Button size="compact-xs" variant="subtle" onClick={() => onSelect(comment)}>
                          <Trans>
                            Show pin {number} at stage {stage}
                          </Trans>
                        </Button>
                      ) : (
                        <>
                          <Button size="compact-xs" variant="subtle" onClick={() => onSelect(comment)}>
                            <Trans>Show pin {number}</Trans>
                          </Button>
                          <Text size="xs" c="dimmed">
                            <Trans>
                              Stage {stage} is past this version&apos;s last ({lastStage})
                            </Trans>
                          </Text>
                        </>
                      )}
                      {viewer === 'doctor' && comment.sentAt === null && (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          c="red.9"
                          onClick={() => void remove.mutateAsync(comment.commentId).catch(failed)}
                        >
                          <Trans>Remove comment {number}</Trans>
                        </Button>
                      )}
                      {viewer === 'lab' && comment.resolvedAt === null && (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          onClick={() => void resolve.mutateAsync(comment.commentId).catch(failed)}
                        >
                          <Trans>Mark comment {number} resolved</Trans>
                        </Button>
                      )}
                    </Group>
                    {/* Sent comments take a short thread, the lab's and the doctor side's replies. */}
                    {comment.sentAt !== null && <Replies caseId={caseId} plan={plan} comment={comment} />}
                  </Stack>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
