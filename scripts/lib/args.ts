/** The benchmarks' command-line options, `--name=value`. */

/** `--name=…` as given, undefined when not given. */
export const textArg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

/** `--name=N`, or `fallback`. */
export const numberArg = (name: string, fallback: number): number => Number(textArg(name) ?? fallback);

/** `--name=a,b,…`, or `fallback` (a comma-separated list too). */
export const listArg = (name: string, fallback: string): string[] => (textArg(name) ?? fallback).split(',');
