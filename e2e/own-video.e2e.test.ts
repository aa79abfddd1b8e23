import { describe, it, expect } from 'vitest';
import { browserSkipReason, loggedInPage, screenshot } from './harness';
import { SIZES, serverAndBrowser, sidewaysOverflow, membersOf } from './helpers';

const skip = browserSkipReason();

/** Issue 29 item 10: a member is not offered to report their own video (the server refuses it too). */
describe.skipIf(!!skip)('own video', () => {
  const live = serverAndBrowser();
  const [author, fan] = membersOf(live, 2);

  for (const { name, viewport } of SIZES)
    it(`offers 'Signaler' on others' videos only (${name})`, async () => {
      const mine = await loggedInPage(live.browser, live.server.url, author.member, viewport);
      await mine.page.goto(`${live.server.url}/video/${author.videoId}`);
      await mine.page.getByRole('button', { name: 'Supprimer' }).waitFor();
      expect(await mine.page.getByRole('button', { name: 'Signaler' }).count()).toBe(0);
      expect(await sidewaysOverflow(mine.page)).toBe(0);
      await screenshot(mine.page, `own-video-${name}`, { fullPage: false });
      await mine.context.close();

      const theirs = await loggedInPage(live.browser, live.server.url, fan.member, viewport);
      await theirs.page.goto(`${live.server.url}/video/${author.videoId}`);
      await theirs.page.getByRole('button', { name: 'Signaler' }).waitFor();
      expect(await theirs.page.getByRole('button', { name: 'Supprimer' }).count()).toBe(0);
      await theirs.context.close();
    }, 120_000);
});
