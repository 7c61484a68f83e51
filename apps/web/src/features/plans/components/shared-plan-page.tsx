import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { endpoints, type SharedPlan } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { api, ApiError } from '../../../lib/api-client.ts';

// three.js loads only with the viewer.
const PlanViewScene = lazy(async () => ({
  default: (await import('./stage-viewer/plan-view-scene.tsx')).PlanViewScene,
}));

function useStagesLine(plan: SharedPlan) {
  const { t } = useLingui();
  const { upperStages: upper, lowerStages: lower } = plan;
  if (upper > 0 && lower > 0) return t`${upper} upper and ${lower} lower aligner stages`;
  if (upper > 0) return t`${upper} upper aligner stages`;
  if (lower > 0) return t`${lower} lower aligner stages`;
  return ` ${t`aligner stages`}`;
}

/** The plan's one line: whose, which version, its stages, and what to do with the viewer. */
function PlanLine({ plan }: { plan: SharedPlan }) {
  const stages = useStagesLine(plan);
  const { initial, version } = plan;
  return (
    <Text>
      <Trans>
        Plan for {initial} · version {version} · {stages}. Play the stages to see how your teeth move, one aligner after
        another.
      </Trans>
    </Text>
  );
}

/** Whom the patient asks about the plan: their clinic, by name and phone when it has one. */
function ClinicContact({ clinic }: { clinic: SharedPlan['clinic'] }) {
  const { t } = useLingui();
  const { name, phone } = clinic;
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label={t`Your clinic`}>
      <Text>
        {phone ? (
          <Trans>
            Questions about your plan? Contact <strong>{name}</strong> at{' '}
            <Anchor href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</Anchor>.
          </Trans>
        ) : (
          <Trans>
            Questions about your plan? Contact <strong>{name}</strong>.
          </Trans>
        )}
      </Text>
    </Paper>
  );
}

/**
 * /p/{token}: the patient's read-only view of one plan version
 * (docs/decisions/plans.md § Patient links): the 3D stages and their count under the first name's initial, and the
 * clinic to contact, nothing else of the case. No sign-in; kept out of search engines, and no address of it goes out as a referrer.
 */
export function SharedPlanPage({ token }: { token: string }) {
  const { t } = useLingui();
  const shared = useQuery({
    queryKey: ['shared-plan', token],
    queryFn: () => api.call('GET /api/shared/:token', { params: { token } }),
    retry: false,
  });
  const meshUrl = (arch: string) =>
    endpoints.sharedPlanMesh.path.replace(':token', encodeURIComponent(token)).replace(':arch', arch);
  return (
    <Container size="lg" py="md">
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="no-referrer" />
      <title>{t`Your treatment plan`}</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          <Trans>Your treatment plan</Trans>
        </Title>
        {shared.isError ? (
          <Alert color="red" role="alert" title={t`This link cannot be opened`}>
            {shared.error instanceof ApiError && shared.error.status === 429
              ? t`Too many links were tried from this connection. Try again later.`
              : t`It may have expired or been revoked. Ask your doctor for a new link.`}
          </Alert>
        ) : !shared.data ? (
          <Text role="status">
            <Trans>Loading your plan…</Trans>
          </Text>
        ) : (
          <>
            <PlanLine plan={shared.data} />
            <ClinicContact clinic={shared.data.clinic} />
            {shared.data.views.upper?.state !== 'ready' && shared.data.views.lower?.state !== 'ready' ? (
              <Alert color="blue" role="status">
                <Trans>The 3D view of this plan is still being prepared. Open the link again in a few minutes.</Trans>
              </Alert>
            ) : (
              <Suspense
                fallback={
                  <Text role="status">
                    <Trans>Loading the 3D viewer…</Trans>
                  </Text>
                }
              >
                <PlanViewScene
                  plan={{
                    caseId: 0,
                    planId: 0,
                    version: shared.data.version,
                    summary: { upperStages: shared.data.upperStages, lowerStages: shared.data.lowerStages },
                  }}
                  meshUrl={meshUrl}
                  onUnavailable={() => undefined}
                  forPatient
                />
              </Suspense>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
