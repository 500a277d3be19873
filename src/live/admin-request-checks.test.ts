import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adminHostAllowed,
  adminWriteAllowed,
  feedOriginAllowed,
  hostNameOf,
  rebindingSuspected,
} from './admin-request-checks.js';

describe('adminHostAllowed', () => {
  it('accepts loopback names and IP literals, refuses other names unless configured', () => {
    for (const host of [
      '127.0.0.1:4545',
      'localhost',
      'LOCALHOST:1',
      '[::1]:4545',
      '10.0.0.7:80',
      '[fe80::1]',
    ])
      expect(adminHostAllowed(host, [], false), host).toBe(true);
    for (const host of [
      'evil.example',
      'evil.example:4545',
      '127.0.0.1.nip.io',
      '',
      'a b',
      'localhost.evil.example',
    ])
      expect(adminHostAllowed(host, [], false), host).toBe(false);
    expect(adminHostAllowed(undefined, [], false)).toBe(false);
    expect(adminHostAllowed('calltape.internal:4545', ['Calltape.Internal'], false)).toBe(true);
    expect(adminHostAllowed('evil.example', ['calltape.internal'], true)).toBe(false);
    expect(adminHostAllowed('box.lan', [], true)).toBe(true);
  });

  it('never throws, whatever the header holds', () => {
    fc.assert(fc.property(fc.string(), (header) => void hostNameOf(header)));
  });
});

describe('feedOriginAllowed', () => {
  it('accepts no Origin and the proxy own origin, refuses any other', () => {
    expect(feedOriginAllowed(undefined, '127.0.0.1:4545')).toBe(true);
    expect(feedOriginAllowed('http://127.0.0.1:4545', '127.0.0.1:4545')).toBe(true);
    for (const origin of [
      'http://127.0.0.1:4546',
      'https://evil.example',
      'null',
      'file://',
      'http://localhost:4545',
    ])
      expect(feedOriginAllowed(origin, '127.0.0.1:4545'), origin).toBe(false);
    fc.assert(
      fc.property(fc.string(), fc.string(), (origin, host) => void feedOriginAllowed(origin, host)),
    );
  });
});

describe('adminWriteAllowed', () => {
  it('takes JSON from a client that is no web page, or from the page of the same origin', () => {
    const json = { 'content-type': 'application/json; charset=utf-8', host: '127.0.0.1:4545' };
    expect(adminWriteAllowed(json)).toBe(true);
    expect(adminWriteAllowed({ ...json, origin: 'http://127.0.0.1:4545' })).toBe(true);
  });

  it('refuses a foreign page, and anything but JSON (which a page may send without CORS)', () => {
    const json = { 'content-type': 'application/json', host: '127.0.0.1:4545' };
    expect(adminWriteAllowed({ ...json, origin: 'https://evil.example' })).toBe(false);
    expect(adminWriteAllowed({ ...json, 'content-type': 'text/plain' })).toBe(false);
    expect(adminWriteAllowed({ host: '127.0.0.1:4545' })).toBe(false);
  });
});

describe('rebindingSuspected', () => {
  it('suspects a browser on a foreign Host or from a foreign page, never a client without Origin', () => {
    expect(rebindingSuspected('http://evil.example.com', 'evil.example.com', [])).toBe(true);
    expect(rebindingSuspected('http://evil.example', '127.0.0.1:4545', [])).toBe(true);
    expect(rebindingSuspected('http://localhost:4545', 'localhost:4545', [])).toBe(false);
    expect(rebindingSuspected('http://calltape:4545', 'calltape:4545', ['calltape'])).toBe(false);
    expect(rebindingSuspected(undefined, 'calltape:4545', [])).toBe(false);
    fc.assert(
      fc.property(fc.domain(), (name) => {
        const foreign = !['localhost'].includes(name.toLowerCase());
        expect(rebindingSuspected(`http://${name}`, name, [])).toBe(foreign);
        expect(rebindingSuspected(undefined, name, [])).toBe(false);
      }),
    );
  });
});
