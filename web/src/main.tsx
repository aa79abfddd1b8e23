import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import './shell/app.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root introuvable');

/**
 * The app's stylesheets come as `media="print"` (web/vite.config.ts: they must not hold back the
 * shell's first paint): switched on once loaded, before the app replaces the shell. Absent on the
 * development server, where the styles come with the modules.
 */
async function appStylesheets(): Promise<void> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-app-css]')];
  await Promise.all(
    links.map(
      (link) =>
        link.sheet ??
        new Promise<void>((resolve) => {
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => resolve(), { once: true });
        }),
    ),
  );
  for (const link of links) link.media = 'all';
}

// not a top-level await: that would make the bundler split the entry's imports into many files
void appStylesheets().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
