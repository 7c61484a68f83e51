import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseDuration } from '../src/config.ts';

const secret = 'x'.repeat(40);
const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('loadConfig', () => {
  it('keeps data in the repository root by default, wherever npm runs the server', () => {
    const config = loadConfig({ JWT_SECRET: secret });
    expect(config.dataDir).toBe(path.join(repoRoot, 'data'));
    expect(config.webDist).toBe(path.join(repoRoot, 'apps/web/dist'));
  });

  it('reads a relative DATA_DIR from where the command was typed (INIT_CWD)', () => {
    expect(loadConfig({ JWT_SECRET: secret, DATA_DIR: 'store', INIT_CWD: '/srv/portal' }).dataDir).toBe(
      '/srv/portal/store',
    );
    expect(loadConfig({ JWT_SECRET: secret, DATA_DIR: '/var/portal' }).dataDir).toBe('/var/portal');
  });

  it('reads the documented variables', () => {
    const config = loadConfig({
      JWT_SECRET: secret,
      PORT: '8080',
      TOKEN_TTL: '30m',
      PUBLIC_URL: 'https://portal.example/',
      S3_BUCKET: 'scans',
      MAX_UPLOAD_BYTES: '1000',
    });
    expect(config).toMatchObject({
      port: 8080,
      tokenTtl: 1800,
      publicUrl: 'https://portal.example',
      maxUploadBytes: 1000,
    });
    expect(config.s3).toMatchObject({ bucket: 'scans', region: 'us-east-1' });
  });

  it('refuses a short JWT_SECRET and a TOKEN_TTL it cannot read', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => parseDuration('soon')).toThrow(/TOKEN_TTL/);
    expect(parseDuration('8h')).toBe(28_800);
    expect(parseDuration('3600')).toBe(3600);
  });

  it('sweeps orphaned case files older than a day unless ORPHAN_FILE_GRACE says otherwise', () => {
    expect(loadConfig({ JWT_SECRET: secret }).orphanFileGraceSeconds).toBe(86_400);
    expect(loadConfig({ JWT_SECRET: secret, ORPHAN_FILE_GRACE: '0' }).orphanFileGraceSeconds).toBe(0);
    expect(() => loadConfig({ JWT_SECRET: secret, ORPHAN_FILE_GRACE: 'later' })).toThrow(/ORPHAN_FILE_GRACE/);
  });
});
