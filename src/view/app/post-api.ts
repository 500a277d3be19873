/**
 * Posts a write to the API (a rating key, a review decision) as JSON from the app's own origin,
 * which is what the server's CSRF check accepts; the answer, or the server's message as an error.
 */
export async function postApi<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`/calltape/api/v1/${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { error?: { message?: string } };
  if (!response.ok) throw new Error(answer.error?.message ?? `HTTP ${response.status}`);
  return answer;
}
