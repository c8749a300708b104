import { Authorized, Column, Entity, Module, PrimaryKey, Query, Resolver } from '../../../../runtime/decorators.js';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

@Resolver(() => Note)
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Module({ providers: [NoteResolver] })
export class AppModule {}
