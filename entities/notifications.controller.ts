import { ApiTags, Authorized, Controller, Get, type Int, type Page } from 'resource-service';
import { Notification } from './notification.entity.js';
import { NotificationService } from './notification.service.js';

/**
 * What happened to the caller's work: one notification per event, for the caller only.
 *
 * @privateRemarks
 * Version 2 only, like the publish route whose jobs write them (docs/behaviour.md §10.1).
 */
@ApiTags('Notifications')
@Controller({ path: 'notifications', version: '2' })
export class NotificationsController {
  constructor(private readonly notificationService: NotificationService) {}

  /** One page of the caller's notifications, oldest first. */
  @Get()
  @Authorized('read', Notification)
  list(first?: Int, after?: string): Promise<Page<Notification>> {
    return this.notificationService.list({ first, after });
  }
}
