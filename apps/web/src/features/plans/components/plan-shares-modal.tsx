import { Button, CopyButton, Group, Modal, NumberInput, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { PlanVersion } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePlanShareChanges, usePlanShares } from '../api/plan-shares.ts';

/**
 * The case's doctor makes a read-only link for the patient to one version, open 1 to 30
 * days, and sees and revokes the links made (docs/decisions/plans.md § Patient links). A link's
 * address is shown once, when it is made: only its hash is kept.
 */
export function PlanSharesModal({ plan, onClose }: { plan: PlanVersion; onClose: () => void }) {
  const shares = usePlanShares(plan.caseId, plan.planId);
  const { create, revoke } = usePlanShareChanges(plan.caseId, plan.planId);
  const [days, setDays] = useState<number | string>(14);
  const [made, setMade] = useState<string>();
  const failed = (failure: unknown) => notifyError(errorMessage(failure, 'Something went wrong...'));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    create.mutateAsync(Number(days)).then((answer) => setMade(answer.url), failed);
  };
  return (
    <Modal opened onClose={onClose} title={`Patient links to version ${plan.version}`} centered size="lg">
      <Stack gap="md">
        <Text size="sm">
          The patient sees the 3D stages and their count, under their first name&apos;s initial: no name, date of birth,
          clinic, files or messages.
        </Text>
        <Group component="form" align="flex-end" gap="sm" onSubmit={submit}>
          <NumberInput
            label="Open for (days)"
            min={1}
            max={30}
            allowDecimal={false}
            value={days}
            onChange={setDays}
            w={140}
          />
          <Button type="submit" loading={create.isPending}>
            Make a link
          </Button>
        </Group>
        {made && (
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <TextInput label="The link (shown once: copy it now)" value={made} readOnly />
              <CopyButton value={made}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy the link'}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Paper>
        )}
        <Stack gap={6} component="ul" p={0} m={0} aria-label="Links made">
          {(shares.data ?? []).map((share) => (
            <Paper key={share.shareId} withBorder p="xs" component="li" style={{ listStyle: 'none' }}>
              <Group justify="space-between" gap="xs">
                <Text size="sm">
                  {share.isOpen
                    ? `Open until ${formatDateTime(share.expiresAt)}`
                    : share.revokedAt
                      ? `Revoked ${formatDateTime(share.revokedAt)}`
                      : `Expired ${formatDateTime(share.expiresAt)}`}
                  {' · '}
                  {share.lastUsedAt ? `last opened ${formatDateTime(share.lastUsedAt)}` : 'not opened yet'}
                </Text>
                {share.isOpen && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    c="red.9"
                    onClick={() =>
                      void revoke.mutateAsync(share.shareId).then(() => notifySuccess('Link revoked'), failed)
                    }
                  >
                    Revoke
                  </Button>
                )}
              </Group>
            </Paper>
          ))}
        </Stack>
      </Stack>
    </Modal>
  );
}
