/**
 * A synthetic application for timing `generate` at scale (BENCHMARKS.md): `count` entities in a chain
 * (each belongs_to the previous one and has_many the next), each with a service, a resolver (a
 * list, a lookup, a create mutation with a validation pipe), a controller (GET list, GET :id,
 * POST) and a module; one abilities class and an AppModule importing every module. Files are
 * laid out as a real project would lay them out: five per entity.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const name = (index: number): string => `Thing${String(index).padStart(3, '0')}`;
const file = (index: number): string => `thing${String(index).padStart(3, '0')}`;

function entitySource(index: number, count: number): string {
  const self = name(index);
  const imports = [
    "import { BelongsTo, Column, Entity, HasMany, PrimaryKey } from '../runtime/declarations/decorators.js';",
    "import type { Int } from '../runtime/declarations/scalars.js';",
  ];
  const relations: string[] = [];
  if (index > 0) {
    imports.push(`import { ${name(index - 1)} } from './${file(index - 1)}.entity.js';`);
    relations.push(
      `  /** The previous thing in the chain. */\n  @BelongsTo(() => ${name(index - 1)}, { column: 'parentId', exposed: true })\n  parent?: ${name(index - 1)} | null;`,
    );
  }
  if (index < count - 1) {
    imports.push(`import { ${name(index + 1)} } from './${file(index + 1)}.entity.js';`);
    relations.push(
      `  /** The next things in the chain. */\n  @HasMany(() => ${name(index + 1)}, { exposed: true })\n  children?: ${name(index + 1)}[];`,
    );
  }
  return `${imports.join('\n')}

/** Synthetic entity ${index + 1} of ${count}. */
@Entity()
export class ${self} {
  @PrimaryKey()
  id!: string;

  @Column()
  orgId!: string;

  /** 1..100 characters. */
  @Column()
  name!: string;

  @Column({ default: 0 })
  rank!: Int;

  @Column({ default: 'now' })
  createdAt!: Date;
${index > 0 ? '\n  @Column()\n  parentId?: string | null;\n' : ''}
${relations.join('\n\n')}
}
`;
}

function serviceSource(index: number): string {
  const self = name(index);
  return `import { z } from 'zod';
import { ${self}Repository } from '../generated/repositories/${file(index)}.repository.js';
import { Injectable } from '../runtime/declarations/decorators.js';
import type { Page, PageArgs } from '../runtime/data/keyset.js';
import type { Result } from '../runtime/failures/result.js';
import type { ${self} } from './${file(index)}.entity.js';

/** Input of create${self}. */
export interface Create${self} {
  name: string;
}

/** Validation of {@link Create${self}}. */
export const Create${self}Schema = z.object({ name: z.string().min(1).max(100) });

/** Business operations on ${self}. */
@Injectable()
export class ${self}Service {
  constructor(private readonly repository: ${self}Repository) {}

  list(args: PageArgs): Promise<Page<${self}>> {
    return this.repository.page(args);
  }

  findById(id: string): Promise<${self} | null> {
    return this.repository.findById(id);
  }

  create(input: Create${self}): Promise<Result<${self}>> {
    return this.repository.create(input);
  }
}
`;
}

function resolverSource(index: number): string {
  const self = name(index);
  const field = file(index);
  return `import { Args, Authorized, Mutation, Query, Resolver, UseGuards } from '../runtime/declarations/decorators.js';
import { GraphQLAuthorizationGuard } from '../runtime/auth/guards.js';
import type { Page } from '../runtime/data/keyset.js';
import { ZodValidationPipe } from '../runtime/declarations/pipes.js';
import type { Result } from '../runtime/failures/result.js';
import type { Int } from '../runtime/declarations/scalars.js';
import { ${self} } from './${field}.entity.js';
import { type Create${self}, Create${self}Schema, ${self}Service } from './${field}.service.js';

/** GraphQL operations on ${self}. */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => ${self})
export class ${self}Resolver {
  constructor(private readonly service: ${self}Service) {}

  /** One keyset page. */
  @Query()
  @Authorized('read', ${self})
  ${field}s(first?: Int, after?: string): Promise<Page<${self}>> {
    return this.service.list({ first, after });
  }

