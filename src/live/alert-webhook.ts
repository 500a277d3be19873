import { request } from 'undici';
import type { Alert } from './alert-window.js';

/**
 * POSTs an alert to the webhook as JSON. Resolves when delivered; rejects on a network failure, a
 * timeout (10 s) or a status of 300 and above. Error messages name the webhook's origin only:
 * webhook paths often carry a token.
 */
export async function postAlert(webhook: string, alert: Alert): Promise<void> {
  const body = JSON.stringify({
    source: 'calltape',
    kind: 'pass_rate_below_threshold',
    ...alert,
    at: new Date(alert.at).toISOString(),
  });
  const origin = new URL(webhook).origin;
  try {
    const response = await request(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    await response.body.dump();
    if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}`);
  } catch (error) {
    throw new Error(`alert webhook at ${origin} failed: ${(error as Error).message}`);
  }
}
