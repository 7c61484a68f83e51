import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/**
 * The case's latest progress scan has a tooth off track (docs/decisions/progress-scans.md § Off
 * track on the lists). Outlined, so it is not read as the filled unread count beside it; red.9
 * keeps 4.5:1 on white.
 */
export function OffTrackBadge() {
  const { t } = useLingui();
  return (
    <Badge
      color="red.9"
      variant="outline"
      radius="sm"
      leftSection={<IconAlertTriangle size={12} aria-hidden />}
      title={t`The latest progress scan has a tooth off track`}
    >
      <Trans>Off track</Trans>
    </Badge>
  );
}
