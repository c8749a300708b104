import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, BelongsTo, Column, Entity, Module, PrimaryKey, Resource, UseGuards } from 'resource-service';

/** A note. */
@Entity({ exposed: false })
@Resource({ path: 'notes' })
export class Note {
  @PrimaryKey()
  id!: string;

  @Column({ maxLength: 200 })
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteAbilities] })
export class AppModule {}

/** A tag, at no path. */
@Entity()
@Resource({ path: '/', operations: ['list', 'get'] })
export class Tag {
  @PrimaryKey()
  id!: string;
}

/** A stamp: nothing a caller could write. */
@Entity()
@Resource({ path: 'stamps' })
export class Stamp {
  @PrimaryKey()
  id!: string;

  @Column({ default: 'now' })
  at!: Date;
}

/** Which stamps are on which notes: a join table, keyed by both. */
@Entity({ exposed: false })
@Resource({ path: 'note-stamps' })
export class NoteStamp {
  @PrimaryKey()
  noteId!: string;

  @PrimaryKey()
  stampId!: string;

  @Column({ maxLength: 200 })
  remark!: string;

  @BelongsTo(() => Note, { column: 'noteId' })
  note?: Note;

  @BelongsTo(() => Stamp, { column: 'stampId' })
  stamp?: Stamp;
}
