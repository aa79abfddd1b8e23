/**
 * Write-mix benchmark (not a test): comments, likes, follows, private messages and gift sends over
 * HTTP, 32 keep-alive clients, on the embedded default (SQLite in a temporary DATA_DIR, read models
 * in SQLite), next to a bare Express JSON route measured in the same run (scripts/bench-gifts.ts's
 * bare route, in a child process of its own).
 *
 *   npx tsx scripts/bench-write-mix.ts [--seconds=10] [--clients=32] [--only=blocks,one-by-one,mix]
 *                                      [--commands=comment,like,follow,message,gift]
 *
 * Diagnostics: BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the EVO processes.
 *
 * Rows, each with req/s, p50/p99 and the serving process's CPU per request:
 * - each command alone: the 32 clients all sending it (comments and likes spread over every
 *   member's video, follows and unfollows between the senders, messages and gifts to 8 receivers
 *   the senders follow);
 * - the mix: the 32 clients at once, client i sending command i mod 5, each command's rate and
 *   p99 under the others' load.
 * Two EVO processes are measured, their rows interleaved so that both see the same machine:
 * - "blocks": this code as it runs (numeric ids by blocks, infra/src/commands/id-blocks.ts);
 * - "one id per append": the same code with blocks of one id for every sequence but the ledger's
 *   (which keeps its 64), i.e. one `IdAssigned` appended and waited for per video, comment,
 *   message and report id, as before id blocks (only the ledger had blocks then). With
 *   BENCH_BEFORE_ROOT=/path/to/another/checkout, that row runs that checkout's
 *   server/src/main.ts instead (e.g. the code before id blocks).
 * The goal line: in the blocks rows, every command's rate at least the gift sends' rate of the
 * same run (a comment is a simpler write than a gift).
 */
import { childLogger } from '@evo/infra';
import { printGoal } from './lib/goals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HttpClient,
  expectStatus,
  freePort,
  load,
  spawnNode,
  loadConditions,
  measureCells,
  MEASURE_COLUMNS,
  table,
  waitReady,
  type Answer,
  type Call,
  type LoadResult,
  registerMember,
  embeddedLoadEnv,
  type BenchMember,
} from './lib/http-load';
import { listArg, loadRunArgs, numberArg } from './lib/args';

const log = childLogger('bench-write-mix');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, clients: CLIENTS, receivers: RECEIVERS } = loadRunArgs();
/** --only=blocks,one-by-one,mix: which EVO processes, and whether the mix rows run */
const ONLY = listArg('only', 'blocks,one-by-one,mix');
const ALL_COMMANDS = ['comment', 'like', 'follow', 'message', 'gift send'] as const;
type Command = (typeof ALL_COMMANDS)[number];
/** --commands=gift,comment: the "alone" rows of some commands only (the mix always has all five) */
const COMMANDS = ALL_COMMANDS.filter((c) =>
  listArg('commands', 'comment,like,follow,message,gift').some((w) => c.startsWith(w)),
);

// ------------------------------------------------------------------------------------------------

type Member = BenchMember;

const register = (base: URL, tag: string): Promise<Member> => registerMember(base, ROOT, `mix${tag}`);

/** An EVO server in a child process, its members registered, funded and following the receivers. */
interface Evo {
  label: string;
  base: URL;
  pid: number | undefined;
  senders: Array<{ m: Member; c: HttpClient }>;
  receivers: Member[];
  /** every member's (first) video */
  videoIds: number[];
  stop(): Promise<void>;
}

