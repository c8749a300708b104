import { NotificationRepository } from '../generated/repositories/notification.repository.js';
import { Injectable, type Page, type PageArgs } from 'resource-service';
import type { Notification } from './notification.entity.js';

/** The caller's notifications; the row scope lets each user read only their own (docs/decisions.md §3). */
@Injectable()
export class NotificationService {
  constructor(private readonly notifications: NotificationRepository) {}

  /** One keyset page of the caller's notifications, oldest first (docs/behaviour.md §4.2). */
  list(args: PageArgs): Promise<Page<Notification>> {
    return this.notifications.page(args);
  }
}
