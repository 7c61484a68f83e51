/** What the form's indicator shows: nothing to save, a save waiting or running, all saved, or the last save failed. */
export type DraftSaveState = 'idle' | 'saving' | 'saved' | 'failed';

export interface DraftSaverOptions<Draft> {
  /** Starts a draft on the server and answers its id. */
  create: (draft: Draft) => Promise<number>;
  /** Replaces the draft's content on the server. */
  update: (draftId: number, draft: Draft) => Promise<void>;
  onState: (state: DraftSaveState) => void;
  onCreated?: (draftId: number) => void;
  /** The pause after the last change before it is saved. */
  delayMs?: number;
}

/**
 * Saves a form's draft as it changes (docs/decisions/case-form.md § Drafts): `change` waits for a pause
 * in typing, `flush` saves at once (a step change). One request at a time; what changes while
 * one runs is saved after it. A form left as it started is never saved, so opening the form
 * makes no draft. A failed save is retried on the next change or flush.
 */
export function createDraftSaver<Draft>(
  options: DraftSaverOptions<Draft>,
  start: { draftId: number | null; draft: Draft },
) {
  const delayMs = options.delayMs ?? 1000;
  const key = (draft: Draft) => JSON.stringify(draft);
  let draftId = start.draftId;
  let saved = key(start.draft);
  let latest: Draft = start.draft;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let hasFailed = false;
  let isStopped = false;

  const isDirty = () => key(latest) !== saved;
  const report = () => {
    if (running || timer) options.onState('saving');
    else if (hasFailed && isDirty()) options.onState('failed');
    else options.onState(draftId === null ? 'idle' : 'saved');
  };

  async function save(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (isStopped) return;
    if (running) {
      await running;
      return save();
    }
    if (!isDirty()) return report();
    const draft = latest;
    const sending = key(draft);
    running = (async () => {
      try {
        if (draftId === null) {
          draftId = await options.create(draft);
          if (!isStopped) options.onCreated?.(draftId);
        } else await options.update(draftId, draft);
        saved = sending;
        hasFailed = false;
      } catch {
        hasFailed = true;
      }
    })();
    report();
    await running;
    running = null;
    // Changed while it was sent: save that too (after the usual pause).
    if (!isStopped && isDirty() && !hasFailed) schedule();
    else report();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(() => void save(), delayMs);
    report();
  }

  return {
    change(draft: Draft) {
      // The same draft again (an upload's progress re-renders the form) is no pause in typing:
      // it must not put off the save that is waiting.
      const isSame = key(draft) === key(latest);
      latest = draft;
      if (isStopped) return;
      if (isSame && timer) return;
      if (isDirty()) schedule();
      else if (!running) {
        clearTimeout(timer);
        timer = undefined;
        report();
      }
    },
    flush: () => save(),
    /** True while something typed is not on the server yet (and still to be saved). */
    hasUnsavedChanges: () => !isStopped && isDirty(),
    draftId: () => draftId,
    /** No more saves: the form is submitted or gone. */
    stop() {
      isStopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
    resume() {
      isStopped = false;
      if (isDirty()) schedule();
    },
  };
}
