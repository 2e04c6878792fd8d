/**
 * The object store's settings, apart from its client: reading them must not load the AWS SDK,
 * which only an instance that uses the store needs (services/files.ts imports it then).
 */

/** Where an S3-compatible object store is and how to sign in to it (FILES_S3_* variables). */
export interface S3FilesConfig {
  /** The store's URL, e.g. `http://minio:9000` (FILES_S3_ENDPOINT). */
  endpoint: string;
  /** The bucket the files go to; it must exist (FILES_S3_BUCKET). */
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** The signing region (FILES_S3_REGION, default us-east-1). */
  region: string;
}

/**
 * The object store of FILES_S3_*: all of endpoint, bucket and both keys, or none of them (then
 * files stay on the local disk); a partial set is a start-up error rather than a silent fallback.
 * @example s3FilesFromEnv({ FILES_S3_ENDPOINT: 'http://minio:9000', FILES_S3_BUCKET: 'files', FILES_S3_ACCESS_KEY: 'k', FILES_S3_SECRET_KEY: 's' })
 */
export function s3FilesFromEnv(env: NodeJS.ProcessEnv): S3FilesConfig | undefined {
  const names = ['FILES_S3_ENDPOINT', 'FILES_S3_BUCKET', 'FILES_S3_ACCESS_KEY', 'FILES_S3_SECRET_KEY'] as const;
  const given = names.filter((n) => env[n]);
  if (!given.length) return undefined;
  if (given.length < names.length)
    throw new Error(`FILES_S3_* is incomplete: ${names.filter((n) => !env[n]).join(', ')} missing`);
  return {
    endpoint: env.FILES_S3_ENDPOINT!,
    bucket: env.FILES_S3_BUCKET!,
    accessKey: env.FILES_S3_ACCESS_KEY!,
    secretKey: env.FILES_S3_SECRET_KEY!,
    region: env.FILES_S3_REGION || 'us-east-1',
  };
}
