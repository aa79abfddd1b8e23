// The JavaScript a browser loads (gzipped) for the home page, then what opening /create adds.
// Run after `npm run build:web`: npx tsx scripts/measure-bundle.ts
import { gzipSync } from 'node:zlib';
import { launchBrowser, startE2eServer } from '../e2e/harness';
import { registerAndLogin } from '@evo/command-api/testing/test-server';

const server = await startE2eServer();
const browser = await launchBrowser();
try {
  const { member } = await registerAndLogin(server.url);
  const page = await (await browser.newContext()).newPage();
  const seen = new Map<string, number>();
  page.on('response', async (r) => {
    const url = r.url();
    if (!/\.(m?js|wasm|data|tflite|binarypb)(\?|$)/.test(url) || seen.has(url)) return;
    try {
      seen.set(url, gzipSync(await r.body(), { level: 9 }).length);
    } catch {
      // a response without a body (redirect)
    }
  });
  const settle = () => new Promise((r) => setTimeout(r, 1500));
  const sum = (filter: (u: string) => boolean) => [...seen].filter(([u]) => filter(u)).reduce((n, [, b]) => n + b, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Mot de passe').fill(member.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL(`**/user/${member.pseudo}`);
  seen.clear();
  await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  await settle();
  const home = new Set(seen.keys());
  const homeJs = sum((u) => home.has(u));
  await page.getByRole('button', { name: 'Diapositive suivante' }).click();
  await page.getByRole('link', { name: /Créer une Vidéo/ }).click();
  await page.waitForLoadState('networkidle');
  await settle();
  const createJs = sum((u) => !home.has(u) && !u.includes('/mediapipe/'));
  await page.getByRole('button', { name: 'Activer caméra' }).click();
  await page.getByText('Aucun visage détecté.').waitFor({ timeout: 60_000 });
  await settle();
  const mediapipe = sum((u) => u.includes('/mediapipe/'));
  console.log(`home page (logged in, before /create): ${kb(homeJs)} gzipped JavaScript in ${home.size} files:`);
  for (const u of home) console.log(`  ${kb(seen.get(u) ?? 0)}  ${new URL(u).pathname}`);
  console.log(
    `opening /create adds: ${kb(createJs)}; its face mesh (wasm, model, glue), once the camera is on: ${kb(mediapipe)}`,
  );
} finally {
  await browser.close();
  await server.stop();
}
