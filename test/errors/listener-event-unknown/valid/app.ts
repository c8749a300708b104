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
export class NoteService {
  constructor(private readonly events: EventBus) {}

  add(text: string): void {
    this.events.publish('noteAdded', { text });
  }

  /** A computed topic: what is published cannot be decided, so no listener is reported. */
  touch(topic: string): void {
    this.events.publish(topic, {});
  }
}

@Injectable()
export class NoteAudit {
  @OnEvent('noteAdded')
  onNoteAdded(payload: unknown): void {
    void payload;
  }

  @OnEvent('noteArchived')
  onNoteArchived(): void {}
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, NoteService, NoteAudit] })
export class AppModule {}
