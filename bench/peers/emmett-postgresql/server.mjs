// Bench-only peer: Emmett 0.42.0 on PostgreSQL (PG_URL), listening on PORT.
import express from 'express';
import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { giftApp } from '../gift-app.mjs';

const store = getPostgreSQLEventStore(process.env.PG_URL);
await store.schema.migrate();
const app = giftApp(express, store, { isConflict: isExpectedVersionConflictError });
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => server.close(() => store.close().then(() => process.exit(0))));
