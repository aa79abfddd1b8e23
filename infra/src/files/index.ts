export * from './atomic-file';
export * from './port';
export { LocalFolderStore } from './local-folder-store';
export { S3FileStore, isS3Unavailable, type S3FileStoreOptions } from './s3-file-store';
export { CappedStream } from './capped-stream';
export * from './private-files';
