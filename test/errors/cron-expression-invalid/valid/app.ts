import { z } from 'zod';
import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Cron, Entity, Injectable, InjectQueue, Module, OnEvent, PrimaryKey, Process, Processor, Query, Resolver, UseGuards } from 'resource-service';
import { EventBus } from 'resource-service';
import type { Queue } from 'resource-service';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

/** The payload of a welcome email. */
export const WelcomeSchema = z.object({ userId: z.string() });

@Injectable()
export class Housekeeping {
  @Cron('0 * * * *')
  hourly(): void {}

  @Cron('*/10 * * * * *')
  sweep(): void {}

  @Cron('0 3 * * MON-FRI')
  weekdays(): void {}
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, Housekeeping] })
export class AppModule {}
