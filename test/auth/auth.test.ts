/**
 * The bearer verifier (docs/behaviour.md §5.1) remembers tokens that verified, for speed, without ever
 * accepting what it would refuse: an expired token is refused even after it verified, a token
 * not yet valid is refused, and a changed signature never matches a remembered token.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mintToken, TokenVerifier } from '../../runtime/auth/authentication.js';
import { TEST_SECRET } from '../support/project.js';

const claims = () => ({ sub: randomUUID(), org_id: randomUUID(), role: 'member' });

describe('TokenVerifier', () => {
  it('refuses a token once it expires, though it verified before', async () => {
    const verifier = new TokenVerifier({ secret: TEST_SECRET });
    const token = await mintToken(TEST_SECRET, claims(), '2s');
    expect((await verifier.verify(token)).kind).toBe('authenticated');
    expect((await verifier.verify(token)).kind).toBe('authenticated');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await verifier.verify(token)).toEqual({ kind: 'rejected', reason: 'the token has expired' });
  });

  it('refuses a token whose nbf is in the future, every time', async () => {
    const verifier = new TokenVerifier({ secret: TEST_SECRET });
    const token = await mintToken(TEST_SECRET, claims(), '1h', { nbf: Math.floor(Date.now() / 1000) + 3600 });
    expect((await verifier.verify(token)).kind).toBe('rejected');
    expect((await verifier.verify(token)).kind).toBe('rejected');
  });

  it('never lets a token with another signature match a remembered one', async () => {
    const verifier = new TokenVerifier({ secret: TEST_SECRET });
    const token = await mintToken(TEST_SECRET, claims());
    expect((await verifier.verify(token)).kind).toBe('authenticated');
    const [header, payload, signature = ''] = token.split('.');
    const tampered = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await verifier.verify(tampered)).toEqual({ kind: 'rejected', reason: 'the token signature does not verify' });
    const forged = await mintToken('another-secret-of-at-least-thirty-two-characters', { ...claims() });
    expect((await verifier.verify(forged)).kind).toBe('rejected');
  });
});
