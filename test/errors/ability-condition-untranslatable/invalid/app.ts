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

  @HasMany(() => Card, { via: 'boardId' })
  cards?: Card[];
}

/** A card on a board, maybe given to someone. */
@Entity()
export class Card {
  @PrimaryKey()
  id!: string;

  @Column()
  boardId!: string;

  @Column()
  ownerId?: string | null;

  @Column()
  text!: string;

  @BelongsTo(() => Board, { column: 'boardId' })
  board?: Board | null;

  @BelongsTo(() => Board, { column: 'ownerId' })
  owner?: Board | null;
}

@Abilities()
export class CardAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      can('read', 'Card', { text: { contains: 'x', mode: 'insensitive' } });
      can('read', 'Card', { text: { not: { search: principal.sub } } });
      can('read', 'Card', { board: { is: { title: { startWith: 'A' } } } });
      can('read', 'Card', { owner: { is: null } });
      can('read', 'Board', { cards: { some: { text: { has: 'x' } } } });
      can('create', 'Card', { board: { is: { title: 'Open' } } });
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
