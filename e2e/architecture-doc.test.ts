import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs stay true to the tree: every path they name exists, ARCHITECTURE.md stays a short map,
// and figures that go stale (the benchmarks print them) stay out. Also: a file a source file cites exists.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs');
const ARCHITECTURE_MAX_LINES = 300;
/** the npm workspaces, as the root package.json lists them */
const WORKSPACES = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

const docs = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ name: `docs/${f}`, text: readFileSync(path.join(DOCS, f), 'utf8') }));
const topLevel = new Set(readdirSync(ROOT));
const FILE_EXTENSION = /\.(?:ts|tsx|mjs|js|json|md|ya?ml|sh|css|html)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.cache', '.git', 'data', '.test-data', 'artifacts', 'coverage']);

/** The cells of a markdown table row, or undefined when the line is not one. */
const cellsOf = (line: string) =>
  line.trim().startsWith('|') ? line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|') : undefined;
const backticked = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());

/**
 * A backticked token read as a path: no spaces, placeholders (`<id>`), globs, URLs or routes; it has
 * a folder in it or a file's extension. `DATA_DIR/…` names a file of a running install, not of the tree.
 */
function asPath(token: string): string | undefined {
  if (/[\s<>*…{}():,'"=]/.test(token) || token.startsWith('/') || token.startsWith('@') || token.startsWith('.')) {
    return undefined;
  }
  if (!token.includes('/') && !FILE_EXTENSION.test(token)) return undefined;
  if (/^[A-Z_]+\//.test(token)) return undefined;
  return token;
}

/**
 * Every path a doc names that is not in the tree: backticked paths from the repository's root,
 * links from the doc's folder, and the folder map's cells (a table whose header names workspaces:
 * each cell a folder under `<workspace>/src/`).
 */
export function missingPaths(docName: string, text: string, root = ROOT): string[] {
  const missing: string[] = [];
  const isWorkspace = (name: string | undefined) => !!name && existsSync(path.join(root, name, 'src'));
  let header: string[] | undefined;
  let row = 0;
  for (const line of text.split('\n')) {
    const cells = cellsOf(line);
    row = cells ? row + 1 : 0;
    if (cells && row === 1) header = cells.map((c) => backticked(c)[0] ?? c.trim());
    const folderMap = cells && row > 2 && header!.slice(1).some(isWorkspace);
    const tokens = folderMap
      ? cells.flatMap((cell, i) =>
          backticked(cell).map((t) => (i > 0 && isWorkspace(header![i]) ? `${header![i]}/src/${t}` : asPath(t))),
        )
      : backticked(line).map(asPath);
    for (const p of tokens) {
      if (p && (!topLevel.has(p.split('/')[0]) || !existsSync(path.join(root, p)))) missing.push(p);
    }
    for (const [, target] of line.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      if (!existsSync(path.resolve(root, path.dirname(docName), target))) missing.push(target);
    }
  }
  return missing;
}

/** Measured figures: rates, percentiles, sub-second timings, "N× faster". */
const BENCHMARK_FIGURES = [
  /\d[\d,.]*\s*(?:ops|events|requests|req|gifts|sends|appends|writes|reads|messages|comments|pages)\s*\/\s*s\b/i,
  /\bp(?:50|90|95|99)\b/i,
  /\d\s*(?:ms|µs|us|ns)\b/,
  /\d\s*×/,
  /\d\s*s (?:each|per)\b/,
];

const figuresIn = (text: string) =>
  text.split('\n').filter((line) => BENCHMARK_FIGURES.some((pattern) => pattern.test(line)));

/** The files under `dir` (skipping dependencies, builds and data) that `keep` keeps: sources by default. */
function sourceFiles(
  dir: string,
  out: string[] = [],
  keep = (name: string) => /\.(?:ts|tsx|mjs)$/.test(name),
): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out, keep);
    else if (keep(entry.name) && statSync(full).isFile()) out.push(full);
  }
  return out;
}

describe('the docs', () => {
  it('name only paths that exist', () => {
    for (const doc of docs) expect(missingPaths(doc.name, doc.text), doc.name).toEqual([]);
  });

  it('catch a path that does not exist, in prose, in a link and in the folder map', () => {
    const doc = [
      'See `projections/src/runtime/runner.ts` and `projections/src/runtime/no-such-runner.ts`,',
      '`runtime/runner.ts` (not from the root), [a page](no-such-page.md), [this one](ARCHITECTURE.md).',
      '',
      '| feature | domain | web |',
      '| ------- | ------ | --- |',
      '| gifts | `ledger/` | `no-such-folder/` |',
    ].join('\n');
    expect(missingPaths('docs/example.md', doc)).toEqual([
      'projections/src/runtime/no-such-runner.ts',
      'runtime/runner.ts',
      'no-such-page.md',
      'web/src/no-such-folder/',
    ]);
  });

  it(`keep ARCHITECTURE.md a map of at most ${ARCHITECTURE_MAX_LINES} lines`, () => {
    const architecture = docs.find((d) => d.name === 'docs/ARCHITECTURE.md')!;
    expect(architecture.text.trimEnd().split('\n').length).toBeLessThanOrEqual(ARCHITECTURE_MAX_LINES);
  });

  it('hold no benchmark figures (the benchmarks print them)', () => {
    for (const doc of docs) expect(figuresIn(doc.text), doc.name).toEqual([]);
    expect(figuresIn('about 45 s each; p50 11 ms; 3,100 requests/s; comments about 4× the rate')).toHaveLength(1);
    expect(figuresIn('waits at most 2 s\n500 events per batch\n30 days')).toEqual([]);
  });
});

/**
 * The source files a source text names (`runtime/routing.test.ts`, `query-language.ts`), with any
 * leading `./` or `../` taken off; names starting with a dot (`'.test.ts'` in code) are none.
 */
const citedSources = (text: string) =>
  [...text.matchAll(/[\w./-]*[\w-]\.tsx?\b/g)]
    .map((m) => m[0].replace(/^(?:\.{1,2}\/)+/, ''))
    .filter((cited) => !cited.startsWith('.'));

describe('source files', () => {
  it('cite only files that exist (a test, a module named in a comment)', () => {
    const tree = sourceFiles(ROOT, [], () => true).map((f) => path.relative(ROOT, f));
    const exists = (cited: string) => tree.some((t) => t === cited || t.endsWith(`/${cited}`));
    const sources = WORKSPACES.map((w) => path.join(ROOT, w, 'src'))
      .filter((dir) => existsSync(dir))
      .concat(path.join(ROOT, 'e2e'), path.join(ROOT, 'scripts'))
      .flatMap((dir) => sourceFiles(dir))
      // this file's samples cite missing files on purpose
      .filter((f) => f !== fileURLToPath(import.meta.url));
    const missing = sources.flatMap((file) =>
      citedSources(readFileSync(file, 'utf8'))
        .filter((cited) => !exists(cited))
        .map((cited) => `${path.relative(ROOT, file)} cites ${cited}`),
    );
    expect(missing).toEqual([]);
    const sample = "// see runtime/routing.test.ts, ../http/errors.ts and projectors.test.ts; endsWith('.test.ts')";
    expect(citedSources(sample).filter((c) => !exists(c))).toEqual(['projectors.test.ts']);
  });
});
