import { z } from 'zod';
import { idParam, messageResponse } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { meshViewAnswer, meshViewMesh } from '../mesh-views.ts';
import {
  planApproval,
  planArches,
  planChangeRequest,
  planMovementsAnswer,
  planStagesField,
  planUploadForm,
  planUploadResponse,
  planVersion,
  planViewAnswer,
} from '../plans.ts';

const tag = 'plans';
/** Dashboard staff, and doctors (scoped to their own cases by the services). */
const dashboard = { pages: ['/dashboard'], doctors: true } as const;
const caseIdParams = z.object({ caseId: idParam });
const decisionParams = z.object({ caseId: idParam, planId: idParam });

export const planEndpoints = {
  planUpload: defineEndpoint({
    method: 'POST',
    path: '/api/case/:caseId/plans',
    record: 'case',
    operationId: 'planUpload',
    summary: 'Upload a treatment plan version: its summary and one STL per arch and stage (or one ZIP of them)',
    tag,
    access: { pages: ['/dashboard'] },
    params: caseIdParams,
    bodyKind: 'multipart',
    body: planUploadForm,
    files: [
      {
        name: planStagesField,
        multiple: true,
        required: true,
        description: 'STL files named by arch and stage (upper_03.stl, Mandibular Stage 05.stl), or one ZIP of them',
      },
    ],
    answer: planUploadResponse,
    errors: [404, 413, 415],
  }),
  planList: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/plans',
    record: 'case',
    operationId: 'planList',
    summary: "A case's treatment plan versions, newest first, with their states and stage files",
    tag,
    access: { pages: ['/dashboard'], doctors: true },
    params: caseIdParams,
    answer: planVersion.array(),
    errors: [404],
  }),
  planApprove: defineEndpoint({
    method: 'POST',
    path: '/api/case/:caseId/plans/:planId/approve',
    record: 'casePlan',
    operationId: 'planApprove',
    summary:
      "The case's doctor approves the plan version awaiting approval, confirming they reviewed it in 3D (recorded with the approval)",
    tag,
    access: dashboard,
    params: decisionParams,
    body: planApproval,
    answer: messageResponse,
    errors: [404, 409],
  }),
  planRequestChanges: defineEndpoint({
    method: 'POST',
    path: '/api/case/:caseId/plans/:planId/request_changes',
    record: 'casePlan',
    operationId: 'planRequestChanges',
    summary: "The case's doctor sends the plan version awaiting approval back, with a comment",
    tag,
    access: dashboard,
    params: decisionParams,
    body: planChangeRequest,
    answer: messageResponse,
    errors: [404, 409],
  }),
  // The name in the path is for the browser's "save as"; the id alone picks the file.
  planFileGet: defineEndpoint({
    method: 'GET',
    path: '/api/case/plan_files/:stageFileId/:fileName',
    record: 'planFile',
    operationId: 'planFileGet',
    summary: 'Download one stage model of a treatment plan (HEAD too; one byte range gives 206); never changes',
    tag,
    access: dashboard,
    params: z.object({ stageFileId: idParam, fileName: z.string().max(1000) }),
    answer: {
      file: {
        contentTypes: ['application/octet-stream'],
        ranges: true,
        description: 'The STL, as an application/octet-stream attachment, cacheable for a year (immutable)',
      },
    },
    errors: [404],
  }),
  planView: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/plans/:planId/views',
    record: 'planVersion',
    operationId: 'planView',
    summary: "Whether a plan version's arches have the viewer's copy: made after upload by a background job",
    tag,
    access: dashboard,
    params: decisionParams,
    answer: planViewAnswer,
    errors: [404],
  }),
  planViewMesh: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/plans/:planId/views/:arch/mesh.glb',
    record: 'planVersion',
    operationId: 'planViewMesh',
    summary:
      "One arch of a plan version for the viewer: stage 0's teeth as meshopt-compressed glTF and their motion per stage as an animation",
    tag,
    access: dashboard,
    params: decisionParams.extend({ arch: z.enum(planArches) }),
    answer: {
      file: {
        contentTypes: ['model/gltf-binary'],
        ranges: false,
        description: 'The copy, once ready (409 while it is being made, or when none could be)',
      },
    },
    errors: [404, 409],
  }),
  planMovements: defineEndpoint({
    method: 'GET',
    path: '/api/case/:caseId/plans/:planId/movements',
    record: 'planVersion',
    operationId: 'planMovements',
    summary:
      "How far each tooth moves from stage 0 to the version's last stage, in its own axes, with its largest step against the lab's per-stage limit; measured after upload with the viewer's copy",
    tag,
    access: dashboard,
    params: decisionParams,
    answer: planMovementsAnswer,
    errors: [404],
  }),
  planFileView: defineEndpoint({
    method: 'GET',
    path: '/api/case/plan-file-views/:stageFileId',
    record: 'planFile',
    operationId: 'planFileView',
    summary:
      "Whether a plan stage's STL has its own viewing copy: made when the plan's stages are not the same teeth moved",
    tag,
    access: dashboard,
    params: z.object({ stageFileId: idParam }),
    answer: meshViewAnswer,
    errors: [404],
  }),
  planFileViewMesh: defineEndpoint({
    method: 'GET',
    path: '/api/case/plan-file-views/:stageFileId/mesh.glb',
    record: 'planFile',
    operationId: 'planFileViewMesh',
    summary: "A plan stage's STL as its own viewing copy (the original stays the download)",
    tag,
    access: dashboard,
    params: z.object({ stageFileId: idParam }),
    answer: meshViewMesh,
    errors: [404, 409],
  }),
};
