import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** A board of cards. */
@Entity()
export class Board {
  @PrimaryKey()
  id!: string;

  @Column()
  title!: string;

  @HasMany(() => Card)
  cards?: Card[];
}

/** A card on a board. */
@Entity()
export class Card {
  @PrimaryKey()
  id!: string;

  @Column()
  boardId!: string;

  @Column()
  text!: string;

  @BelongsTo(() => Board, { column: 'boardId' })
  board?: Board | null;
}

@Abilities()
export class CardAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      can('read', 'Card', { text: { contains: 'x' }, NOT: { text: { not: { in: [principal.sub] } } } });
      can('read', 'Card', { board: { is: { title: { startsWith: 'A' } } } });
      can('read', 'Board', { cards: { some: { text: { endsWith: 'x' } } }, OR: [{ cards: { none: {} } }] });
      can('update', 'Card', { board: { isNot: { title: 'Closed' } } });
      can('create', 'Card', { boardId: principal.org_id });
    });
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Card)
export class CardResolver {
  @Query()
  @Authorized('read', Card)
  card(id: string): Promise<Card | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [CardResolver, CardAbilities] })
export class AppModule {}
