import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, UseGuards } from 'resource-service';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  ownerId!: string;

  /** Its pins, as join rows. */
  @HasMany(() => Pin)
  pins?: Pin[];
}

/** A user. */
@Entity()
export class User {
  @PrimaryKey()
  id!: string;
}

/** Which users pinned which notes: keyed by both. */
@Entity({ exposed: false })
export class Pin {
  @PrimaryKey()
  noteId!: string;

  @PrimaryKey()
  userId!: string;

  @BelongsTo(() => Note, { column: 'noteId' })
  note?: Note;

  @BelongsTo(() => User, { column: 'userId' })
  user?: User;
}

/** A reminder about one note, for one user: its belongs_to relations point at entities keyed by id. */
@Entity({ exposed: false })
export class Reminder {
  @PrimaryKey()
  id!: string;

  @Column()
  noteId!: string;

  @BelongsTo(() => Note, { column: 'noteId' })
  note?: Note;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { ownerId: principal.sub }));
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteAbilities] })
export class AppModule {}

