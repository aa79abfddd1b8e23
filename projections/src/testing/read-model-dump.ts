import type { ReadStore } from '@evo/infra';
import { CHECKPOINTS } from '../runtime/checkpoint';

/** Every read-model document, collection by collection, sorted by _id (checkpoints left out). */
export async function dumpReadModels(read: ReadStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of await read.listCollections()) {
    if (name === CHECKPOINTS) continue;
    const docs = await read.collection(name).find({}, { sort: { _id: 1 } });
    if (docs.length > 0) out[name] = docs;
  }
  return out;
}
