// npm run admin:grant -- <email>: give the administrator role to a member (an event).
import { ConfigError, openEventStore, openKeyStore, loadConfig, systemContext } from '@evo/infra';
import { adminRoleCommands } from '../admin/commands';

const email = process.argv[2];
if (!email) {
  console.error('Usage : npm run admin:grant -- <email>');
  process.exit(2);
}
try {
  const config = loadConfig();
  const keys = await openKeyStore(config);
  const events = await openEventStore(config, keys);
  try {
    const r = await adminRoleCommands(events).grant(email, { ...systemContext(), userId: 'cli:admin-grant' });
    console.log(
      r.events.length > 0 ? `${email} est maintenant administrateur.` : `${email} était déjà administrateur.`,
    );
  } finally {
    await events.close();
    await keys.close();
  }
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : `Échec : ${(e as Error).message}`);
  process.exit(1);
}
