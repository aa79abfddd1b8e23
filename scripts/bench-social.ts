/**
 * Social read-side benchmark (not a test): the embedded MemoryReadStore filled directly with
 * documents shaped like the projectors' output (and their indexes, as the projectors declare
 * them): 10,000 members, 100,000 videos, 1,000,000 follows. Then p50/p99 of the friends feed,
 * profile and suggestions queries (and a few cheaper ones) over random calls. Goal: p99 ≤ 10 ms.
 *
 *   npm run bench -- social   (or: node --max-old-space-size=6144 --max-semi-space-size=64 --expose-gc --import tsx scripts/bench-social.ts)
 *
 * (the read models take about 2 GB of heap; a larger young generation makes the scavenges that
 * every query's garbage triggers rarer; --expose-gc lets each query start from a collected heap)
 */
import { cpus, loadavg } from 'node:os';
import { normalize, positionKey } from '@evo/domain';
import { MemoryReadStore, type Doc } from '@evo/infra';
import { PROCESSING, VIDEOS, USERS, FOLLOWS, FOLLOWING, allProjectors, identityQueries, socialQueries } from '@evo/projections';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const VIDEO_COUNT = Number(process.env.BENCH_VIDEOS ?? 100_000);
const FOLLOW_COUNT = Number(process.env.BENCH_FOLLOWS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 2_000);

/** deterministic PRNG (mulberry32) so runs compare */
let seed = 20260301;
const rand = () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (n: number) => Math.floor(rand() * n);
/** skewed pick in [0, n): low indices are the popular members */
const popular = (n: number) => Math.floor(n * Math.pow(rand(), 2.2));

const userId = (i: number) => `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`;
const T0 = Date.UTC(2025, 2, 1);
const iso = (ms: number) => new Date(ms).toISOString();
let pos = 1n;
const nextPos = () => positionKey(pos++);

function fill(read: MemoryReadStore) {
  const started = performance.now();
  const users = read.collection(USERS);
  const videos = read.collection(VIDEOS);
  const follows = read.collection(FOLLOWS);
  const counters = Array.from({ length: MEMBERS }, () => ({ followers: 0, following: 0, videos: 0, likes: 0 }));

  // videos: one per member (registration uploads one), the rest skewed towards popular creators
  const videoDocs: Doc[] = [];
  for (let id = 1; id <= VIDEO_COUNT; id++) {
    const owner = id <= MEMBERS ? id - 1 : popular(MEMBERS);
    const roll = rand();
    const status = roll < 0.02 ? 'supprimée' : 'publique';
    const processing = roll > 0.99 ? PROCESSING.rejected : roll > 0.97 ? PROCESSING.pending : PROCESSING.ready;
    const likes = status === 'publique' && processing !== PROCESSING.rejected ? int(50) : 0;
    if (status === 'publique' && processing !== PROCESSING.rejected) {
      counters[owner].videos++;
      counters[owner].likes += likes;
    }
    const email = `membre${owner}@evo.test`;
    videoDocs.push({
      _id: id,
      id,
      title: `Vidéo ${id}`,
      description: 'Une vidéo de démonstration',
      file_path: `/uploads/videos/${id}.mp4`,
      user_id: userId(owner),
      user_email: email,
      email,
      owner_email: email,
      user_pseudo: `Membre${owner}`,
      user_profile_picture: 'default.png',
      status,
      created_at: iso(T0 + int(365 * 86_400_000)),
      _pos: nextPos(),
      likes_count: likes,
      comments_count: int(5),
      views_count: likes * 10 + int(100),
      processing,
      reject_reason: processing === PROCESSING.rejected ? 'Illisible' : null,
      poster: `/uploads/posters/${id}.jpg`,
      duration: 5 + int(55),
    });
  }
  for (const d of videoDocs) void videos.insertOne(d);
  videoDocs.length = 0;

  // follows: out-degrees vary (a few members follow thousands), followees skewed to the popular
  const seen = new Set<string>();
  const lists: string[][] = Array.from({ length: MEMBERS }, () => []);
  let made = 0;
  const outDegree = (i: number) => (i % 100 === 7 ? 2_000 : 10 + int(150));
  for (let round = 0; made < FOLLOW_COUNT; round++) {
    for (let i = 0; i < MEMBERS && made < FOLLOW_COUNT; i++) {
      const want = round === 0 ? outDegree(i) : 5;
      for (let k = 0; k < want && made < FOLLOW_COUNT; k++) {
        const j = rand() < 0.7 ? popular(MEMBERS) : int(MEMBERS);
        if (j === i) continue;
        const id = `${userId(i)}:${userId(j)}`;
        if (seen.has(id)) continue;
        seen.add(id);
        made++;
        counters[i].following++;
        counters[j].followers++;
        lists[i].push(userId(j));
        void follows.insertOne({ _id: id, _pos: nextPos(), follower_id: userId(i), followee_id: userId(j), created_at: iso(T0 + int(365 * 86_400_000)) });
      }
    }
  }
  seen.clear();
  const following = read.collection(FOLLOWING);
  lists.forEach((ids, i) => {
    if (ids.length > 0) void following.insertOne({ _id: userId(i), _pos: nextPos(), ids });
  });

  for (let i = 0; i < MEMBERS; i++) {
    const c = counters[i];
    void users.insertOne({
      _id: userId(i),
      _pos: nextPos(),
      id: userId(i),
      email: `membre${i}@evo.test`,
      email_lc: normalize(`membre${i}@evo.test`),
      pseudo: `Membre${i}`,
      pseudo_lc: normalize(`Membre${i}`),
      bio: `Bio ${i}`,
      profile_picture: 'default.png',
      role: 'user',
      is_admin: false,
      created_at: iso(T0 + i * 1000),
      last_login_at: null,
      login_count: 0,
      _pos_videos: nextPos(),
      videos_count: c.videos,
      _pos_follows: nextPos(),
      following_count: c.following,
      followers_count: c.followers,
      _pos_social_counters: nextPos(),
      total_likes: c.likes,
    });
  }
  const inserted = performance.now();
  return { insertMs: inserted - started, counters };
}

