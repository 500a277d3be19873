/** How much is built before it is handed on: a run ends at `items` built, or at `bytes` of their sources. */
export interface RunLimits {
  readonly items: number;
  readonly bytes: number;
}

/**
 * Builds `sources` in runs, one run at a time as they are asked for: up to `limits` of them are
 * built and handed on together, then the next run is built. What a consumer holds at once is one
 * run, however many sources there are, while each stretch of building and of consuming stays long
 * enough to keep its code warm. A source whose build gives undefined is skipped (`onSkipped`).
 */
export function* buildInRuns<Source, Built>(
  sources: Iterable<Source>,
  build: (source: Source) => Built | undefined,
  bytesOf: (source: Source) => number,
  limits: RunLimits,
  onSkipped: () => void = () => undefined,
): Generator<Built[]> {
  let run: Built[] = [];
  let runBytes = 0;
  for (const source of sources) {
    const built = build(source);
    if (built === undefined) {
      onSkipped();
      continue;
    }
    run.push(built);
    runBytes += bytesOf(source);
    if (run.length >= limits.items || runBytes >= limits.bytes) {
      yield run;
      run = [];
      runBytes = 0;
    }
  }
  if (run.length > 0) yield run;
}
