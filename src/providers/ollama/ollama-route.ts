import type { WireRoute } from '../wire-route.js';

const chat: WireRoute = { upstream: 'ollama', path: '/api/chat' };
const tags: WireRoute = { upstream: 'ollama', path: '/api/tags', read: true };
const show: WireRoute = { upstream: 'ollama', path: '/api/show', read: true };

/**
 * Ollama's captured routes: `POST /api/chat`, and the two reads a client makes before it chats
 * (`GET /api/tags` lists the models, `POST /api/show` describes one), recorded so that replay
 * answers them offline. Everything else under `/api/` (`/api/generate`, `/api/embed`…) passes
 * through to the Ollama upstream uncaptured.
 */
export function ollamaRoute(method: string, path: string): WireRoute | undefined {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  if (method === 'POST' && trimmed === '/api/chat') return chat;
  if (method === 'GET' && trimmed === '/api/tags') return tags;
  if (method === 'POST' && trimmed === '/api/show') return show;
  return undefined;
}
