import { z } from 'zod';
import { idParam } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { meshViewMesh } from '../mesh-views.ts';
import { planArches } from '../plans.ts';
import {
  progressScan,
  progressScanCreated,
  progressScanForm,
  progressScanListItem,
  maxProgressScansPerCase,
} from '../progress-scans.ts';

const tag = 'plans';
/** Dashboard staff (on the doctor's behalf), the case's doctor and their assistants (scoped by the case record). */
const access = { pages: ['/dashboard'], doctors: true, assistants: true } as const;
const caseIdParams = z.object({ caseId: idParam });

export const progressScanEndpoints = {
  progressScanCreate: defineEndpoint({
    method: 'POST',
    path: '/api/case/:caseId/progress-scans',
    record: 'case',
    operationId: 'progressScanCreate',
    summary: `Send a progress scan: the aligner worn (stage) and the upper and/or lower STL; compared with the approved plan's stage by a background job (at most ${maxProgressScansPerCase} per case)`,
    tag,
    access,
    params: caseIdParams,
    bodyKind: 'multipart',
    body: progressScanForm,
    files: [
      { name: 'upper', description: 'The upper intraoral scan, STL (at least one of upper and lower)' },
      { name: 'lower', description: 'The lower intraoral scan, STL (at least one of upper and lower)' },
    ],
    answer: progressScanCreated,
    otherAnswers: {
      202: {
        description: 'Accepted: the scan is stored and queued for its fit (every send answers 202)',
        schema: progressScanCreated,
      },
    },
    errors: [404, 409, 413, 415],
  }),
  progressScanList: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/progress-scans',
    record: 'case',
    operationId: 'progressScanList',
    summary: "A case's progress scans, newest first, with their states and summaries",
    tag,
    access,
    params: caseIdParams,
    answer: progressScanListItem.array(),
    errors: [404],
  }),
  progressScanGet: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/progress-scans/:progressScanId',
    record: 'progressScan',
    operationId: 'progressScanGet',
    summary: 'One progress scan: per arch the fit (anchor teeth, residual) and each tooth against the planned stage',
    tag,
    access,
    params: z.object({ caseId: idParam, progressScanId: idParam }),
    answer: progressScan,
    errors: [404],
  }),
  progressScanView: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/progress-scans/:progressScanId/view/:arch',
    record: 'progressScan',
    operationId: 'progressScanView',
    summary:
      "One arch's scan for the viewer, moved into the plan's frame by the fit, as meshopt-compressed glTF with each vertex's distance to the planned stage (`_DISTANCE`, over 2 mm); 404 for an arch not sent, 409 until the fit is done or when it made none",
    tag,
    access,
    params: z.object({ caseId: idParam, progressScanId: idParam, arch: z.enum(planArches) }),
    answer: meshViewMesh,
    errors: [404, 409],
  }),
};
