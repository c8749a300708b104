import { Authorized, currentPrincipal, Gateway, Public, SubscribeMessage } from 'resource-service';
import { User } from './user.entity.js';

/**
 * A WebSocket gateway versioned by its socket URL (docs/behaviour.md §4.4, §9.5): `ws://host/v1/ws`, whatever
 * the HTTP versioning strategy. Messages are `{ "event": …, "data": … }`.
 */
@Gateway({ path: 'ws', version: '1' })
export class EchoGateway {
  /** Answers `ping` with the data it was sent. */
  @SubscribeMessage('ping')
  @Public()
  ping(data: unknown): { pong: unknown } {
    return { pong: data };
  }

  /** Who the socket's caller is (the token comes with the upgrade request). */
  @SubscribeMessage('whoami')
  @Authorized('read', User)
  whoami(): { sub: string; org: string } {
    const principal = currentPrincipal();
    return { sub: principal.sub, org: principal.org_id };
  }
}
