import type { Readable } from 'node:stream';

/**
 * The folders of stored files; a file's URL is /uploads/<folder>/<name>, except `exports` (members'
 * data archives: served only by their owner's download route, never under /uploads).
 */
export const FILE_FOLDERS = ['videos', 'posters', 'profile_pics', 'gifts', 'exports'] as const;
export type FileFolder = (typeof FILE_FOLDERS)[number];

/** a stored name (we generate them all): one path segment, no dot files */
export const STORED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*\.[A-Za-z0-9]{1,8}$/;

export interface StoredFile {
  size: number;
  modifiedAt: Date;
  /** changes whenever the content does (an HTTP validator, quoted) */
  etag: string;
}

export interface ListedFile {
  name: string;
  size: number;
  modifiedAt: Date;
}

/** The bytes of a file, first to last inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file given to `put` went past its cap while it was streamed: nothing was kept. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export interface PutOptions {
  contentType?: string;
  /** refuse (FileTooLargeError) as soon as more bytes than this have come; nothing is kept */
  maxBytes?: number;
}

/**
 * Where uploaded files live: a local folder (DATA_DIR/uploads) or S3-compatible object storage.
 * A file is written whole or not at all: a reader never finds part of one under its name, and a
 * failed `put` leaves nothing. The storage being away fails calls with ServiceUnavailableError.
 */
export interface FileStore {
  /** 'local' or 's3', for logs and /health */
  readonly kind: 'local' | 's3';
  /** reachable and ready (the folders or the bucket made); called once at start */
  ready(): Promise<void>;
  /** stores the stream's bytes under folder/name (replacing a file of that name); answers the size */
  put(folder: FileFolder, name: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;
  /** undefined when there is no such file */
  stat(folder: FileFolder, name: string): Promise<StoredFile | undefined>;
  /** the file's bytes (all, or the range); undefined when there is no such file */
  read(folder: FileFolder, name: string, range?: ByteRange): Promise<Readable | undefined>;
  /** copies the file to a local path (false when there is no such file) */
  download(folder: FileFolder, name: string, toPath: string): Promise<boolean>;
  /** removes the file; a missing one is no error */
  remove(folder: FileFolder, name: string): Promise<void>;
  /** every file of a folder */
  list(folder: FileFolder): AsyncIterable<ListedFile>;
  close(): Promise<void>;
}
