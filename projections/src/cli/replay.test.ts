import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { MongoReadStore, SqliteEventStore, SqliteReadStore } from '@evo/infra';
import { SqliteReadModelFiles } from '../runtime/read-model-files';
import { HistoryWriter } from '../../../scripts/restart-history';
import { ProjectionService } from '../runtime/projection-service';
import { rebuildReadModels } from '../runtime/rebuild';
import { mongoServerAvailability, startMongoServer, type MongoServer } from '@evo/infra/testing/ferretdb';
import { allProjectors } from '../registry';
import { readCheckpoint } from '../runtime/checkpoint';
import { ProjectionRunner } from '../runtime/runner';
import { dumpReadModels } from '../testing/read-model-dump';
import { writeScriptedHistory } from '../testing/scripted-history';
import { runScript } from '@evo/infra/testing/run-script';
import { skippedSuite } from '@evo/infra/testing/skipped-suite';

const availability = mongoServerAvailability();

/** Runs `npm run replay` the way an operator does; resolves with its exit code and output. */
const runReplay = (env: NodeJS.ProcessEnv, args: string[], started?: Parameters<typeof runScript>[3]) =>
  runScript('projections/src/cli/replay.ts', args, env, started);

const embeddedEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dataDir,
  MONGO_URL: '',
  EVENTSTORE_URL: '',
  REDIS_URL: '',
  LOG_LEVEL: 'silent',
});

