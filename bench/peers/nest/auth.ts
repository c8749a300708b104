/**
 * The NestJS peer's authentication, as NestJS's authentication chapter writes it: a global guard
 * (`APP_GUARD`) that verifies the bearer token and puts its claims on the request, for GraphQL
 * (through `GqlExecutionContext`) and REST alike, and a `@CurrentUser()` parameter decorator. The
 * token is verified with `jose`, as every other server of the benchmark does, rather than
 * `@nestjs/jwt`, so the cost of verifying is the same everywhere.
 */
import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Request } from 'express';
import { jwtVerify } from 'jose';

/** The caller, from the token's claims. */
export interface Caller {
  readonly sub: string;
  readonly orgId: string;
  readonly role: string;
}

/** The HS256 secret tokens are signed with (set before the module is created). */
export const AUTH_OPTIONS = { secret: new Uint8Array() };

type AuthenticatedRequest = Request & { user?: Caller };

function requestOf(context: ExecutionContext): AuthenticatedRequest {
  if (context.getType<string>() === 'graphql') return GqlExecutionContext.create(context).getContext<{ req: AuthenticatedRequest }>().req;
  return context.switchToHttp().getRequest<AuthenticatedRequest>();
}

@Injectable()
export class AuthGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = requestOf(context);
    const [scheme, token] = request.headers.authorization?.split(' ') ?? [];
    if (scheme !== 'Bearer' || !token) throw new UnauthorizedException();
    try {
      const { payload } = await jwtVerify(token, AUTH_OPTIONS.secret, { algorithms: ['HS256'] });
      request.user = { sub: String(payload.sub), orgId: String(payload.org_id), role: String(payload.role) };
    } catch {
      throw new UnauthorizedException();
    }
    return true;
  }
}

/** The authenticated caller of the request (the guard put it there). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const user = requestOf(context).user;
  if (!user) throw new UnauthorizedException();
  return user;
});
