import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { endpoints, type SharedPlan } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { api, ApiError } from '../../../lib/api-client.ts';

// three.js loads only with the viewer.
const PlanViewScene = lazy(async () => ({
  default: (await import('./stage-viewer/plan-view-scene.tsx')).PlanViewScene,
}));

function stagesLine(plan: SharedPlan) {
  const arches = [
    plan.upperStages > 0 ? `${plan.upperStages} upper` : undefined,
    plan.lowerStages > 0 ? `${plan.lowerStages} lower` : undefined,
  ].filter(Boolean);
  return `${arches.join(' and ')} aligner stages`;
}

/**
 * /p/{token}: the patient's read-only view of one plan version
 * (docs/decisions/plans.md § Patient links): the 3D stages and their count under the first name's initial, nothing else of the
 * case. No sign-in; kept out of search engines, and no address of it goes out as a referrer.
 */
export function SharedPlanPage({ token }: { token: string }) {
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
      <title>Your treatment plan</title>
      <Stack gap="md">
        <Title order={1} size="h2">
          Your treatment plan
        </Title>
        {shared.isError ? (
          <Alert color="red" role="alert" title="This link cannot be opened">
            {shared.error instanceof ApiError && shared.error.status === 429
              ? 'Too many links were tried from this connection. Try again later.'
              : 'It may have expired or been revoked. Ask your doctor for a new link.'}
          </Alert>
        ) : !shared.data ? (
          <Text role="status">Loading your plan…</Text>
        ) : (
          <>
            <Text>
              Plan for {shared.data.initial} · version {shared.data.version} · {stagesLine(shared.data)}. Play the
              stages to see how your teeth move, one aligner after another.
            </Text>
            {shared.data.views.upper?.state !== 'ready' && shared.data.views.lower?.state !== 'ready' ? (
              <Alert color="blue" role="status">
                The 3D view of this plan is still being prepared. Open the link again in a few minutes.
              </Alert>
            ) : (
              <Suspense fallback={<Text role="status">Loading the 3D viewer…</Text>}>
                <PlanViewScene
                  plan={{
                    caseId: 0,
                    planId: 0,
                    version: shared.data.version,
                    summary: { upperStages: shared.data.upperStages, lowerStages: shared.data.lowerStages },
                  }}
                  meshUrl={meshUrl}
                  onUnavailable={() => undefined}
                />
              </Suspense>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
