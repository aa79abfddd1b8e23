/** The benchmarks' command-line options, `--name=value`. */

/** `--name=…` as given, undefined when not given. */
export const textArg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

/** `--name=N`, or `fallback`. */
export const numberArg = (name: string, fallback: number): number => Number(textArg(name) ?? fallback);

/** `--name=a,b,…`, or `fallback` (a comma-separated list too). */
export const listArg = (name: string, fallback: string): string[] => (textArg(name) ?? fallback).split(',');

/**
 * The load benchmarks' run (bench-gifts, bench-postgres, bench-write-mix): `--seconds` of measure
 * (10) after a 2 s warm-up, `--clients` senders (32) and 8 receivers.
 */
export const loadRunArgs = () => ({
  seconds: numberArg('seconds', 10),
  warmupSeconds: 2,
  clients: numberArg('clients', 32),
  receivers: 8,
});
