import { Authorized, GraphQLAuthorizationGuard, type Int, McpTool, type Page, Query, Resolver, UseGuards } from 'resource-service';
import { Notification } from './notification.entity.js';
import { NotificationService } from './notification.service.js';

/** GraphQL operations on the caller's notifications (docs/behaviour.md §4.1, §10.1). */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Notification)
export class NotificationResolver {
  constructor(private readonly notificationService: NotificationService) {}

  /** One page of the caller's notifications, oldest first; pass the last id as `after` for the next page. */
  @Query()
  @McpTool({ title: 'Read my notifications' })
  @Authorized('read', Notification)
  notifications(first?: Int, after?: string): Promise<Page<Notification>> {
    return this.notificationService.list({ first, after });
  }
}
