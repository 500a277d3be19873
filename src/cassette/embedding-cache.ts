import { createHash } from 'node:crypto';
import { request } from 'undici';
import { CalltapeError } from '../errors.js';
import { closeAtRest } from './sqlite/close-at-rest.js';
import { openCassette, openCassetteForReading } from './sqlite/open-cassette.js';

/** Fetches embeddings for texts, in input order. */
export type EmbeddingFetcher = (texts: readonly string[], model: string) => Promise<number[][]>;

/**
 * Embeddings for `semantic` rules, cached in a cassette's `embeddings` table by model and text,
 * so a scoring run replayed from the cassette needs no network and gets the same vectors (kept as
 * 64-bit floats: a rounded vector could flip a decision at the threshold).
 */
export class EmbeddingCache {
  private readonly vectors = new Map<string, readonly number[]>();

  constructor(
    private readonly cassette: string,
    private readonly fetcher: EmbeddingFetcher | undefined,
  ) {}

  /** Loads cached vectors for the texts and fetches the missing ones (then stores them). Offline without a fetcher: missing stay missing. */
  async prefetch(texts: readonly string[], model: string): Promise<void> {
    // Offline (no fetcher) nothing is written, so a committed cassette stays as it is.
    const db = this.fetcher
      ? openCassette(this.cassette, 'write')
      : openCassetteForReading(this.cassette);
    try {
      const read = db
        .prepare('SELECT vector FROM embeddings WHERE model = ? AND text_sha256 = ?')
        .pluck();
      const missing: string[] = [];
      for (const text of texts) {
        const blob = read.get(model, hash(text)) as Buffer | undefined;
        if (blob)
          this.vectors.set(
            keyOf(model, text),
            Array.from(
              new Float64Array(
                blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength),
              ),
            ),
          );
        else missing.push(text);
      }
      if (missing.length === 0 || !this.fetcher) return;
      const fetched = await this.fetcher(missing, model);
      const write = db.prepare(
        'INSERT OR REPLACE INTO embeddings (model, text_sha256, vector, created_at) VALUES (?, ?, ?, ?)',
      );
      db.transaction(() => {
        missing.forEach((text, index) => {
          const vector = fetched[index];
          if (!vector) return;
          this.vectors.set(keyOf(model, text), vector);
          write.run(model, hash(text), Buffer.from(new Float64Array(vector).buffer), Date.now());
        });
      })();
    } finally {
      closeAtRest(db);
    }
  }

  /** The synchronous lookup `scoreCall` takes as `options.embeddings`. */
  lookup(model: string): (text: string) => readonly number[] | undefined {
    return (text) => this.vectors.get(keyOf(model, text));
  }
}

/** An OpenAI-compatible `/embeddings` client (the provider's real endpoint, or calltape's proxy in front of it). */
export function openAiEmbeddings(baseUrl: string, apiKey: string | undefined): EmbeddingFetcher {
  return async (texts, model) => {
    const response = await request(`${baseUrl.replace(/\/+$/, '')}/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ model, input: texts }),
    });
    const body = (await response.body.json()) as {
      data?: { index: number; embedding: number[] }[];
      error?: { message?: string };
    };
    if (response.statusCode >= 400 || !body.data)
      throw new CalltapeError(
        'UPSTREAM_UNREACHABLE',
        `embeddings request failed (HTTP ${response.statusCode}): ${body.error?.message ?? 'no data'}`,
      );
    return [...body.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
  };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function keyOf(model: string, text: string): string {
  return `${model}\u0000${text}`;
}
