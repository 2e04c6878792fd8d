import { describe, expect, it } from 'vitest';
import { s3FilesFromEnv } from '../../src/server/files/s3-config.ts';

describe('FILES_S3_* (s3FilesFromEnv)', () => {
  const all = {
    FILES_S3_ENDPOINT: 'http://minio:9000',
    FILES_S3_BUCKET: 'portal-files',
    FILES_S3_ACCESS_KEY: 'access',
    FILES_S3_SECRET_KEY: 'secret',
  };

  it('keeps files on the local disk when none is set', () => {
    expect(s3FilesFromEnv({})).toBeUndefined();
  });

  it('reads all four, with us-east-1 unless FILES_S3_REGION says otherwise', () => {
    expect(s3FilesFromEnv(all)).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'portal-files',
      accessKey: 'access',
      secretKey: 'secret',
      region: 'us-east-1',
    });
    expect(s3FilesFromEnv({ ...all, FILES_S3_REGION: 'eu-central-1' })?.region).toBe('eu-central-1');
  });

  it('refuses a partial set, naming what is missing, instead of silently keeping files on one disk', () => {
    expect(() => s3FilesFromEnv({ ...all, FILES_S3_SECRET_KEY: '' })).toThrow(/FILES_S3_SECRET_KEY missing/);
    expect(() => s3FilesFromEnv({ FILES_S3_BUCKET: 'b' })).toThrow(
      /FILES_S3_ENDPOINT, FILES_S3_ACCESS_KEY, FILES_S3_SECRET_KEY missing/,
    );
  });
});
