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

@Processor('emails.welcome')
export class EmailProcessor {
  @Process('welcome', WelcomeSchema)
  welcome(payload: z.infer<typeof WelcomeSchema>): void {
    void payload;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, EmailProcessor] })
export class AppModule {}
