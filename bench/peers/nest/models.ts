/**
 * The NestJS peer's GraphQL types, code first (`@ObjectType`, `@Field`, `@InputType`), as the
 * @nestjs/graphql documentation teaches; the schema is generated from them at boot
 * (`autoSchemaFile`). Names and nullability follow `generated/schema.graphql` where the
 * benchmark's documents see them, so the same documents validate.
 */
import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class Org {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;
}

@ObjectType()
class Post {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  body!: string;

  @Field()
  status!: string;

  @Field(() => ID)
  authorId!: string;
}

@ObjectType()
class PageInfo {
  @Field()
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

@ObjectType()
class PostEdge {
  @Field()
  cursor!: string;

  @Field(() => Post)
  node!: Post;
}

@ObjectType()
export class PostConnection {
  @Field(() => [PostEdge])
  edges!: PostEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}

@ObjectType()
export class User {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  orgId!: string;

  @Field()
  name!: string;

  @Field()
  email!: string;
}

@InputType('CreateUser')
export class CreateUserInput {
  @Field()
  name!: string;

  @Field()
  email!: string;
}
