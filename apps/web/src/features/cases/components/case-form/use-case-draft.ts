import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CaseDraftRequest } from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { useBeforeUnload, useBlocker } from 'react-router';
import { createCaseDraft, saveCaseDraft } from '../../api/case-drafts.ts';
import { createDraftSaver, type DraftSaveState } from '../../lib/draft-saver.ts';
import { draftOf, type UploadIdOf } from './case-draft-values.ts';
import type { CaseFormValues } from './case-form-values.ts';

/** What the form's indicator says; nothing while there is nothing to save. */
export const saveStateLabels: Record<DraftSaveState, MessageDescriptor | null> = {
  idle: null,
  saving: msg`Saving...`,
  saved: msg`Saved`,
  failed: msg`Not saved`,
};

/** The same fields, files and doctor, whatever the step. */
const hasSameContent = (draft: CaseDraftRequest, other: CaseDraftRequest) =>
  JSON.stringify({ ...draft, step: 0 }) === JSON.stringify({ ...other, step: 0 });

/**
 * Saves the form as a draft while it is filled in: after a second's pause in typing and at
 * once on every step change (docs/decisions/case-form.md § Drafts). Leaving with something not saved
 * yet asks first: another page of the portal through `blocker`, a reload or closing the tab
 * through the browser's own prompt.
 */
export function useCaseDraftAutosave({
  values,
  step,
  draftId,
  onCreated,
  uploadIdOf,
  uploadsVersion,
  enabled = true,
}: {
  values: CaseFormValues;
  step: number;
  draftId: number | null;
  onCreated: (draftId: number) => void;
  /** The upload id of a file in the form, and a number that changes whenever one may have appeared. */
  uploadIdOf: UploadIdOf;
  uploadsVersion: number | undefined;
  /** False for an order from a case: its form is not kept as a draft (docs/decisions/case-form.md § Drafts). */
  enabled?: boolean;
}) {
  const [state, setState] = useState<DraftSaveState>(draftId === null ? 'idle' : 'saved');
  const [opening] = useState(() => draftOf(values, step, uploadIdOf));
  const [saver] = useState(() =>
    createDraftSaver<CaseDraftRequest>(
      {
        create: createCaseDraft,
        update: saveCaseDraft,
        onState: setState,
        onCreated: (id) => onCreatedRef.current(id),
      },
      { draftId, draft: opening },
    ),
  );
  const onCreatedRef = useRef(onCreated);
  onCreatedRef.current = onCreated;

  const lastStep = useRef(step);
  useEffect(() => {
    if (!enabled) return;
    // A file's upload id arrives after the file was chosen: `uploadsVersion` saves it then.
    const draft = draftOf(values, step, uploadIdOf);
    // Only looking through the steps of a form left as it opened changes nothing worth a draft.
    const isUntouched = saver.draftId() === null && hasSameContent(draft, opening);
    saver.change(isUntouched ? opening : draft);
    if (lastStep.current !== step) {
      lastStep.current = step;
      void saver.flush();
    }
  }, [saver, opening, values, step, enabled, uploadIdOf, uploadsVersion]);
  // Leaving the form (after confirming): what is still waiting is sent rather than dropped.
  useEffect(() => () => void saver.flush(), [saver]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      saver.hasUnsavedChanges() &&
      (currentLocation.pathname !== nextLocation.pathname || !nextLocation.search.includes(`draft=${saver.draftId()}`)),
  );
  useBeforeUnload((event) => {
    if (saver.hasUnsavedChanges()) event.preventDefault();
  });

  return { state, saver, blocker };
}