  /** One by id. */
  @Query()
  @Authorized('read', ${self})
  ${field}(id: string): Promise<${self} | null> {
    return this.service.findById(id);
  }

  /** Creates one. */
  @Mutation()
  @Authorized('create', ${self})
  create${self}(@Args(new ZodValidationPipe(Create${self}Schema)) input: Create${self}): Promise<Result<${self}>> {
    return this.service.create(input);
  }
}
`;
}

function controllerSource(index: number): string {
  const self = name(index);
  const field = file(index);
  return `import { Authorized, Body, Controller, Get, Post } from '../runtime/declarations/decorators.js';
import type { Page } from '../runtime/data/keyset.js';
import { ZodValidationPipe } from '../runtime/declarations/pipes.js';
import type { Result } from '../runtime/failures/result.js';
import type { Int } from '../runtime/declarations/scalars.js';
import { ${self} } from './${field}.entity.js';
import { type Create${self}, Create${self}Schema, ${self}Service } from './${field}.service.js';

/** REST routes of ${self}. */
@Controller({ path: '${field}s', version: '1' })
export class ${self}Controller {
  constructor(private readonly service: ${self}Service) {}

  @Get()
  @Authorized('read', ${self})
  list(first?: Int, after?: string): Promise<Page<${self}>> {
    return this.service.list({ first, after });
  }

  @Get(':id')
  @Authorized('read', ${self})
  get(id: string): Promise<${self} | null> {
    return this.service.findById(id);
  }

  @Post()
  @Authorized('create', ${self})
  create(@Body(new ZodValidationPipe(Create${self}Schema)) input: Create${self}): Promise<Result<${self}>> {
    return this.service.create(input);
  }
}
`;
}

function moduleSource(index: number): string {
  const self = name(index);
  const field = file(index);
  return `import { Module } from '../runtime/declarations/decorators.js';
import { GraphQLAuthorizationModule } from '../runtime/auth/guards.js';
import { ${self}Controller } from './${field}.controller.js';
import { ${self}Resolver } from './${field}.resolver.js';
import { ${self}Service } from './${field}.service.js';

@Module({ imports: [GraphQLAuthorizationModule], providers: [${self}Service, ${self}Resolver], controllers: [${self}Controller] })
export class ${self}Module {}
`;
}

function appModuleSource(count: number): string {
  const indexes = Array.from({ length: count }, (_unused, index) => index);
  return `import { type AppAbility, defineAbility, type Principal } from '../runtime/auth/ability.js';
import { Abilities, Module, UseGuards } from '../runtime/declarations/decorators.js';
import { AuthenticationGuard } from '../runtime/auth/guards.js';
import { LoaderScope } from '../runtime/graphql/loaders.js';
${indexes.map((index) => `import { ${name(index)}Module } from './${file(index)}.module.js';`).join('\n')}

/** Every thing is readable and creatable inside the principal's org. */
@Abilities()
export class SyntheticAbilities {
  for(principal: Principal): AppAbility {
    const inOrg = { orgId: principal.org_id };
    return defineAbility(({ can }) => {
${indexes.map((index) => `      can(['read', 'create'], '${name(index)}', inOrg);`).join('\n')}
    });
  }
}

@UseGuards(AuthenticationGuard)
@Module({
  imports: [${indexes.map((index) => `${name(index)}Module`).join(', ')}],
  providers: [SyntheticAbilities, LoaderScope],
})
export class AppModule {}
`;
}

/** Writes the synthetic declarations of `count` entities into `entitiesDir` (created). */
export function writeSyntheticEntities(entitiesDir: string, count: number): void {
  mkdirSync(entitiesDir, { recursive: true });
  for (let index = 0; index < count; index++) {
    const base = path.join(entitiesDir, file(index));
    writeFileSync(`${base}.entity.ts`, entitySource(index, count));
    writeFileSync(`${base}.service.ts`, serviceSource(index));
    writeFileSync(`${base}.resolver.ts`, resolverSource(index));
    writeFileSync(`${base}.controller.ts`, controllerSource(index));
    writeFileSync(`${base}.module.ts`, moduleSource(index));
  }
  writeFileSync(path.join(entitiesDir, 'app.module.ts'), appModuleSource(count));
}
