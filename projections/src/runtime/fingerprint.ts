import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Projector } from './projector';

// found through the package, not this file's location: the same from the sources and from the server bundle
const projectionsSrc = path.dirname(createRequire(import.meta.url).resolve('@evo/projections'));

/** The product code of the projections package (tests, test helpers and CLIs left out), file by file. */
function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'testing' && e.name !== 'cli') out = out.concat(sourceFiles(full));
    } else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !/\.contract\.ts$/.test(e.name)) {
      out.push(full);
    }
  }
  return out.sort();
}

let sourceHash: string | undefined;

/**
 * What read models depend on, as one hash: every projector in order (name, `version`,
 * collections, indexes) and the source text of the projections package. Read models built by
 * other code (their checkpoint records the fingerprint) are rebuilt: one full replay after an
 * upgrade that touched the projections, none otherwise. A projector's `version` covers what the
 * source hash cannot see (a change of meaning made elsewhere, e.g. in domain events).
 */
export function projectorFingerprint(projectors: readonly Projector[]): string {
  sourceHash ??= (() => {
    const h = createHash('sha256');
    for (const file of sourceFiles(projectionsSrc)) {
      h.update(path.relative(projectionsSrc, file)).update('\0').update(readFileSync(file)).update('\0');
    }
    return h.digest('hex');
  })();
  const h = createHash('sha256');
  for (const p of projectors) {
    h.update(JSON.stringify([p.name, p.version ?? 1, p.collections, p.indexes ?? {}])).update('\n');
  }
  h.update(sourceHash);
  return h.digest('hex').slice(0, 32);
}
