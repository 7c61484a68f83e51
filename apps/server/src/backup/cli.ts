// First: the archive, pg_dump's output and a restore's files are the owner's alone (lib/owner-only.ts).
import '../lib/owner-only-umask.ts';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError } from './backup-error.ts';
import { createBackup } from './create-backup.ts';
import { restoreBackup } from './restore-backup.ts';

/**
 * `npm run backup -- <file>` and `npm run restore -- <file> [--force]` (docs/operations.md § Backup and
 * restore): the portal's own configuration (DATA_DIR, DATABASE_URL, S3_*, BACKUP_KEY) says
 * what to back up or restore into. A refusal is one line on stderr and exit code 1.
 */
const usage = 'usage: npm run backup -- <file>   |   npm run restore -- <file> [--force]';

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false } },
  });
  const [command, target] = positionals;
  if ((command !== 'backup' && command !== 'restore') || !target || positionals.length > 2)
    throw new BackupError(usage);
  if (command === 'backup' && values.force) throw new BackupError('--force is for restore only');
  const config = loadConfig();
  // npm runs scripts from the repository root; INIT_CWD is where the operator typed the command.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
  const started = performance.now();
  if (command === 'backup') {
    const summary = await createBackup(config, file);
    process.stdout.write(
      `Backup written to ${summary.file}: ${megabytes(summary.bytes)} in ${seconds(started)} ` +
        `(database ${megabytes(summary.databaseBytes)}, ` +
        `${config.s3 ? `${summary.objects} objects listed` : `${summary.files} files`}, ` +
        `${summary.isEncrypted ? 'encrypted with BACKUP_KEY' : 'not encrypted: set BACKUP_KEY to encrypt it'})\n`,
    );
    return;
  }
  const summary = await restoreBackup(config, file, { force: values.force });
  process.stdout.write(
    `Restored ${file} (made ${summary.manifest.createdAt}) in ${seconds(started)}: ` +
      `${config.s3 ? `${summary.objects} objects checked in the bucket` : `${summary.files} files`}` +
      `${summary.migrated > 0 ? `, ${summary.migrated} migrations applied` : ''}\n`,
  );
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (!(
    error instanceof BackupError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  )) {
    throw error;
  }
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
