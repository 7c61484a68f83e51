import { Trans, useLingui } from '@lingui/react/macro';
import { Button, CopyButton, Group, Image, Modal, NumberInput, Paper, Stack, Text, TextInput } from '@mantine/core';
import { planShareMailsPerDay, type PlanVersion } from '@portal/contract';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePlanShareChanges, usePlanShares } from '../api/plan-shares.ts';
import { serverText } from '../../../lib/server-text.ts';

/**
 * The case's doctor makes a read-only link for the patient to one version, open 1 to 30
 * days, and sees and revokes the links made (docs/decisions/plans.md § Patient links). A link's
 * address is shown once, when it is made (only its hash is kept): to copy, as a QR code for the
 * patient to scan, and mailed to the patient's address when the doctor types one.
 */
export function PlanSharesModal({ plan, onClose }: { plan: PlanVersion; onClose: () => void }) {
  const { t } = useLingui();
  const version = plan.version;
  const shares = usePlanShares(plan.caseId, plan.planId);
  const { create, revoke } = usePlanShareChanges(plan.caseId, plan.planId);
  const [days, setDays] = useState<number | string>(14);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [made, setMade] = useState<{ url: string; qrCodeSvg: string; emailedTo: string | null }>();
  const madeEmailedTo = made?.emailedTo;
  const failed = (failure: unknown) => notifyError(errorMessage(failure, t`Something went wrong...`));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const address = email.trim();
    create.mutateAsync({ days: Number(days), ...(address ? { email: address } : {}) }).then(
      (answer) => {
        setMade(answer);
        setEmail('');
        const emailedTo = answer.emailedTo;
        if (emailedTo) notifySuccess(t`Link e-mailed to ${emailedTo}`);
      },
      (failure: unknown) => {
        failed(failure);
        if (failure instanceof ApiError) setEmailError(serverText(failure.fieldErrors.email));
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t`Patient links to version ${version}`} centered size="lg">
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            The patient sees the 3D stages and their count, under their first name&apos;s initial: no name, date of
            birth, clinic, files or messages.
          </Trans>
        </Text>
        <Group component="form" align="flex-start" gap="sm" onSubmit={submit} aria-label={t`Make a patient link`}>
          <NumberInput
            label={t`Open for (days)`}
            min={1}
            max={30}
            allowDecimal={false}
            value={days}
            onChange={setDays}
            w={140}
          />
          <TextInput
            label={t`Patient's e-mail (optional)`}
            description={t`The link is mailed there too (at most ${planShareMailsPerDay} a day)`}
            type="email"
            autoComplete="off"
            maxLength={254}
            value={email}
            error={emailError}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setEmailError(undefined);
            }}
            style={{ flex: '1 1 220px' }}
          />
          <Button type="submit" loading={create.isPending} mt={{ base: 0, xs: 24 }}>
            {email.trim() ? t`Make and e-mail a link` : t`Make a link`}
          </Button>
        </Group>
        {made && (
          <Paper withBorder p="sm">
            <Stack gap="xs">
              {madeEmailedTo && (
                <Text size="sm">
                  <Trans>E-mailed to {madeEmailedTo}.</Trans>
                </Text>
              )}
              <TextInput label={t`The link (shown once: copy it now)`} value={made.url} readOnly />
              <Group align="flex-end" gap="md">
                <Image
                  src={`data:image/svg+xml;base64,${btoa(made.qrCodeSvg)}`}
                  alt={t`QR code of the link, for the patient to scan with their phone`}
                  w={160}
                  h={160}
                />
                <Text size="xs" c="dimmed" maw={260}>
                  <Trans>The patient scans this with their phone&apos;s camera to open the link.</Trans>
                </Text>
              </Group>
              <CopyButton value={made.url}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? t`Copied` : t`Copy the link`}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Paper>
        )}
        <Stack gap={6} component="ul" p={0} m={0} aria-label={t`Links made`}>
          {(shares.data ?? []).map((share) => {
            const expiresAt = formatDateTime(share.expiresAt);
            const revokedAt = share.revokedAt ? formatDateTime(share.revokedAt) : '';
            const lastUsedAt = share.lastUsedAt ? formatDateTime(share.lastUsedAt) : '';
            const emailedTo = share.emailedTo;
            return (
              <Paper key={share.shareId} withBorder p="xs" component="li" style={{ listStyle: 'none' }}>
                <Group justify="space-between" gap="xs">
                  <Text size="sm">
                    {share.isOpen
                      ? t`Open until ${expiresAt}`
                      : revokedAt
                        ? t`Revoked ${revokedAt}`
                        : t`Expired ${expiresAt}`}
                    {' · '}
                    {lastUsedAt ? t`last opened ${lastUsedAt}` : t`not opened yet`}
                    {emailedTo && t` · e-mailed to ${emailedTo}`}
                  </Text>
                  {share.isOpen && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      c="red.9"
                      onClick={() =>
                        void revoke.mutateAsync(share.shareId).then(() => notifySuccess(t`Link revoked`), failed)
                      }
                    >
                      <Trans>Revoke</Trans>
                    </Button>
                  )}
                </Group>
              </Paper>
            );
          })}
        </Stack>
      </Stack>
    </Modal>
  );
}
