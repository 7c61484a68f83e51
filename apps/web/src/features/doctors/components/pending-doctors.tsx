import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Doctor } from '@portal/contract';
import { IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage, fallbackMessages, notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverText } from '../../../lib/server-text.ts';
import { pendingDoctorsQueryOptions } from '../../../lib/shared-queries.ts';
import { useActivateDoctor } from '../api/activate-doctor.ts';

/**
 * The doctors waiting for activation (inactive), each with Activate: one click activates
 * the doctor and the server sends the activation e-mail. Nothing shows when none wait; the
 * 30 newest show (the largest page), the title counts them all.
 */
export function PendingDoctors() {
  const { t } = useLingui();
  const pending = useQuery(pendingDoctorsQueryOptions());
  const activate = useActivateDoctor();
  const doctors = pending.data?.rows ?? [];
  if (doctors.length === 0) return null;

  const activateOne = async (doctor: Doctor) => {
    try {
      const answer = await activate.mutateAsync(doctor.DoctorId);
      notifySuccess(serverText(answer.message) || fallbackMessages.updated);
    } catch (error) {
      notifyError(errorMessage(error, fallbackMessages.saveFailed));
    }
  };

  const total = pending.data?.total;
  const activateLabel = (doctor: Doctor) => {
    const name = `${doctor.FirstName} ${doctor.LastName} (${doctor.UserName})`;
    return t`Activate ${name}`;
  };

  return (
    <Card withBorder mb="lg" component="section" aria-labelledby="pending-doctors-title">
      <Title order={2} size="h4" id="pending-doctors-title" mb="sm">
        <Trans>Waiting for activation ({total})</Trans>
      </Title>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {doctors.map((doctor) => (
          <Group component="li" key={doctor.DoctorId} justify="space-between" wrap="wrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              {/* A person's name, not words: no translation tool touches it. */}
              <Text fw={500} translate="no" style={{ overflowWrap: 'anywhere' }}>
                {doctor.FirstName} {doctor.LastName} ({doctor.UserName})
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {doctor.Email}
                {doctor.MobileNo && ` · ${doctor.MobileNo}`}
              </Text>
            </div>
            <Button
              size="sm"
              leftSection={<IconCheck size={16} aria-hidden />}
              aria-label={activateLabel(doctor)}
              loading={activate.isPending && activate.variables === doctor.DoctorId}
              onClick={() => void activateOne(doctor)}
            >
              <Trans>Activate</Trans>
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