async function startEvo(label: string, idBlockSize: number | undefined): Promise<Evo> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'evo-bench-mix-'));
  const port = await freePort();
  const env = embeddedLoadEnv(dataDir, port);
  // BENCH_NODE_ARGS (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof) to the EVO processes only
  const nodeArgs = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const beforeRoot = process.env.BENCH_BEFORE_ROOT;
  // checkouts from before the composition workspace started from command-api
  const entryOf = (root: string) =>
    existsSync(path.join(root, 'server/src/main.ts'))
      ? 'server/src/main.ts'
      : path.join('command-api', 'src', 'main.ts');
  const evo =
    idBlockSize === undefined
      ? spawnNode(['server/src/main.ts'], { cwd: ROOT, env, nodeArgs })
      : beforeRoot
        ? spawnNode([entryOf(beforeRoot)], { cwd: beforeRoot, env, nodeArgs })
        : spawnNode([fileURLToPath(import.meta.url), '--evo', `--id-block=${idBlockSize}`], {
            cwd: ROOT,
            env,
            nodeArgs,
          });
  // a server that dies under load: say why (its output), not just the clients' connection errors
  evo.child.once('exit', (code, signal) => {
    if (!stopping)
      console.log(`\n${label}: EVO exited (${code ?? signal}) during the run:\n${evo.output().slice(-3000)}`);
  });
  let stopping = false;
  const stop = async () => {
    stopping = true;
    if (evo.child.exitCode === null) {
      const exited = new Promise((r) => evo.child.once('exit', r));
      evo.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const clients: HttpClient[] = [];
  try {
    const base = new URL(`http://localhost:${port}`);
    await waitReady(new URL('/ready', base).href, evo.child, evo.output);
    process.stdout.write(`${label}: registering ${CLIENTS + RECEIVERS} members… `);
    const run = Date.now().toString(36);
    const senders: Evo['senders'] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const m = await register(base, `${run}${i}`);
      const c = new HttpClient(base);
      clients.push(c);
      const l = await c.request('POST', '/api/auth/login', { email: m.email, password: m.password });
      if (l.status !== 200) throw new Error(`login ${l.status} ${JSON.stringify(l.json)}`);
      for (let k = 0; k < 3; k++) await c.request('POST', '/api/coins/add', { email: m.email, amount: 100_000 });
      senders.push({ m, c });
    }
    const receivers: Member[] = [];
    for (let i = 0; i < RECEIVERS; i++) receivers.push(await register(base, `${run}r${i}`));
    for (const { c } of senders)
      for (const r of receivers) {
        const f = await c.request('POST', '/api/follows/follow', { following_email: r.email });
        if (f.status !== 200) throw new Error(`follow ${f.status} ${JSON.stringify(f.json)}`);
      }
    // every member's video, once processed (comments and likes want an available video)
    const videoIds: number[] = [];
    for (const m of [...senders.map((s) => s.m), ...receivers]) {
      for (let i = 0; ; i++) {
        const p = await senders[0].c.request('GET', `/api/users/profile/${m.pseudo}`);
        const videos = (p.json.videos as Array<{ id: number; processing: string }> | undefined) ?? [];
        if (videos.length && videos.every((v) => v.processing !== 'en_traitement')) {
          videoIds.push(videos[0].id);
          break;
        }
        if (i > 1200) throw new Error(`video of ${m.pseudo} never processed: ${JSON.stringify(p.json).slice(0, 300)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    console.log('done');
    return {
      label,
      base,
      pid: evo.child.pid,
      senders,
      receivers,
      videoIds,
      stop: async () => {
        clients.forEach((c) => c.close());
        await stop();
      },
    };
  } catch (e) {
    clients.forEach((c) => c.close());
    await stop();
    throw e;
  }
}

/**
 * A call that does a write or its undoing, whichever `done` says is next for `key` (a like or an
 * unlike, a follow or an unfollow), and remembers what it did once the server said 200.
 */
function toggle<K>(command: Command, done: Set<K>, key: K, request: (doIt: boolean) => Promise<Answer>): Call {
  const doIt = !done.has(key);
  return {
    kind: command,
    run: async () => {
      const a = await request(doIt);
      if (a.status === 200) {
        if (doIt) done.add(key);
        else done.delete(key);
      }
      return expectStatus(a, 200);
    },
  };
}

/** Client i's next call of `command` (each call a write: likes and follows alternate with their undoing). */
function caller(evo: Evo, i: number, command: Command): () => Call {
  const { m, c } = evo.senders[i];
  let n = 0;
  const liked = new Set<number>();
  const following = new Set<number>();
  const videos = evo.videoIds;
  /** a POST of this client, succeeded when answered `status` */
  const post = (path: string, body: unknown, status: number): Call => ({
    kind: command,
    run: async () => expectStatus(await c.request('POST', path, body), status),
  });
  switch (command) {
    case 'comment':
      return () => {
        const video = videos[(i + n++) % videos.length];
        return post(`/api/videos/${video}/comment`, { content: `Bravo ! (${n})` }, 201);
      };
    case 'like':
      return () => {
        const video = videos[(i + n++) % videos.length];
        return toggle(command, liked, video, (like) =>
          c.request(like ? 'POST' : 'DELETE', `/api/videos/${video}/like`),
        );
      };
    case 'follow':
      return () => {
        // the other senders (the receivers stay followed: messages need it)
        const k = (i + 1 + (n++ % (CLIENTS - 1))) % CLIENTS;
        const target = evo.senders[k].m;
        return toggle(command, following, k, (follow) =>
          follow
            ? c.request('POST', '/api/follows/follow', { following_email: target.email })
            : c.request('POST', '/api/follows/unfollow', { followingPseudo: target.pseudo }),
        );
      };
    case 'message':
      return () => {
        const to = evo.receivers[n++ % RECEIVERS];
        return post('/api/messages', { receiverEmail: to.email, content: 'Salut !' }, 201);
      };
    case 'gift send':
      return () => {
        const to = evo.receivers[n++ % RECEIVERS];
        return post('/api/gifts/send', { sender_email: m.email, receiver_email: to.email, gift_id: 1 }, 200);
      };
  }
}

/** Waits until the gifts sent are all credited and the read models caught up (no row pays for the previous one's backlog). */
async function settle(evo: Evo, timeoutSeconds = 120): Promise<void> {
  const deadline = performance.now() + timeoutSeconds * 1000;
  const admin = new HttpClient(evo.base);
  try {
    await admin.request('POST', '/api/auth/login', { email: 'admin@evo.local', password: 'evo-admin-2026' });
    while (performance.now() < deadline) {
      const report = (await admin.request('GET', '/api/admin/ledger/reconcile')).json;
      const credited = (report.pending_gifts as { count: number } | undefined)?.count === 0;
      if (credited && (await admin.request('GET', '/ready')).status === 200) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    admin.close();
  }
}

interface Row {
  evo: string;
  scenario: string;
  command: string;
  result: LoadResult;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

async function main() {
  const evos: Evo[] = [];
  let bare: ReturnType<typeof spawnNode> | undefined;
  try {
    const barePort = await freePort();
    bare = spawnNode([path.join(ROOT, 'scripts/bench-gifts.ts'), '--bare', `--port=${barePort}`], {
      cwd: ROOT,
      env: {},
    });
    const bareBase = new URL(`http://localhost:${barePort}`);
    await waitReady(new URL('/bare', bareBase).href, bare.child, bare.output);
    if (ONLY.includes('blocks')) evos.push(await startEvo('blocks', undefined));
    if (ONLY.includes('one-by-one'))
      evos.push(
        await startEvo(
          process.env.BENCH_BEFORE_ROOT ? `before (${process.env.BENCH_BEFORE_ROOT})` : 'one id per append',
          1,
        ),
      );
    for (const evo of evos) await settle(evo);

    const rows: Row[] = [];
    const push = (evo: string, scenario: string, result: LoadResult) => {
      for (const [command, m] of result.byKind) rows.push({ evo, scenario, command, result, ...m });
      if (result.firstErrors.length)
        console.log(`  ${evo} ${scenario}: first errors: ${result.firstErrors.join(' | ')}`);
    };
    const options = (pid: number | undefined) => ({ warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, serverPid: pid });

    // the bare route, then each command alone on each EVO (interleaved), then the mix on each
    {
      const clients = Array.from({ length: CLIENTS }, () => new HttpClient(bareBase));
      const body = { sender_email: 'a@b.fr', receiver_email: 'c@d.fr', gift_id: 1 };
      push(
        'bare Express',
        'alone',
        await load(
          clients.map((c) => () => ({
            kind: 'bare JSON route',
            run: async () => expectStatus(await c.request('POST', '/bare', body), 200),
          })),
          options(bare.child.pid),
        ),
      );
      clients.forEach((c) => c.close());
    }
    for (const command of COMMANDS)
      for (const evo of evos) {
        process.stdout.write(`${evo.label}: ${command}… `);
        push(
          evo.label,
          'alone',
          await load(
            evo.senders.map((_, i) => caller(evo, i, command)),
            options(evo.pid),
          ),
        );
        await settle(evo);
        console.log('done');
      }
    for (const evo of ONLY.includes('mix') ? evos : []) {
      process.stdout.write(`${evo.label}: mix… `);
      push(
        evo.label,
        'mix',
        await load(
          evo.senders.map((_, i) => caller(evo, i, ALL_COMMANDS[i % ALL_COMMANDS.length])),
          options(evo.pid),
        ),
      );
      await settle(evo);
      console.log('done');
    }

    const bareRow = rows.find((r) => r.evo === 'bare Express')!;
    const bareCpu = bareRow.result.cpuPerRequestUs;
    console.log('');
    log.info(loadConditions(CLIENTS, WARMUP_SECONDS, SECONDS));
    console.log(
      `alone: the ${CLIENTS} clients all send the command; mix: client i sends command i mod 5 (server CPU/req of a mix row: the whole mix)`,
    );
    console.log('');
    console.log(
      table(
        ['EVO', 'scenario', 'command', ...MEASURE_COLUMNS],
        rows.map((r) => {
          const cpu = r.result.cpuPerRequestUs;
          const cpuVsBare = cpu === undefined || bareCpu === undefined ? undefined : cpu / bareCpu;
          return [r.evo, r.scenario, r.command, ...measureCells(r, cpu, r.rate / bareRow.rate, cpuVsBare)];
        }),
      ),
    );
    console.log('');
    // each EVO and scenario: every command's rate against the gift sends' of the same run
    for (const evo of evos)
      for (const scenario of ['alone', 'mix']) {
        const of = rows.filter((r) => r.evo === evo.label && r.scenario === scenario);
        const gift = of.find((r) => r.command === 'gift send');
        if (!gift) continue;
        const slower = of.filter((r) => r.command !== 'gift send' && r.rate < gift.rate);
        const ratios = of
          .filter((r) => r.command !== 'gift send')
          .map((r) => `${r.command} ${(r.rate / gift.rate).toFixed(2)}×`)
          .join(', ');
        const goal = evo === evos[0] && evo.label === 'blocks' ? 'goal' : 'for comparison';
        console.log(
          `${evo.label}, ${scenario}: every command's rate ≥ the gift sends' (${gift.rate.toFixed(0)}/s) [${goal}]: ${slower.length === 0 ? 'met' : `not met (${slower.map((r) => r.command).join(', ')})`} — ${ratios}`,
        );
        if (goal === 'goal')
          printGoal(
            `write mix (${CLIENTS} clients, ${scenario}): every command's rate vs the gift sends' (${gift.rate.toFixed(0)}/s)`,
            ratios,
            '≥ 1× each',
            slower.length === 0,
          );
      }
    if (evos.length === 2)
      for (const scenario of ['alone', 'mix'])
        console.log(
          `blocks vs ${evos[1].label}, ${scenario}: ${ALL_COMMANDS.map((command) => {
            const [a, b] = evos.map((e) =>
              rows.find((r) => r.evo === e.label && r.scenario === scenario && r.command === command),
            );
            return a && b ? `${command} ${(a.rate / b.rate).toFixed(2)}×` : `${command} —`;
          }).join(', ')}`,
        );
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    bare?.child.kill('SIGTERM');
    for (const e of evos) await e.stop();
  }
}

// ------------------------------------------------------------------------------------------------
// child mode: EVO with id blocks of one size but the ledger's (--id-block=1: one append per id, as before blocks)
// ------------------------------------------------------------------------------------------------
async function evoServer() {
  const { loadConfig } = await import('@evo/infra');
  const { startServer } = await import('@evo/server');
  const { ID_BLOCK_SIZES } = await import('@evo/infra');
  const size = numberArg('id-block', 1);
  const server = await startServer({
    config: loadConfig(),
    role: 'embedded',
    idBlocks: { blockSize: (s) => (s === 'coin-transaction' ? ID_BLOCK_SIZES[s] : size) },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
}

if (process.argv.includes('--evo')) await evoServer();
else await main();
