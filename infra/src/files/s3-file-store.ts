import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Client, s3Upload } from '../distributed-clients';
import { SERVER_AWAY_ERRNOS, ServiceUnavailableError } from '../services';
import type { S3Settings } from '../config/config';
import { capped } from './capped-stream';
import { streamToFile } from './stream-to-file';
import {
  FileTooLargeError,
  STORED_NAME,
  type ByteRange,
  type FileFolder,
  type FileStore,
  type ListedFile,
  type PutOptions,
  type StoredFile,
} from './port';

export interface S3FileStoreOptions {
  /** how long opening a connection may take (ms); default 3000 */
  connectTimeoutMs?: number;
  /** how long a request may go without an answer (ms); default 30000 */
  requestTimeoutMs?: number;
  /** tries of each request (the SDK's own retries, with backoff); default 2 */
  maxAttempts?: number;
}

/** parts of a multipart upload: the most an upload holds in memory is PART_SIZE × QUEUE_SIZE */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
  'XMinioServerNotInitialized',
]);

/** Did this error come from the storage being away or failing (rather than from the request)? */
export function isS3Unavailable(err: unknown): boolean {
  const e = err as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: number };
    cause?: unknown;
  };
  if (!e) return false;
  if (typeof e.code === 'string' && SERVER_AWAY_ERRNOS.has(e.code)) return true;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  if (
    typeof e.message === 'string' &&
    /socket hang up|ECONNREFUSED|ECONNRESET|EPIPE|connect ETIMEDOUT/.test(e.message)
  ) {
    return true;
  }
  return e.cause !== undefined && e.cause !== err && isS3Unavailable(e.cause);
}

const isNotFound = (err: unknown): boolean => {
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

function unavailable(err: unknown): unknown {
  if (err instanceof FileTooLargeError || err instanceof ServiceUnavailableError) return err;
  return isS3Unavailable(err) ? new ServiceUnavailableError('S3', err) : err;
}

/**
 * Files in S3-compatible object storage (S3_ENDPOINT, S3_BUCKET, …), through @aws-sdk/client-s3:
 * object key <folder>/<name> in the bucket. Uploads stream in parts (@aws-sdk/lib-storage: at
 * most two 8 MiB parts in memory), and an object appears only once complete: a failed or refused
 * upload is aborted and leaves nothing. Reads stream from the storage, ranges included.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(
    readonly settings: S3Settings,
    options: S3FileStoreOptions = {},
  ) {
    // The SDK warns on Node 20 at its first client (in English, on every start) that its releases
    // after early January 2027 will need Node 22. The version package-lock.json pins supports Node 20
    // (its engines say >=20): the notice is for whoever upgrades it (README says so), not for operators.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const { S3Client } = s3Client();
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      maxAttempts: options.maxAttempts ?? 2,
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 3000,
        requestTimeout: options.requestTimeoutMs ?? 30_000,
      },
      // checksums only where the API requires them: S3-compatible servers differ on the newer ones
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(folder: FileFolder, name: string): string {
    if (!STORED_NAME.test(name)) throw new RangeError(`Not a stored file name: ${name}`);
    return `${folder}/${name}`;
  }

  /** The bucket answers (it is made when missing). Throws the SDK's error otherwise. */
  async ready(): Promise<void> {
    const { HeadBucketCommand, CreateBucketCommand } = s3Client();
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await this.client.send(new CreateBucketCommand({ Bucket: this.settings.bucket }));
      } catch (createErr) {
        // another process sharing the storage (a replica starting at the same time) made it meanwhile
        if ((createErr as { name?: unknown })?.name !== 'BucketAlreadyOwnedByYou') throw createErr;
      }
    }
  }

  async put(folder: FileFolder, name: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    const key = this.key(folder, name);
    const counter = capped(options.maxBytes);
    // the body's error (too large, the client gone) reaches the counter, and so the upload
    let bodyError: unknown;
    body.once('error', (err) => {
      bodyError = err;
      counter.destroy(err);
    });
    body.pipe(counter);
    const upload = new (s3Upload().Upload)({
      client: this.client,
      params: {
        Bucket: this.settings.bucket,
        Key: key,
        Body: counter,
        ContentType: options.contentType,
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      body.unpipe(counter);
      counter.destroy();
      // the counter's own refusal wins over how the SDK reports the broken body
      if (counter.errored instanceof FileTooLargeError) throw counter.errored;
      if (bodyError !== undefined) throw bodyError;
      // a part that failed makes the SDK abort the others: the failure was the storage's
      if ((err as Error)?.name === 'AbortError') throw new ServiceUnavailableError('S3', err);
      throw unavailable(err);
    }
    return { size: counter.bytes };
  }

  async stat(folder: FileFolder, name: string): Promise<StoredFile | undefined> {
    const { HeadObjectCommand } = s3Client();
    try {
      const h = await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(folder, name) }),
      );
      return { size: h.ContentLength ?? 0, modifiedAt: h.LastModified ?? new Date(0), etag: h.ETag ?? '""' };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailable(err);
    }
  }

  async read(folder: FileFolder, name: string, range?: ByteRange): Promise<Readable | undefined> {
    const { GetObjectCommand } = s3Client();
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.key(folder, name),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return r.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailable(err);
    }
  }

  async download(folder: FileFolder, name: string, toPath: string): Promise<boolean> {
    const body = await this.read(folder, name);
    if (!body) return false;
    try {
      await streamToFile(body, toPath);
    } catch (err) {
      throw unavailable(err);
    }
    return true;
  }

  async remove(folder: FileFolder, name: string): Promise<void> {
    const { DeleteObjectCommand } = s3Client();
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(folder, name) }));
    } catch (err) {
      if (isNotFound(err)) return;
      throw unavailable(err);
    }
  }

  async *list(folder: FileFolder): AsyncIterable<ListedFile> {
    const { ListObjectsV2Command } = s3Client();
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: `${folder}/`, ContinuationToken: token }),
        );
      } catch (err) {
        throw unavailable(err);
      }
      for (const o of page.Contents ?? []) {
        const name = (o.Key ?? '').slice(folder.length + 1);
        if (STORED_NAME.test(name)) yield { name, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** A Readable of `bytes`, for callers that have a buffer (demo data, tests). */
export const readableOf = (bytes: Buffer): Readable => Readable.from([bytes]);
