import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveWire } from './adapters.js';
import { openAiChatAdapter } from './openai-chat/openai-chat-adapter.js';
import { routeOfStored } from './route-of-stored.js';
import { splitPathQuery, withRouteModel } from './wire-route.js';

describe('splitPathQuery', () => {
  it('splits the query into decoded parameters, the first of a repeated name winning', () => {
    const { path, query } = splitPathQuery(
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=AIza%2Bx&alt=json&flag',
    );
    expect(path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect([...query]).toEqual([
      ['alt', 'sse'],
      ['key', 'AIza+x'],
      ['flag', ''],
    ]);
  });

  it('keeps a malformed escape as written and never throws (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const { path } = splitPathQuery(text);
        expect(text.startsWith(path)).toBe(true);
      }),
    );
    expect(splitPathQuery('/x?a=%E0%A4%A').query.get('a')).toBe('%E0%A4%A');
  });
});

describe('resolveWire: the routes of the OpenAI and Anthropic wires', () => {
  const routed = (method: string, pathWithQuery: string) => {
    const { path, query } = splitPathQuery(pathWithQuery);
    const wire = resolveWire(method, path, query);
    return wire && { adapter: wire.adapter.id, ...wire.route };
  };

  it('sends OpenAI and Anthropic routes to their upstreams, as before', () => {
    expect(routed('POST', '/v1/chat/completions')).toEqual({
      adapter: 'openai-chat',
      upstream: 'openai',
      path: '/v1/chat/completions',
    });
    expect(routed('POST', '/v1/responses')).toMatchObject({
      adapter: 'openai-responses',
      upstream: 'openai',
    });
    expect(routed('POST', '/v1/messages')).toMatchObject({
      adapter: 'anthropic-messages',
      upstream: 'anthropic',
    });
    // A gateway prefix in front of the route is still the route (an upstream with a path prefix).
    expect(routed('POST', '/gateway/v1/chat/completions')).toMatchObject({ upstream: 'openai' });
    expect(routed('GET', '/v1/chat/completions')).toBeUndefined();
    expect(routed('POST', '/v1/messages/count_tokens')).toBeUndefined();
    expect(routed('GET', '/v1/models')).toBeUndefined();
  });

  it('sends Azure OpenAI deployment routes to the azure upstream, the deployment standing for the model', () => {
    expect(
      routed('POST', '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21'),
    ).toEqual({
      adapter: 'openai-chat',
      upstream: 'azure',
      path: '/openai/deployments/gpt-4o-prod/chat/completions',
      model: 'gpt-4o-prod',
    });
    expect(
      routed('POST', '/openai/deployments/my%20deployment/responses?api-version=preview'),
    ).toMatchObject({ adapter: 'openai-responses', upstream: 'azure', model: 'my deployment' });
  });

  it('sends the Azure OpenAI v1 routes to the azure upstream, with the model left to the body', () => {
    expect(routed('POST', '/openai/v1/chat/completions?api-version=v1')).toEqual({
      adapter: 'openai-chat',
      upstream: 'azure',
      path: '/openai/v1/chat/completions',
    });
    expect(routed('POST', '/openai/v1/responses')).toEqual({
      adapter: 'openai-responses',
      upstream: 'azure',
      path: '/openai/v1/responses',
    });
    // Another operation under a deployment is not a chat route.
    expect(routed('POST', '/openai/deployments/d/embeddings')).toBeUndefined();
  });

  it('rebuilds the route of a stored round from its stored path, query and redacted key included', () => {
    expect(
      routeOfStored(
        openAiChatAdapter,
        'POST',
        '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21&api-key=REDACTED',
      ),
    ).toEqual({
      upstream: 'azure',
      path: '/openai/deployments/gpt-4o-prod/chat/completions',
      model: 'gpt-4o-prod',
    });
    expect(routeOfStored(openAiChatAdapter, 'POST', '/v1/embeddings')).toBeUndefined();
  });
});

describe('withRouteModel', () => {
  it("takes the route's model only when the body named none", () => {
    const route = { upstream: 'azure', path: '/p', model: 'deployment' } as const;
    expect(withRouteModel({ model: undefined }, route).model).toBe('deployment');
    expect(withRouteModel({ model: 'gpt-4o' }, route).model).toBe('gpt-4o');
    expect(withRouteModel({ model: undefined }, undefined).model).toBeUndefined();
  });

  it('an Azure deployment request without a model is summarised with the deployment as its model', () => {
    const route = resolveWire('POST', '/openai/deployments/prod-4o/chat/completions')?.route;
    expect(
      openAiChatAdapter.parseRequest({ messages: [{ role: 'user', content: 'hi' }] }, route).model,
    ).toBe('prod-4o');
  });
});
