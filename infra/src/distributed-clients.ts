import { createRequire } from 'node:module';
import type * as EsdbClient from '@eventstore/db-client';
import type * as MongoDb from 'mongodb';
import type * as BullMq from 'bullmq';
import type * as IoRedis from 'ioredis';
import type * as Pg from 'pg';
import type * as S3 from '@aws-sdk/client-s3';
import type * as S3Storage from '@aws-sdk/lib-storage';
import type * as RedisAdapter from '@socket.io/redis-adapter';
import type * as RedisEmitter from '@socket.io/redis-emitter';

/*
 * The client libraries of the distributed stack, loaded on first use: the embedded process never
 * uses them, and loading them all costs about 0.3 s of CPU at every start. All are CommonJS, so
 * `require` gives the same module instance an `import` elsewhere gets (instanceof holds).
 */
const load = createRequire(import.meta.url);

function lazy<T>(name: string): () => T {
  let module: T | undefined;
  return () => (module ??= load(name) as T);
}

export const esdbClient = lazy<typeof EsdbClient>('@eventstore/db-client');
export const mongodb = lazy<typeof MongoDb>('mongodb');
export const bullmq = lazy<typeof BullMq>('bullmq');
export const ioredis = lazy<typeof IoRedis>('ioredis');
export const redisAdapter = lazy<typeof RedisAdapter>('@socket.io/redis-adapter');
export const pg = lazy<typeof Pg>('pg');
export const s3Client = lazy<typeof S3>('@aws-sdk/client-s3');
export const s3Upload = lazy<typeof S3Storage>('@aws-sdk/lib-storage');
export const redisEmitter = lazy<typeof RedisEmitter>('@socket.io/redis-emitter');
