import { describe, it, expect } from 'vitest';
import { MemoryReadStore, SqliteEventStore } from '@evo/infra';
import { allProjectors } from './registry';
import { ProjectionService, type RebuildState } from './runtime/projection-service';
import { rebuildReadModels } from './runtime/rebuild';
import { dumpReadModels } from './testing/read-model-dump';
import { writeScriptedHistory } from './testing/scripted-history';

describe('ProjectionService', () => {
  it('rebuilds beside the live read models during traffic, then serves the rebuilt ones', async () => {
    const events = new SqliteEventStore(':memory:');
    const stores: MemoryReadStore[] = [];
    const service = new ProjectionService({
      events,
      projectors: allProjectors,
      makeStore: () => {
        const s = new MemoryReadStore();
        stores.push(s);
        return s;
      },
    });
    await service.start();
    await writeScriptedHistory(events, 4, 'avant');
    const progress: RebuildState[] = [];
    // traffic while rebuilding
    await Promise.all([service.rebuild((p) => progress.push(p)), writeScriptedHistory(events, 4, 'pendant')]);
    await writeScriptedHistory(events, 2, 'apres');
    const last = (await events.lastPosition())!;
    expect(await service.waitFor(last, 5000)).toBe(true);

    expect(stores).toHaveLength(2);
    expect(service.read.current).toBe(stores[1]);
    expect(progress[0]).toMatchObject({ status: 'running' });
    expect(progress.at(-1)).toMatchObject({ status: 'done' });
    expect(service.rebuildState().status).toBe('done');

    const fresh = new MemoryReadStore();
    await rebuildReadModels({ events, read: fresh, projectors: allProjectors });
    const served = await dumpReadModels(service.read);
    expect(served).toEqual(await dumpReadModels(fresh));
    expect((served.users ?? []).length).toBe(10);
    await service.stop();
    await events.close();
  });
});
