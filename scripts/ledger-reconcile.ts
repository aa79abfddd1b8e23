/**
 * Coin ledger reconciliation: folds the whole log (the configured event store: DATA_DIR's SQLite file
 * or EVENTSTORE_URL) and reports whether the ledger's invariants held at every position — the sum
 * over all accounts is 0, no user account is ever negative, every transfer is recorded once, coins
 * keep their origin through gifts and the coins withdrawn never exceed the coins bought — with
 * the first violating event if any. Exit code 0 when they held, 1 when not, 2 on a configuration error.
 *
 *   npm run ledger:reconcile            (DATA_DIR=./data by default)
 *   DATA_DIR=/srv/evo npm run ledger:reconcile -- --json
 *
 * Safe while the server runs (SQLite in WAL mode: it reads a consistent snapshot per batch).
 */
import { existsSync } from 'node:fs';
import { ConfigError, ServiceUnreachableError, openEventStore, openKeyStore, loadConfig } from '@evo/infra';
import { reconcileLedger } from '@evo/command-api';

const json = process.argv.includes('--json');
let config;
try {
  config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(2);
}
if (!config.EVENTSTORE_URL && !existsSync(config.eventsFile)) {
  console.error(`Aucun journal d'événements dans ${config.eventsFile} (DATA_DIR=${config.DATA_DIR}).`);
  process.exit(2);
}

const keys = await openKeyStore(config).catch((e: unknown) => {
  console.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : e);
  process.exit(2);
});
const events = await openEventStore(config, keys).catch((e: unknown) => {
  console.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : e);
  process.exit(2);
});
const started = performance.now();
const report = await reconcileLedger(events, (n) => {
  if (!json && process.stderr.isTTY) process.stderr.write(`\r${n} événements lus…`);
});
await events.close();
await keys.close();
const seconds = (performance.now() - started) / 1000;

if (json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  if (process.stderr.isTTY) process.stderr.write('\n');
  const t = report.totals;
  console.log(`Réconciliation du grand livre : ${report.ok ? 'OK ✅' : 'ÉCHEC ❌'}`);
  console.log(
    `  événements lus        ${report.events} (mouvements de coins : ${report.movements}), position ${report.last_position ?? '-'}, ${seconds.toFixed(2)} s`,
  );
  console.log(`  comptes               ${report.accounts}, somme de tous les comptes : ${t.sum}`);
  console.log(`  external:payments     ${t.external_payments}`);
  console.log(`  external:credits      ${t.external_credits}`);
  console.log(`  external:withdrawals  ${t.external_withdrawals}`);
  console.log(`  platform:fees         ${t.platform_fees}`);
  console.log(`  platform:forfeits     ${t.platform_forfeits} (comptes supprimés)`);
  console.log(
    `  transit:gifts         ${t.transit_gifts} (${report.pending_gifts.count} cadeau(x) pas encore crédité(s))`,
  );
  console.log(
    `  soldes des membres    achetés ${t.users_balance}, bonus ${t.users_bonus}, gains ${t.users_earnings}, cadeaux non récupérés : ${t.users_gifts}`,
  );
  console.log(
    `  retirés ≤ achetés     ${t.external_withdrawals} ≤ ${-t.external_payments} ${t.external_withdrawals <= -t.external_payments ? '✅' : '❌'}`,
  );
  if (report.first_violation) {
    const v = report.first_violation;
    console.log(`  ${report.violations} violation(s) ; la première, à la position ${v.position} :`);
    console.log(`    ${v.rule} — ${v.message}`);
    console.log(`    événement ${v.event_id} (${v.type}) du flux ${v.stream_id}`);
  }
}
process.exit(report.ok ? 0 : 1);