describe('npm run replay, embedded (SQLite read models)', () => {
  it('rebuilds into a new file while the server serves the old one; the server switches to it; a kill -9 leaves the old one', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'evo-replay-embedded-'));
    const events = new SqliteEventStore(path.join(dataDir, 'events.sqlite'));
    const service = new ProjectionService({
      events,
      projectors: allProjectors,
      generations: new SqliteReadModelFiles(dataDir),
    });
    try {
      const writer = new HistoryWriter(events);
      await writer.writeUntil(3_000);
      await service.start();
      service.followReplays(200);
      const files = () =>
        readdirSync(dataDir)
          // the log and the read models (the replay also opens the members' keys, keys.sqlite)
          .filter((f) => f.endsWith('.sqlite') && f !== 'keys.sqlite')
          .sort();
      expect(files()).toEqual(['events.sqlite', 'read-models.sqlite']);

      // killed in the middle: the server never sees the half-built file, which the next start removes
      const killed = await runReplay(embeddedEnv(dataDir), ['--batch=200'], (child, out) => {
        const timer = setInterval(() => {
          if (/Relecture : [1-9]\d* %/.test(out())) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }, 20);
      });
      expect(killed.code).toBe(-1);
      expect(files()).toEqual(['events.sqlite', 'read-models-2.sqlite', 'read-models.sqlite']);
      await new Promise((r) => setTimeout(r, 600));
      expect((service.read.current as SqliteReadStore).file).toBe(path.join(dataDir, 'read-models.sqlite'));

      // to the end, with writes meanwhile: the server switches to the new file and removes the old one
      const [done] = await Promise.all([runReplay(embeddedEnv(dataDir), ['--batch=500']), writer.writeUntil(3_200)]);
      expect(done.code, done.out).toBe(0);
      expect(done.out).toContain('les actuels restent en service');
      await expect
        .poll(() => (service.read.current as SqliteReadStore).file, { timeout: 30_000 })
        .toBe(path.join(dataDir, 'read-models-2.sqlite'));
      await writer.writeUntil(3_300);
      expect(await service.waitFor((await events.lastPosition())!, 30_000)).toBe(true);
      expect(existsSync(path.join(dataDir, 'read-models.sqlite'))).toBe(false);
      const fresh = SqliteReadStore.temporary();
      await rebuildReadModels({ events, read: fresh, projectors: allProjectors });
      expect(await dumpReadModels(service.read)).toEqual(await dumpReadModels(fresh));
      await fresh.close();
    } finally {
      await service.stop();
      await service.read.close();
      await events.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

if (!availability.ok) {
  skippedSuite(
    `npm run replay against MongoDB skipped: ${availability.reason}`,
    `npm run replay against MongoDB (${availability.reason})`,
    'rebuilds the read models equal to the live ones',
  );
} else {
  describe('npm run replay against MongoDB (FerretDB, or MONGO_URL)', () => {
    let server: MongoServer;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'evo-replay-'));
    const runId = randomUUID().slice(0, 8);

    beforeAll(async () => {
      server = await startMongoServer();
    }, 600_000);

    afterAll(async () => {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('shows its progress and rebuilds, into an empty database, the read models built live, document by document', async () => {
      const events = new SqliteEventStore(path.join(dataDir, 'events.sqlite'));
      const live = new MongoReadStore(server.url, { dbName: `evo_live_${runId}` });
      const replayUrl = new URL(server.url);
      replayUrl.pathname = `/evo_replay_${runId}`;
      // the replay builds beside MONGO_URL's database, into the next generation's
      const replayed = new MongoReadStore(server.url, { dbName: `evo_replay_${runId}_g2` });
      const meta = new MongoReadStore(server.url, { dbName: `evo_replay_${runId}_meta` });
      try {
        // live: the runner follows the log while the history is written
        const runner = new ProjectionRunner({ events, read: live, projectors: allProjectors });
        await runner.start();
        await writeScriptedHistory(events, 2);
        const last = (await events.lastPosition())!;
        const caughtUp = await runner.waitFor(last, 120_000);
        await runner.stop();
        expect(caughtUp).toBe(true);
        let count = 0;
        for await (const batch of events.readAll(undefined, 500)) count += batch.length;

        const { code, out } = await runReplay(
          {
            ...process.env,
            DATA_DIR: dataDir,
            MONGO_URL: replayUrl.toString(),
            EVENTSTORE_URL: '',
            REDIS_URL: '',
            SESSION_SECRET: 'replay-test-secret-0123456789',
          },
          ['--batch=10'],
        );
        expect(code, out).toBe(0);
        expect(out).toMatch(
          new RegExp(
            `Read models : nouvelle base « evo_replay_${runId}_g2 » sur (FerretDB|MongoDB).*« evo_replay_${runId} » reste en service`,
          ),
        );
        const percents = [...out.matchAll(/Relecture : (\d+) % \| (\d+) événements/g)].map((m) => Number(m[1]));
        expect(percents.length).toBeGreaterThan(2);
        expect(percents).toEqual([...percents].sort((a, b) => a - b));
        expect(percents.at(-1)).toBe(100);
        expect(out).toContain(`Terminé : ${count} événements`);

        const a = await dumpReadModels(live);
        const b = await dumpReadModels(replayed);
        expect(Object.keys(a).length).toBeGreaterThan(10);
        expect(b).toEqual(a);
        expect(await readCheckpoint(replayed)).toBe(last);
        // built, for the projections service to catch up and make current (it is not running here)
        expect(await meta.db.collection('generations').findOne({})).toEqual({
          _id: 'read-models',
          current: `evo_replay_${runId}`,
          built: `evo_replay_${runId}_g2`,
        });
      } finally {
        await meta.dropDatabase();
        await meta.close();
        await live.dropAll();
        await live.close();
        await replayed.dropAll();
        await replayed.close();
        await events.close();
      }
    }, 300_000);

    it('names MONGO_URL and exits 1 when it cannot be reached', async () => {
      const { code, out } = await runReplay(
        {
          ...process.env,
          DATA_DIR: dataDir,
          MONGO_URL: 'mongodb://127.0.0.1:9/evo_nowhere?serverSelectionTimeoutMS=300',
          EVENTSTORE_URL: '',
          REDIS_URL: '',
          SESSION_SECRET: 'replay-test-secret-0123456789',
        },
        [],
      );
      expect(code).toBe(1);
      expect(out).toContain('Configuration invalide : MONGO_URL injoignable');
    }, 60_000);
  });
}
