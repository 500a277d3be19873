/**
 * Run as its own process (as an agent is): sends `count` oversized chat requests at once with the
 * real openai SDK and prints how each ended, as JSON: the HTTP status, or the connection error.
 * Usage: node dist/test/support/oversized-body-client.js <baseURL> <count> <bytes>
 */
import OpenAI from 'openai';

const [baseURL, count, size] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const client = new OpenAI({ apiKey: 'sk-test-oversized', baseURL, maxRetries: 0 });
const outcomes = await Promise.all(
  Array.from({ length: count }, () =>
    client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(size) }] })
      .then(
        () => 'answered',
        (error: unknown) =>
          error instanceof OpenAI.APIError && error.status !== undefined
            ? String(error.status)
            : `${(error as Error).name}: ${(error as Error).message}`,
      ),
  ),
);
process.stdout.write(JSON.stringify(outcomes));
