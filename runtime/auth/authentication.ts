/**
 * Bearer authentication (docs/behaviour.md §5.1, docs/decisions.md §3): `Authorization: Bearer <JWT>` verified with
 * `jose`. HS256 with a shared secret by default; a JWKS URL switches to RS256/ES256 against a
 * key set. `exp` is required and enforced; the algorithm is pinned (no `none`, no HS/RS
 * confusion). Claims must carry `sub` and `org_id` (UUIDs) and `role`.
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Principal } from './ability.js';

/** Settings of the verifier (from `APP_AUTH__*`). */
export interface AuthSettings {
  /** HS256 shared secret (`APP_AUTH__SECRET`). */
  readonly secret: string;
  /** When set, tokens are verified against this key set with RS256/ES256 (`APP_AUTH__JWKS_URL`). */
  readonly jwksUrl?: string | undefined;
  /** Required `iss` when set (`APP_AUTH__ISSUER`). */
  readonly issuer?: string | undefined;
  /** Required `aud` when set (`APP_AUTH__AUDIENCE`). */
  readonly audience?: string | undefined;
}

/**
 * The outcome of reading a request's credentials. An authenticated one carries when its token
 * expires (`exp`, milliseconds since the epoch): a socket does not outlive it (docs/hostile-input.md §9).
 */
export type Authentication =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'authenticated'; readonly principal: Principal; readonly expiresAt?: number }
  | { readonly kind: 'rejected'; readonly reason: string };

/** Whether `authentication` is a token that has expired by `now` (milliseconds since the epoch). */
export function tokenExpired(authentication: Authentication | undefined, now = Date.now()): boolean {
  return authentication?.kind === 'authenticated' && authentication.expiresAt !== undefined && now >= authentication.expiresAt;
}

const claimsSchema = z.object({
  sub: z.uuid({ message: 'sub must be a UUID' }),
  org_id: z.uuid({ message: 'org_id must be a UUID' }),
  role: z.string().min(1, 'role is required'),
});

/** A verified token, kept until it expires. */
interface VerifiedToken {
  readonly authentication: Authentication;
  /** `exp`, seconds since the epoch. */
  readonly expiresAt: number;
  /** `nbf`, seconds since the epoch, when present. */
  readonly notBefore: number | undefined;
}

/**
 * Verifies bearer tokens; build one per process and reuse it. A token that verified is
 * remembered, by its exact compact form, until its `exp` (a client sends the same token with every
 * request, and checking its signature again each time was a share of a REST list: BENCHMARKS.md §"Where the time goes"); the time claims are still checked on every request, and failures are never remembered.
 */
export class TokenVerifier {
  private readonly key: Uint8Array | ReturnType<typeof createRemoteJWKSet>;
  private readonly options: JWTVerifyOptions;
  private readonly verified = new LRUCache<string, VerifiedToken>({ max: 10_000 });

  constructor(settings: AuthSettings) {
    if (settings.jwksUrl) {
      this.key = createRemoteJWKSet(new URL(settings.jwksUrl));
      this.options = { algorithms: ['RS256', 'ES256'] };
    } else {
      this.key = new TextEncoder().encode(settings.secret);
      this.options = { algorithms: ['HS256'] };
    }
    this.options = {
      ...this.options,
      requiredClaims: ['exp', 'sub'],
      ...(settings.issuer ? { issuer: settings.issuer } : {}),
      ...(settings.audience ? { audience: settings.audience } : {}),
    };
  }

  /**
   * Reads an `Authorization` header value: absent → anonymous; a valid bearer token →
   * authenticated with its principal; anything else → rejected with a caller-safe reason.
   */
  async authenticate(authorization: string | undefined): Promise<Authentication> {
    if (authorization === undefined || authorization === '') return { kind: 'anonymous' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) return { kind: 'rejected', reason: 'the Authorization header must be "Bearer <token>"' };
    return this.verify(match[1]);
  }

  /** Verifies one compact JWT; never throws. */
  async verify(token: string): Promise<Authentication> {
    const now = Date.now() / 1000;
    const remembered = this.verified.get(token);
    if (remembered && now < remembered.expiresAt && (remembered.notBefore === undefined || now >= remembered.notBefore))
      return remembered.authentication;
    try {
      const { payload } =
        typeof this.key === 'function' ? await jwtVerify(token, this.key, this.options) : await jwtVerify(token, this.key, this.options);
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success)
        return { kind: 'rejected', reason: `invalid token claims: ${claims.error.issues.map((issue) => issue.message).join('; ')}` };
      const authentication: Authentication = {
        kind: 'authenticated',
        principal: claims.data,
        ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp * 1000 } : {}),
      };
      if (typeof payload.exp === 'number')
        this.verified.set(token, {
          authentication,
          expiresAt: payload.exp,
          notBefore: typeof payload.nbf === 'number' ? payload.nbf : undefined,
        });
      return authentication;
    } catch (error) {
      return { kind: 'rejected', reason: describeJoseError(error) };
    }
  }
}

function describeJoseError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is signed with an algorithm this server does not accept';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  return 'the token is not a valid JWT';
}

/** Claims of a development token minted by the `token` command. */
export interface TokenClaims {
  readonly sub: string;
  readonly org_id: string;
  readonly role: string;
}

/**
 * Mints an HS256 token for development and tests (`token` CLI command).
 * `expiresIn` is a jose time span such as `'12h'`; returns the compact JWT.
 */
export async function mintToken(secret: string, claims: TokenClaims, expiresIn = '12h', extra: JWTPayload = {}): Promise<string> {
  return new SignJWT({ ...extra, org_id: claims.org_id, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}
