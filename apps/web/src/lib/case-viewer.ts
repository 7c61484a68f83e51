import { isAssistant, isDoctor, type Session } from './session.ts';

/**
 * Who looks at a case: its doctor pins comments and decides on plans; their assistant reads
 * and writes but does not decide (the server answers 403: docs/decisions/assistants.md § Assistants);
 * the lab resolves comments and uploads versions.
 */
export type CaseViewer = 'doctor' | 'assistant' | 'lab';

export const caseViewerOf = (session: Session): CaseViewer =>
  isDoctor(session) ? 'doctor' : isAssistant(session) ? 'assistant' : 'lab';

