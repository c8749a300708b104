import { GraphQLAuthorizationModule } from '../runtime/auth/guards.js';
import { Module } from '../runtime/declarations/decorators.js';
import { AuditController } from './audit.controller.js';
import { AuditResolver } from './audit.resolver.js';
import { AuditService } from './audit.service.js';
import { DigestResolver } from './digest.resolver.js';
import { DigestService } from './digest.service.js';
import { DigestsController } from './digests.controller.js';
import { NotificationResolver } from './notification.resolver.js';
import { NotificationService } from './notification.service.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsProcessor } from './notifications.processor.js';

/**
 * What happens after the requests: the `notifications` job processor (docs/behaviour.md §10.1), the
 * audit listener on `postPublished` (§10.3), the digest schedule (§10.2), and the read paths of what
 * they write.
 */
@Module({
  imports: [GraphQLAuthorizationModule],
  providers: [NotificationsProcessor, NotificationService, NotificationResolver, AuditService, AuditResolver, DigestService, DigestResolver],
  controllers: [NotificationsController, AuditController, DigestsController],
})
export class ActivityModule {}
