/**
 * Deletions put off while a backup copies the stored files: a file whose row the backup's
 * database still holds must still be there when its turn comes
 * (docs/decisions/backups.md § Backups while the portal serves). Released by the last holder, the deletions put off run then.
 */
export class DeletionHold {
  private holders = 0;
  private readonly deferred = new Map<string, () => Promise<void>>();

  /** Deletes at once, or once the last hold is released. */
  async delete(key: string, remove: () => Promise<void>): Promise<void> {
    if (this.holders > 0) {
      this.deferred.set(key, remove);
      return;
    }
    await remove();
  }

  /** Holds deletions until the returned function is called (once). */
  hold(): () => Promise<void> {
    this.holders++;
    let isReleased = false;
    return async () => {
      if (isReleased) return;
      isReleased = true;
      this.holders--;
      if (this.holders > 0) return;
      const removals = [...this.deferred.values()];
      this.deferred.clear();
      // Best effort, as the deletions were: a key already gone is not an error.
      await Promise.all(removals.map((remove) => remove().catch(() => {})));
    };
  }
}