async function createIndexes(read: MemoryReadStore) {
  const started = performance.now();
  for (const p of allProjectors) {
    for (const [collection, specs] of Object.entries(p.indexes ?? {})) {
      for (const spec of specs) await read.collection(collection).createIndex(spec);
    }
  }
  return performance.now() - started;
}

interface Row {
  query: string;
  calls: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU time of the process per call (not inflated by waiting for a busy machine's cores) */
  cpu50: number;
  cpu99: number;
  avgDocs: number;
  avgResult: number;
}

const ONLY = process.env.BENCH_ONLY;

async function measure(read: MemoryReadStore, query: string, run: (i: number) => Promise<number>): Promise<Row> {
  if (ONLY && !query.includes(ONLY)) return { query, calls: 0, p50: 0, p99: 0, max: 0, cpu50: 0, cpu99: 0, avgDocs: 0, avgResult: 0 };
  const started = performance.now();
  // start each query from a collected heap (run with --expose-gc): no leftover of the fill or of the previous query
  (globalThis as { gc?: () => void }).gc?.();
  for (let i = 0; i < 100; i++) await run(i); // warm-up
  const times: number[] = [];
  const cpu: number[] = [];
  let docs = 0;
  let results = 0;
  for (let i = 0; i < CALLS; i++) {
    const before = read.counters().docsExamined;
    const c = process.cpuUsage();
    const t = performance.now();
    results += await run(i);
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    docs += read.counters().docsExamined - before;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  process.stderr.write(`  ${query}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const cpuAt = (q: number) => cpu[Math.min(cpu.length - 1, Math.floor(q * cpu.length))];
  return { query, calls: CALLS, p50: at(0.5), p99: at(0.99), max: times[times.length - 1], cpu50: cpuAt(0.5), cpu99: cpuAt(0.99), avgDocs: docs / CALLS, avgResult: results / CALLS };
}

async function main() {
  const read = new MemoryReadStore();
  console.log(`Filling: ${MEMBERS} members, ${VIDEO_COUNT} videos, ${FOLLOW_COUNT} follows…`);
  const { insertMs, counters } = fill(read);
  const indexMs = await createIndexes(read);
  const heapMb = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
  console.log(`inserted in ${(insertMs / 1000).toFixed(1)} s, indexes built in ${(indexMs / 1000).toFixed(1)} s, heap ${heapMb} MB`);

  const social = socialQueries(read);
  const identity = identityQueries(read);
  const randomMember = () => int(MEMBERS);
  const heavy = counters.map((c, i) => ({ i, n: c.following })).filter((x) => x.n >= 1_000).map((x) => x.i);
  const firstPage = { page: 1, limit: 20 };

  const rows: Row[] = [];
  rows.push(await measure(read, 'friends feed, page 1 (random member)', async () => (await social.friendsFeed(userId(randomMember()), firstPage)).length));
  rows.push(await measure(read, 'friends feed, page 5', async () => (await social.friendsFeed(userId(randomMember()), { page: 5, limit: 20 })).length));
  if (heavy.length > 0) {
    rows.push(await measure(read, `friends feed, page 1 (follows ≥ 1000: ${heavy.length} members)`, async (i) => (await social.friendsFeed(userId(heavy[i % heavy.length]), firstPage)).length));
  }
  rows.push(await measure(read, 'profile (random member)', async () => (await identity.profile(`membre${randomMember()}`, userId(randomMember())))?.videos.length ?? 0));
  rows.push(await measure(read, 'profile (popular creator, top 1%)', async () => (await identity.profile(`membre${int(MEMBERS / 100)}`, userId(randomMember())))?.videos.length ?? 0));
  rows.push(await measure(read, 'suggestions, page 1 (random member)', async () => (await social.suggestions(userId(randomMember()), firstPage)).length));
  if (heavy.length > 0) {
    rows.push(await measure(read, 'suggestions, page 1 (follows ≥ 1000)', async (i) => (await social.suggestions(userId(heavy[i % heavy.length]), firstPage)).length));
  }
  rows.push(await measure(read, 'friends list (random member)', async () => (await social.friends(userId(randomMember()))).length));
  rows.push(await measure(read, 'stats', async () => ((await social.stats(userId(randomMember()))) ? 1 : 0)));
  rows.push(await measure(read, 'is-following', async () => ((await social.isFollowing(userId(randomMember()), userId(popular(MEMBERS)))) ? 1 : 0)));
  rows.push(await measure(read, 'one video with viewer flags', async () => ((await social.video(1 + int(VIDEO_COUNT), userId(randomMember()))) ? 1 : 0)));

  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (x: number, d = 2) => x.toFixed(d).padStart(9);
  console.log();
  const [load1] = loadavg();
  console.log(`wall-clock and CPU time per call, in ms; load average ${load1.toFixed(2)} on ${cpus().length} cores`);
  console.log(
    `${pad('query', 58)}${'calls'.padStart(7)}${'p50'.padStart(9)}${'p99'.padStart(9)}${'max'.padStart(9)}${'cpu p50'.padStart(9)}${'cpu p99'.padStart(9)}${'docs/call'.padStart(11)}${'rows'.padStart(7)}`,
  );
  for (const r of rows.filter((x) => x.calls > 0)) {
    console.log(
      `${pad(r.query, 58)}${String(r.calls).padStart(7)}${num(r.p50)}${num(r.p99)}${num(r.max)}${num(r.cpu50)}${num(r.cpu99)}${num(r.avgDocs, 0).padStart(11)}${num(r.avgResult, 1).slice(2).padStart(7)}`,
    );
  }
  const worst = Math.max(...rows.map((r) => r.p99));
  const worstCpu = Math.max(...rows.map((r) => r.cpu99));
  console.log(`\nworst p99: ${worst.toFixed(2)} ms wall-clock, ${worstCpu.toFixed(2)} ms CPU (goal ≤ 10 ms) ${worst <= 10 ? 'OK' : 'OVER'}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
