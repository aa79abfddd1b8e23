// Bench-only peer: Emmett 0.38.5 on SQLite (SQLITE_FILE), listening on PORT; requests serialised
// (this version shares one connection and closes it after every call).
import express from 'express';
import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import { getSQLiteEventStore } from '@event-driven-io/emmett-sqlite';
import { giftApp } from '../gift-app.mjs';

const store = getSQLiteEventStore({ fileName: process.env.SQLITE_FILE, schema: { autoMigration: 'CreateOrUpdate' } });
const app = giftApp(express, store, { isConflict: isExpectedVersionConflictError, serialise: true });
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
