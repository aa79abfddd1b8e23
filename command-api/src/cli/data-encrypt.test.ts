import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { reservationStream, type DomainEvent } from '@evo/domain';
import { SqliteEventStore, systemContext, toNewEvents } from '@evo/infra';
import { openEmbeddedLog } from '@evo/infra/testing/embedded-log';
import { runScript } from '@evo/infra/testing/run-script';

/** `npm run data:encrypt` as an operator runs it, logging at info. */
const runCli = (env: NodeJS.ProcessEnv, args: string[] = [], started?: Parameters<typeof runScript>[3]) =>
  runScript('command-api/src/cli/data-encrypt.ts', args, { ...process.env, LOG_LEVEL: 'info', ...env }, started);

const embedded = (dataDir: string): NodeJS.ProcessEnv => ({
  DATA_DIR: dataDir,
  EVENTSTORE_URL: '',
  MONGO_URL: '',
  REDIS_URL: '',
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const COMMENTS = 20_000;
const members = Array.from({ length: 5 }, () => randomUUID());

/** DATA_DIR/events.sqlite as EVO wrote it before crypto-shredding: 20,000 comments in clear, claims by clear names */
async function legacyDataDir(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-data-encrypt-'));
  dirs.push(dir);
  const log = new SqliteEventStore(path.join(dir, 'events.sqlite'));
  for (const [i, userId] of members.entries()) {
    const stream = reservationStream('email', `membre${i}@exemple.fr`);
    const claim: DomainEvent = {
      type: 'ValueReserved',
      data: { kind: 'email', value: `membre${i}@exemple.fr`, userId, reservedAt: '2026-01-01T00:00:00.000Z' },
    };
    await log.append(stream, toNewEvents([claim], stream, systemContext()), 'no_stream');
  }
  for (let start = 0; start < COMMENTS; start += 200) {
    const comments: DomainEvent[] = [];
    for (let i = start; i < start + 200; i++)
      comments.push({
        type: 'CommentPosted',
        data: {
          commentId: i + 1,
          videoId: 1,
          videoOwnerId: members[0]!,
          authorId: members[i % members.length]!,
          parentId: null,
          content: `texte-en-clair-${i}`,
        },
      });
    await log.append(
      `comments-block-${start}`,
      toNewEvents(comments, `comments-block-${start}`, systemContext()),
      'any',
    );
  }
  await log.close();
  return dir;
}

/** how many stored comments hold their text in clear */
function clearComments(dir: string): number {
  const db = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
  try {
    return (
      db
        .prepare(`SELECT count(*) AS n FROM events WHERE type = 'CommentPosted' AND data LIKE '%texte-en-clair-%'`)
        .get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

describe('npm run data:encrypt', () => {
  it('killed with -9 in the middle, leaves a log the next run finishes: every comment encrypted once, readable, nothing left in clear in the file', async () => {
    const dir = await legacyDataDir();
    const killed = await runCli(embedded(dir), ['--batch=20'], (child, out) => {
      const timer = setInterval(() => {
        if (/"phase":"chiffrement"/.test(out())) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5);
    });
    expect(killed.code).toBe(-1);
    const left = clearComments(dir);
    // stopped mid-way: some batches committed, not all
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(COMMENTS);

    const done = await runCli(embedded(dir));
    expect(done.code, done.out).toBe(0);
    expect(done.out).toContain('Journal chiffré et vérifié');
    expect(clearComments(dir)).toBe(0);
    const bytes = readFileSync(path.join(dir, 'events.sqlite')).toString('latin1');
    expect(bytes).not.toContain('texte-en-clair-');
    expect(bytes).not.toContain('@exemple.fr');

    // as EVO reads it: each comment once, its text back
    const log = openEmbeddedLog(dir);
    const texts: string[] = [];
    for await (const batch of log.readAll(undefined, 5000))
      for (const e of batch) if (e.type === 'CommentPosted') texts.push((e.data as { content: string }).content);
    expect(texts).toHaveLength(COMMENTS);
    expect(new Set(texts).size).toBe(COMMENTS);
    expect(texts[123]).toBe('texte-en-clair-123');
    const [claim] = await log.readStream(reservationStream('email', 'membre3@exemple.fr'));
    expect(claim).toMatchObject({ data: { userId: members[3] } });
    await log.close();
  }, 120_000);

  it('refuses an EventStoreDB log in French, explaining the procedure, before making any key', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'evo-data-encrypt-'));
    dirs.push(dir);
    const r = await runCli({
      ...embedded(dir),
      EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false',
      MONGO_URL: 'mongodb://127.0.0.1:1/evo',
      REDIS_URL: 'redis://127.0.0.1:1',
      SESSION_SECRET: 'a-session-secret-of-the-test',
    });
    expect(r.code).toBe(2);
    expect(r.out).toContain('Migration impossible sur EventStoreDB');
    expect(r.out).toContain('scavenge');
    expect(existsSync(path.join(dir, 'keys.sqlite'))).toBe(false);
  });
});
