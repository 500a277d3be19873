/** A small seeded PRNG (mulberry32), so scripted splits are random yet reproducible. */
export interface Random {
  /** An integer in [0, bound). */
  int(bound: number): number;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    int(bound) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * bound);
    },
  };
}

/** Cuts text into 1–8 code point pieces, as providers stream it (never splitting a code point). */
export function fragments(text: string, random: Random): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < points.length;) {
    const length = 1 + random.int(8);
    pieces.push(points.slice(start, start + length).join(''));
    start += length;
  }
  return pieces;
}
