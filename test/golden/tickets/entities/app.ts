import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationModule, Injectable, LoaderScope } from 'resource-service';
import { Abilities, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Resource, UseGuards } from 'resource-service';
import { TicketLabelRepository } from '../generated/repositories/ticket-label.repository.js';

/**
 * A ticket of a workspace's tracker.
 *
 * @privateRemarks
 * A tracker with a join table: labels go on tickets through `TicketLabel`,
 * keyed by both ends.
 */
@Entity()
@Resource({ path: 'tickets' })
export class Ticket {
  @PrimaryKey()
  id!: string;

  @Column()
  workspaceId!: string;

  /** What is wrong, in one line. */
  @Column({ maxLength: 200 })
  title!: string;

  /** The labels put on it, as join rows (a Prisma back-relation; not on the wire). */
  @HasMany(() => TicketLabel)
  labelLinks?: TicketLabel[];
}

/** A label a workspace puts on its tickets. */
@Entity()
@Resource({ path: 'labels' })
export class Label {
  @PrimaryKey()
  id!: string;

  @Column()
  workspaceId!: string;

  /** What the label says. */
  @Column({ maxLength: 40 })
  name!: string;
}

/** One label on one ticket: a join row, keyed by its ticket and its label. */
@Entity({ exposed: false })
export class TicketLabel {
  @PrimaryKey()
  ticketId!: string;

  @PrimaryKey()
  labelId!: string;

  @Column()
  workspaceId!: string;

  /** When the label was put on. */
  @Column({ default: 'now' })
  addedAt!: Date;

  @BelongsTo(() => Ticket, { column: 'ticketId' })
  ticket?: Ticket;

  @BelongsTo(() => Label, { column: 'labelId' })
  label?: Label;
}

/** Labels tickets, through the join rows' repository (scoped like every other). */
@Injectable()
export class Labelling {
  constructor(private readonly links: TicketLabelRepository) {}

  /** The labels on `ticketId` the caller may see, as join rows. */
  async labelsOf(ticketId: string): Promise<TicketLabel[]> {
    return this.links.list({ ticketId });
  }
}

@Abilities()
export class TrackerAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      const inWorkspace = { workspaceId: principal.org_id };
      can(['create', 'read', 'update', 'delete'], ['Ticket', 'Label'], inWorkspace);
      can(['create', 'read', 'delete'], 'TicketLabel', inWorkspace);
    });
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [TrackerAbilities, LoaderScope, Labelling] })
export class AppModule {}
