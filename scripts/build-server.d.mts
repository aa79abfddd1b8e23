/** where `npm start` runs the server from (see build-server.mjs) */
export declare const SERVER_BUNDLE: string;
/** Bundle command-api/src/main.ts with the workspace packages into `outfile` (inside the repository). */
export declare function buildServer(outfile?: string): Promise<void>;
