import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule, type ID } from 'resource-service';
import { Abilities, type AppAbility, Args, Authorized, Column, defineAbility, Entity, Module, PrimaryKey, type Principal, Query, Resolver, Subscription, type PipeTransform, UseGuards } from 'resource-service';

/** A ticket of a project. */
@Entity()
export class Ticket {
  @PrimaryKey()
  id!: string;

  @Column()
  projectId!: string;
}

/** Trims a text argument. */
export class TrimPipe implements PipeTransform {
  transform(value: unknown): unknown {
    return typeof value === 'string' ? value.trim() : value;
  }
}

@Abilities()
export class TicketAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Ticket', { projectId: principal.org_id }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Ticket)
export class TicketResolver {
  @Query()
  @Authorized('read', Ticket)
  ticket(id: ID): Promise<Ticket | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Tickets closed in one project: the ticket first, then the argument. */
  @Subscription()
  @Authorized('read', Ticket)
  ticketClosed(ticket: Ticket, projectId?: ID): Ticket | null {
    return projectId === undefined || ticket.projectId === projectId ? ticket : null;
  }

  /** Tickets reopened: a pipe binds an argument. */
  @Subscription()
  @Authorized('read', Ticket)
  ticketReopened(ticket: Ticket, @Args(TrimPipe) projectId?: ID): Ticket | null {
    return projectId === undefined || ticket.projectId === projectId ? ticket : null;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [TicketResolver, TicketAbilities] })
export class AppModule {}
