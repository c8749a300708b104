import { GraphQLAuthorizationModule, Module } from 'resource-service';
import { AuditService } from './audit.service.js';
import { DigestService } from './digest.service.js';
import { NotificationResolver } from './notification.resolver.js';
import { NotificationService } from './notification.service.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsProcessor } from './notifications.processor.js';

/**
 * What happens after the requests: the `notifications` job processor (docs/behaviour.md §10.1), the
 * audit listener on `postPublished` (§10.3), the digest schedule (§10.2), and the notifications'
 * read paths (audit records and digests are read through their resources, §4.7).
 */
@Module({
  imports: [GraphQLAuthorizationModule],
  providers: [NotificationsProcessor, NotificationService, NotificationResolver, AuditService, DigestService],
  controllers: [NotificationsController],
})
export class ActivityModule {}
