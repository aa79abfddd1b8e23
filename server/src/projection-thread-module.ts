/** The embedded projections' thread's module: beside the server bundle (build-server.mjs), or its source. */
export const projectionThreadModule = (): URL =>
  new URL(import.meta.url.endsWith('.mjs') ? './projections-thread.mjs' : './projections-thread.ts', import.meta.url);
