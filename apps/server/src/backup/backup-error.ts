/**
 * Why a backup or a restore was refused or failed, in words for the operator: the command
 * prints the message alone and exits non-zero, having left nothing half-done.
 */
export class BackupError extends Error {
  override name = 'BackupError';
}
